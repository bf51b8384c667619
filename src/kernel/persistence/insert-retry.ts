import { RecordNotUnique } from "../errors.js";
import type { Attribute } from "../records/attributes.js";
import { previewText } from "../records/display.js";
import type { ResolvedModel } from "../records/resolve.js";
import { quoteIdentifier } from "../sql/naming.js";

/**
 * The clause a record's INSERT is sent again with after one of D1's transient errors, between its values and its
 * RETURNING, when the key it binds was generated for the record alone (see `markGeneratedKey`). D1 may have
 * committed the first try; a row under that key is then the one the first try wrote. The clause sets the key to
 * itself: the row is left as it is, and RETURNING reads it back, as a first success does (`DO NOTHING` would return
 * no row). SQLite runs no foreign key action for a key set to the value it had. Only where the row holds every
 * value the INSERT writes, though: an app's `generateId` may repeat a key, and another record's row under it (another
 * tenant's) must be neither taken for this one nor read back; the retry then returns no row (see `insertedRow`).
 * One comparison of row values, whatever the number of columns, keeps within D1's limit on expression depth.
 */
export function ownRowClause(model: ResolvedModel, attributes: readonly Attribute[]): string {
  const key = quoteIdentifier(model.primaryKey.column);
  const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
  const written = `(${columns.join(", ")}) IS (${columns.map((column) => `excluded.${column}`).join(", ")})`;
  return ` ON CONFLICT (${key}) DO UPDATE SET ${key} = excluded.${key} WHERE ${written}`;
}

/**
 * The row a record's INSERT returned, if any: only its retry returns none, when the row under the key is another
 * record's (see `ownRowClause`). Nothing of the record was written then, which its save tells (see `notOwnRow`), not
 * this reader: what else its batch wrote is written, and its records finish as such.
 */
export const insertedRow = (rows: Record<string, unknown>[]): Record<string, unknown> | undefined => rows[0];

/** The error of a save whose INSERT returned no row (see `insertedRow`): the row under its generated `key` is another record's. */
export function notOwnRow(model: ResolvedModel, key: unknown): RecordNotUnique {
  const { name } = model.primaryKey;
  return new RecordNotUnique(`${model.name}.${name} has already been taken: the row under ${name} ${previewText(key)} is another record's (its generated key was not unique), so nothing was written`);
}
