/**
 * Column names a generated migration does not make: a Model with a column starting with `recordflare_` is refused at
 * its first use (recordflare names what it adds to its queries so), and a column `rowid` hides SQLite's row id,
 * which recordflare reads to find the key of a row the database numbered.
 */
import { hidesRowId, isReservedName, RESERVED_PREFIX, ROW_ID_REASON } from "../kernel/sql/reserved-names.js";
import { CliError } from "./errors.js";

/** Why a new column may not have this name, or undefined when it may. */
function reservedColumnReason(column: string): string | undefined {
  if (isReservedName(column)) return `names starting with ${RESERVED_PREFIX} are kept for the names recordflare adds to its queries`;
  if (hidesRowId(column)) return ROW_ID_REASON;
  return undefined;
}

/** Throws `CliError` naming the argument when a column it makes has a reserved name. */
export function refuseReservedColumns(source: string, columns: readonly string[]): void {
  for (const column of columns) {
    const reason = reservedColumnReason(column);
    if (reason !== undefined) throw new CliError(`Column "${source}": the column ${column} has a reserved name (${reason}); choose another name.`);
  }
}
