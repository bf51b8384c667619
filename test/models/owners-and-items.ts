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
