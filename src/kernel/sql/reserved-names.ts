import { quoteIdentifier } from "./naming.js";

/**
 * The prefix of every name recordflare adds to the statements it writes: the rows of a subquery (`WITH ... AS`),
 * a joined list and its column, the columns of a count or an existence check. A Model may not give its table or a
 * column a name with it, so that none of these ever shadows the table or makes one of its columns ambiguous.
 */
export const RESERVED_PREFIX = "recordflare_";

/** A name recordflare adds to a statement, `recordflare_<name>`, as a row read back names it. Plugin API. */
export function reservedName(name: string): string {
  return `${RESERVED_PREFIX}${name}`;
}

/** A name recordflare adds to a statement, quoted for its SQL: `"recordflare_<name>"`. Plugin API. */
export function injectedName(name: string): string {
  return quoteIdentifier(reservedName(name));
}

/** Whether a table or column name is one recordflare keeps for itself (SQLite compares names ignoring case). */
export function isReservedName(name: string): boolean {
  return name.toLowerCase().startsWith(RESERVED_PREFIX);
}

/**
 * Whether a column of this name hides SQLite's row id from the statements recordflare writes: they read it as
 * `rowid` (to find the key of a row the database numbered), which then names the column, in any case. SQLite's
 * other names of the row id, `_rowid_` and `oid`, are never written by recordflare, so columns of those names are
 * free.
 */
export function hidesRowId(column: string): boolean {
  return column.toLowerCase() === "rowid";
}

/** Why a column may not hide the row id: said by the kernel's refusal and the generator's alike. */
export const ROW_ID_REASON = "it would hide SQLite's row id, which recordflare reads to find the key of a row the database numbered";
