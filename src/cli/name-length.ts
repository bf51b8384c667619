/**
 * How long a Model or migration name may be. Files are named after it (`src/models/<name>.ts`,
 * `migrations/<nnnn>_create_<table>.sql`), and a file system takes at most 255 bytes for a file name: a longer
 * name is refused before anything is read or written, instead of failing half-way with ENAMETOOLONG.
 */
import { CliError } from "./errors.js";

/**
 * The most characters a Model or migration name may have. With snake_case adding at most one `_` for every two
 * characters, a plural ending and `<nnnn>_create_...sql`, the longest file name stays well under 255 bytes.
 */
export const MAX_NAME_LENGTH = 100;

/** Throws `CliError` naming the kind of name (`Model`, `migration`) when `name` is longer than `MAX_NAME_LENGTH`. */
export function refuseLongName(kind: string, name: string): void {
  if (name.length <= MAX_NAME_LENGTH) return;
  throw new CliError(
    `The ${kind} name ${name.slice(0, 20)}... is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are taken, so that the files named after it fit the 255 bytes a file name may have.`,
  );
}
