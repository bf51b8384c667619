import { databaseOfRecord, type Relation } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { slotsOf } from "./registry.js";

type Loaded = Record<string, any>;

function targetOf(association: ResolvedAssociation, records: readonly Loaded[]): { all(): Relation } {
  const database = databaseOfRecord(records[0]!);
  const target = association.target as unknown as { all(): Relation };
  return database ? (database.model(association.target) as unknown as { all(): Relation }) : target;
}

/** Loads one association of many records with one query (the keys bound as one list) and fills their slots. */
export async function preloadAssociation(association: ResolvedAssociation, records: readonly Loaded[]): Promise<void> {
  const belongs = association.kind === "belongsTo";
  const ownKey = belongs ? association.foreignKey : association.primaryKey;
  const theirKey = belongs ? association.primaryKey : association.foreignKey;
  const keys = [...new Set(records.map((record) => record.readAttribute(ownKey)).filter((key) => key !== null))];
  const found: Loaded[] = keys.length === 0 ? [] : await targetOf(association, records).all().where({ [theirKey]: keys }).toArray();
  const grouped = new Map<unknown, Loaded[]>();
  for (const target of found) {
    const key = target.readAttribute(theirKey);
    grouped.set(key, [...(grouped.get(key) ?? []), target]);
  }
  for (const record of records) {
    const slot = slotsOf(record).find(([candidate]) => candidate.name === association.name)?.[1];
    const matches = grouped.get(record.readAttribute(ownKey)) ?? [];
    slot?.remember(association.kind === "hasMany" ? matches : (matches[0] ?? null));
  }
}
