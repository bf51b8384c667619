import { databaseOfRecord, IncompatibleRelation, type Relation } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyFor } from "./keys.js";
import { slotsOf } from "./registry.js";

type Loaded = Record<string, any>;

function targetOf(association: ResolvedAssociation, records: readonly Loaded[]): { all(): Relation } {
  const database = records[0] && databaseOfRecord(records[0]);
  const target = association.target as unknown as { all(): Relation };
  return database ? (database.model(association.target) as unknown as { all(): Relation }) : target;
}

/** The target's Relation with the association's scope; a scope that pages cannot be preloaded in one query. */
function scoped(association: ResolvedAssociation, records: readonly Loaded[]): Relation {
  const all = targetOf(association, records).all();
  if (!association.options.scope) return all;
  const relation = association.options.scope(all) as Relation;
  if (relation.data.limit !== undefined || relation.data.offset !== undefined) {
    throw new IncompatibleRelation(`${association.name}: a scope with limit or offset cannot be preloaded with includes; load each owner's ${association.name} instead`);
  }
  return relation;
}

/** Loads one association of many records with one query (the keys bound as one list) and fills their slots. */
export async function preloadAssociation(association: ResolvedAssociation, records: readonly Loaded[]): Promise<void> {
  const belongs = association.kind === "belongsTo";
  const ownKey = belongs ? association.foreignKey : association.primaryKey;
  const theirKey = belongs ? association.primaryKey : association.foreignKey;
  // The scope is checked before anything is known of the keys, so that a paging scope throws whatever the data.
  const target = scoped(association, records);
  const keys = [...new Set(records.map((record) => record.readAttribute(ownKey)).filter((key) => key !== null))];
  const found: Loaded[] = keys.length === 0 ? [] : await target.where({ [theirKey]: keys }).toArray();
  const grouped = new Map<unknown, Loaded[]>();
  for (const target of found) {
    const key = target.readAttribute(theirKey);
    grouped.set(key, [...(grouped.get(key) ?? []), target]);
  }
  for (const record of records) {
    const slot = slotsOf(record).find(([candidate]) => candidate.name === association.name)?.[1];
    // The owner's key as the target's attribute reads it: an integer key matches a text foreign key.
    const matches = grouped.get(keyFor(association.target, theirKey, record.readAttribute(ownKey))) ?? [];
    slot?.remember(association.kind === "hasMany" ? matches : (matches[0] ?? null));
  }
}
