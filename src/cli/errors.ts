/**
 * A mistake of the user's (bad column syntax, an unknown table, a migration that does not apply): the command
 * prints its message as one line and exits with code 1, having written nothing.
 */
export class CliError extends Error {
  override name = "CliError";
}

// Node's codes of failed file operations, in words.
const FILE_SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENAMETOOLONG: "a name in the path is longer than the file system takes",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  ENOSPC: "no space is left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "it is a folder, not a file",
  ENOENT: "it does not exist",
  EEXIST: "a file of that name is in the way",
  EMFILE: "too many files are open",
  EBUSY: "it is in use",
};

/** Whether an error is one of Node's failed system calls (it has a `code` such as `EACCES` and the `syscall`). */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string; syscall: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string" && typeof (error as NodeJS.ErrnoException).syscall === "string";
}

/**
 * What went wrong in a failed file operation, in words: `Cannot <action> <file>: <reason> (<code>)`. An error that
 * is not a failed system call gives its own message.
 */
export function fileSystemFailure(error: unknown, action: string, file: string): string {
  if (!isSystemError(error)) return `Cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`;
  return `Cannot ${action} ${file}: ${FILE_SYSTEM_REASONS[error.code] ?? error.message} (${error.code})`;
}
