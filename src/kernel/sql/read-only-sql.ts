import { withoutTexts } from "./placeholders.js";

/**
 * How a statement that writes nothing begins, read as SQLite reads it: SELECT and VALUES never write, nor EXPLAIN
 * (it runs nothing); WITH reads unless the statement after its common table expressions is an INSERT, UPDATE, DELETE
 * or REPLACE (not the `replace()` function); a PRAGMA reads unless it sets a value with `=`. (`PRAGMA name(value)`
 * reads or sets by the name: taken as a read, which is harmless to both uses, since setting a pragma twice has the
 * effect of once and writes no Model's rows.)
 */
const READ_ONLY = /^\s*(?:SELECT\b|VALUES\b|EXPLAIN\b|WITH\b(?![^]*\b(?:INSERT|UPDATE|DELETE|REPLACE\b(?!\s*\())\b)|PRAGMA\b[^=]*$)/i;

/**
 * Whether a statement's SQL only reads: what decides whether a connection may send it again after a transient error,
 * and which statements of a failed batch are the writes an error is of. Comments, strings and quoted names (a column
 * named "update") are left out first.
 */
export function isReadOnlySql(sql: string): boolean {
  return READ_ONLY.test(withoutTexts(sql));
}
