import { attributeNamed } from "./assign.js";
import { UNCASTABLE } from "./attribute-types.js";
import type { Attribute } from "./attributes.js";
import { boundDatabase, type Database, unboundModel } from "../database/database.js";
import { type RecordState, STATE } from "./record-state.js";
import type { Relation } from "../relations/relation.js";
import { resolveModel } from "./resolve.js";
import type { ModelHookName } from "../plugin-api/hooks.js";

/** A Model's attributes, resolved (and the Model's declaration fixed) on first call. */
export function attributesOf(model: Function): readonly Attribute[] {
  return resolveModel(unboundModel(model)).attributes;
}

/**
 * Whether any hook of the Model is registered under `name`: lets a plugin skip work for another Model that no hook
 * of it would use (associations prepare a preload's Relation only when its Model has a `relation:prepare` hook).
 */
export function hasModelHook(model: Function, name: ModelHookName): boolean {
  return resolveModel(unboundModel(model)).hooks.has(name);
}

/** Whether a record has the attribute loaded (a partial `select` loads only some). */
export function isAttributeLoaded(record: object, name: string): boolean {
  const state = (record as { [STATE]: RecordState })[STATE];
  return state.model.byName.has(name) && (!state.loaded || state.loaded.has(name));
}

/**
 * The value of a computed column (`RelationData.columns`) in the row a record was loaded from, as D1 returned it;
 * undefined when the record was not loaded with it (built, reloaded, or loaded by a query without it).
 */
export function computedValueOf(record: object, name: string): unknown {
  return (record as { [STATE]: RecordState })[STATE].row[name];
}

/** A Model's primary key attribute, as fixed at its first use. */
export function primaryKeyOf(model: Function): Attribute {
  return resolveModel(unboundModel(model)).primaryKey;
}

/** The database of a Model view made by `db.model(M)`; undefined for the Model itself. */
export function databaseOfModel(model: Function): Database | undefined {
  return boundDatabase(model);
}

/**
 * The database of the bound Model view a Relation queries (`db.model(M).where(...)`), undefined for the Model itself:
 * the Statements a plugin makes of the Relation's query name it (`defineStatement`'s `database`), as the kernel's do,
 * so that a top-level `batch([...])` runs them there.
 */
export function databaseOfRelation(relation: Relation): Database | undefined {
  return boundDatabase(relation.modelClass);
}

/** The database a record was built or loaded through, if any (its later saves and association loads use it). */
export function databaseOfRecord(record: object): Database | undefined {
  return (record as { [STATE]: RecordState })[STATE].database;
}

/**
 * How a condition on the Model's attribute reads `value` (a number given to a string attribute is its digits), or
 * undefined when it cannot be read so. Keys copied from one Model to another go through it, so that an integer key
 * fits a text foreign key as it would in a `where`.
 */
export function readAsCondition(model: Function, name: string, value: unknown): unknown {
  if (value === null) return null;
  const cast = attributeNamed(resolveModel(unboundModel(model)), name).type.castCondition(value);
  return cast === UNCASTABLE ? undefined : cast;
}
