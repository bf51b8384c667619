import type { Attribute } from "./attributes.js";
import { type Database, unboundModel } from "./database.js";
import { type RecordState, STATE } from "./record-state.js";
import { resolveModel } from "./resolve.js";

/** A Model's attributes, resolved (and the Model's declaration fixed) on first call. */
export function attributesOf(model: Function): readonly Attribute[] {
  return resolveModel(unboundModel(model)).attributes;
}

/** Whether a record has the attribute loaded (a partial `select` loads only some). */
export function isAttributeLoaded(record: object, name: string): boolean {
  const state = (record as { [STATE]: RecordState })[STATE];
  return state.model.byName.has(name) && (!state.loaded || state.loaded.has(name));
}

/** A Model's primary key attribute, as fixed at its first use. */
export function primaryKeyOf(model: Function): Attribute {
  return resolveModel(unboundModel(model)).primaryKey;
}

/** The database a record was built or loaded through, if any (its later saves and association loads use it). */
export function databaseOfRecord(record: object): Database | undefined {
  return (record as { [STATE]: RecordState })[STATE].database;
}
