import type { Attribute } from "../records/attributes.js";
import type { ResolvedModel } from "../records/resolve.js";
import { quoteIdentifier } from "../sql/naming.js";

/** A text for an SQL string literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The clause that makes the INSERT of a record whose key the write binds safe to send again after a transient error,
 * which D1 may have raised after it committed the first try. On a retry the INSERT is sent with it, between its
 * values and its RETURNING:
 *
 * - no row has the key: the row is inserted, as on a first try;
 * - a row has the key and equals, column for column, every value the INSERT writes: it is taken as the row the first
 *   try committed. Its key is set to itself, so that RETURNING reads it back, as a first success does;
 * - a row has the key and differs: it is another's, a genuine duplicate. A first try would fail with D1's
 *   `UNIQUE constraint failed`; the retry fails in the statement too, so that a batch holding it is rolled back, with
 *   an error SQLite raises for a bad JSON path whose text is the one D1 gives for the key's constraint, so that it is
 *   translated to `RecordNotUnique` as the first try's would be. The path depends on the row, so SQLite cannot
 *   evaluate it before the comparison.
 *
 * With a key made in code (a generated id) no other row can hold it. With a key the app chose, a row equal in every
 * column written can also be another request's, which wrote the very same values between the two tries; the table
 * then holds what this INSERT would have written, and it succeeds. The columns are compared as one row value, so the
 * comparison's depth does not grow with the number of columns (D1 allows an expression depth of 100).
 */
export function ownRowClause(model: ResolvedModel, attributes: readonly Attribute[]): string {
  const key = quoteIdentifier(model.primaryKey.column);
  const stored = attributes.map((attribute) => `${model.quotedTable}.${quoteIdentifier(attribute.column)}`);
  const written = attributes.map((attribute) => `excluded.${quoteIdentifier(attribute.column)}`);
  const duplicate = literal(`UNIQUE constraint failed: ${model.tableName}.${model.primaryKey.column}: a retried INSERT found another row under its key`);
  const another = `json_extract('{}', CASE WHEN excluded.${key} IS NULL THEN '$' ELSE ${duplicate} END)`;
  return ` ON CONFLICT (${key}) DO UPDATE SET ${key} = CASE WHEN (${stored.join(", ")}) IS (${written.join(", ")}) THEN excluded.${key} ELSE ${another} END`;
}
