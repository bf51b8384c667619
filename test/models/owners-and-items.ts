/**
 * Owners, their items and badges, and numbered rows (tables of test/fixtures/migrations/0017_spec_audit_querying.sql),
 * shared by the Relation tests that need owned rows: conditions, shape, results, calculations, scopes and associations.
 */
import { belongsTo, gt, hasMany, hasOne, Model } from "../../src/index.js";

export class Item extends Model({
  id: { type: "string", null: false },
  ownerId: "string",
  name: "string",
  rank: "integer",
  score: "real",
  seenAt: "datetime",
  flag: "boolean",
  apiToken: "string",
  data: "json",
  kind: { type: "string", default: () => "model" },
  code: "string",
}) {
  static override binding = "DB";
  static override tableName = "saq_items";
  static ranked = this.scope((q) => q.where({ rank: gt(0) }).order({ rank: "desc" }));
  owner = belongsTo(Owner, { foreignKey: "ownerId", optional: true });
}

export class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_owners";
  items = hasMany(Item, { foreignKey: "ownerId" });
  topItems = hasMany(Item, { foreignKey: "ownerId", scope: (q: any) => q.order({ rank: "desc" }).limit(2) });
  badge = hasOne(Badge, { foreignKey: "ownerId" });
}

/** A hasOne child (saq_secrets: token primary key, owner_id), its token not filtered. */
export class Badge extends Model({ token: { type: "string", null: false }, name: "string", ownerId: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_secrets";
  static override primaryKey = "token";
  static override filterAttributes = [];
}

/** Integer keys the database assigns. */
export class Num extends Model({ id: "integer", name: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_nums";
}

/** Writes owners o1 and o2 and items a to d (d without owner, name or rank), each item seen on its own day but d. */
export async function seedOwnedItemsSeen(): Promise<void> {
  await Owner.insertAll([{ id: "o1", name: "one" }, { id: "o2", name: "two" }]);
  await Item.insertAll([
    { id: "a", ownerId: "o1", name: "x", rank: 1, code: "A", seenAt: "2024-01-01T00:00:00Z" },
    { id: "b", ownerId: "o1", name: "X", rank: 2, code: "B", seenAt: "2024-01-02T00:00:00Z" },
    { id: "c", ownerId: "o2", name: "y", rank: 3, code: "C", seenAt: "2024-01-03T00:00:00Z" },
    { id: "d", ownerId: null, name: null, rank: null, code: "D", seenAt: null },
  ]);
}

/** Writes owners o1 and o2 and items a to d (d without owner, name or rank). */
export async function seedOwnedItems(): Promise<void> {
  await Owner.insertAll([{ id: "o1", name: "one" }, { id: "o2", name: "two" }]);
  await Item.insertAll([
    { id: "a", ownerId: "o1", name: "x", rank: 1, code: "A" },
    { id: "b", ownerId: "o1", name: "x", rank: 2, code: "B" },
    { id: "c", ownerId: "o2", name: "y", rank: 3, code: "C" },
    { id: "d", ownerId: null, name: null, rank: null, code: "D" },
  ]);
}
