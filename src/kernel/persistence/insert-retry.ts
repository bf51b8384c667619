import type { ResolvedModel } from "../records/resolve.js";
import { quoteIdentifier } from "../sql/naming.js";

/**
 * The clause a record's INSERT is sent again with after one of D1's transient errors, between its values and its
 * RETURNING, when the key it binds was generated for the record alone (see `markGeneratedKey`). D1 may have
 * committed the first try; no other write can hold that key, so a row under it is the one the first try wrote. The
 * clause sets the key to itself: the row is left as it is, and RETURNING reads it back, as a first success does
 * (`DO NOTHING` would return no row). SQLite runs no foreign key action for a key set to the value it had.
 */
export function ownRowClause(model: ResolvedModel): string {
  const key = quoteIdentifier(model.primaryKey.column);
  return ` ON CONFLICT (${key}) DO UPDATE SET ${key} = excluded.${key}`;
}
