/**
 * The app the commands work on: its folder (the current directory, or `--cwd`), the places of the generated
 * files, its migrations, and writing files with a line of output each.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError, fileSystemFailure, isSystemError } from "./errors.js";
import { type MigrationFile, readMigrations } from "./migrations.js";
import { MigratedDatabase } from "./schema-reader.js";

/** A file to write, by its path relative to the app's folder, and what its line of output adds, if anything. */
export interface FileToWrite {
  readonly path: string;
  readonly text: string;
  readonly note?: string;
}

/** Where the generated files go, relative to the app's folder (SPEC "Generated files"). */
export const PATHS = {
  migrations: "migrations",
  schema: "src/db/schema.ts",
  models: "src/models",
  applicationRecord: "src/models/application-record.ts",
} as const;

/** A line of a command's output: the action (`create`, `update`, `identical`, `skip`, `upgrade`), the path or package, and why if need be. */
export function outputLine(action: string, relative: string, note?: string): string {
  return `${action.padEnd(9)}  ${relative}${note === undefined ? "" : ` (${note})`}`;
}

/** An app's folder, with its migrations. */
export class Project {
  /** The app's folder, absolute. */
  readonly root: string;

  /** The app in `cwd` (relative to the process's directory); throws `CliError` when it is not a folder. */
  constructor(cwd: string | undefined) {
    this.root = path.resolve(cwd ?? ".");
    if (!existsSync(this.root) || !statSync(this.root).isDirectory()) throw new CliError(`${this.root} is not a folder.`);
  }

  /** Whether a file exists, by its path relative to the app's folder. */
  exists(relative: string): boolean {
    return existsSync(path.join(this.root, relative));
  }

  /** The migration files, in the order they apply; throws `CliError` when the folder or a file cannot be read. */
  migrations(): MigrationFile[] {
    try {
      return readMigrations(path.join(this.root, PATHS.migrations), PATHS.migrations);
    } catch (error) {
      throw this.failure(error, "read", PATHS.migrations);
    }
  }

  /** The names of the files in a folder, sorted; none when the folder does not exist. Throws `CliError` when it cannot be read. */
  filesIn(relative: string): string[] {
    if (!this.exists(relative)) return [];
    try {
      return readdirSync(path.join(this.root, relative), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      throw this.failure(error, "read", relative);
    }
  }

  /** A file's text, or undefined when it does not exist; throws `CliError` when it cannot be read. */
  read(relative: string): string | undefined {
    if (!this.exists(relative)) return undefined;
    try {
      return readFileSync(path.join(this.root, relative), "utf8");
    } catch (error) {
      throw this.failure(error, "read", relative);
    }
  }

  /** An in-memory database with every migration applied; throws `CliError` naming a migration that does not apply. */
  async migratedDatabase(migrations: readonly MigrationFile[]): Promise<MigratedDatabase> {
    const database = await MigratedDatabase.open();
    try {
      return database.apply(...migrations);
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /**
   * Writes files (making folders as needed) and returns a line for each: `create`, `update`, or `identical` when
   * the file already held that text. All or nothing: when one cannot be written, those written before it are put
   * back as they were, and `CliError` says which file and why.
   */
  write(files: readonly FileToWrite[]): string[] {
    const planned = files.map((file) => ({ file, before: this.read(file.path) }));
    const undo: Array<() => void> = [];
    let current = "";
    try {
      for (const { file, before } of planned) {
        if (before === file.text) continue;
        current = file.path;
        const absolute = path.join(this.root, file.path);
        const madeFolder = mkdirSync(path.dirname(absolute), { recursive: true });
        if (madeFolder !== undefined) undo.push(() => rmSync(madeFolder, { recursive: true, force: true }));
        writeFileSync(absolute, file.text);
        undo.push(before === undefined ? () => rmSync(absolute, { force: true }) : () => writeFileSync(absolute, before));
      }
    } catch (error) {
      const outcome = undone(undo) ? "nothing was written" : "the files written before it could not all be put back";
      throw new CliError(`${this.failedOperation(error, "write", current)}; ${outcome}.`);
    }
    return planned.map(({ file, before }) =>
      outputLine(before === undefined ? "create" : before === file.text ? "identical" : "update", file.path, before === file.text ? undefined : file.note),
    );
  }

  /** Makes a folder unless it exists, with a line of output: `create` or `identical`. */
  makeFolder(relative: string): string[] {
    const absolute = path.join(this.root, relative);
    const existed = existsSync(absolute);
    try {
      if (!existed) mkdirSync(absolute, { recursive: true });
    } catch (error) {
      throw this.failure(error, "make the folder", relative);
    }
    return [outputLine(existed ? "identical" : "create", `${relative}/`)];
  }

  /**
   * Writes the files that do not exist yet; a file that exists is the app's, and is left as it is: `identical`
   * when it already holds that text, else `skip` (the app may have edited it).
   */
  writeNew(files: readonly FileToWrite[]): string[] {
    return files.flatMap((file) => {
      const existing = this.read(file.path);
      if (existing === undefined) return this.write([file]);
      const same = existing === file.text;
      return [outputLine(same ? "identical" : "skip", file.path, same ? undefined : "exists, left as it is")];
    });
  }

  // A failed file operation as `CliError`.
  private failure(error: unknown, action: string, relative: string): CliError {
    return new CliError(`${this.failedOperation(error, action, relative)}.`);
  }

  // What went wrong, naming the file that failed relative to the app's folder.
  private failedOperation(error: unknown, action: string, relative: string): string {
    const failed = isSystemError(error) && error.path !== undefined ? path.relative(this.root, error.path) || relative : relative;
    return fileSystemFailure(error, action, failed);
  }
}

// Runs the steps that put back what was written, the last first; whether they all succeeded.
function undone(steps: ReadonlyArray<() => void>): boolean {
  let complete = true;
  for (const step of [...steps].reverse()) {
    try {
      step();
    } catch {
      complete = false;
    }
  }
  return complete;
}
