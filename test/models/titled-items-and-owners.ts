/** Owners with many items (tables `saa_owners` and `saa_items` of test/fixtures/migrations/0018_spec_audit_associations.sql). */
import { hasMany, Model } from "../../src/index.js";

/** An item with a required title, the id of its `SaaOwner` and a keeper id. */
export class SaaItem extends Model({
  id: { type: "string", null: false, generateId: true },
  saaOwnerId: "string",
  keeperId: "string",
  title: { type: "string", null: false },
}) {
  static override binding = "DB";
}

/** An owner with a rank, JSON settings and a start time, and many `SaaItem`s. */
export class SaaOwner extends Model({
  id: { type: "string", null: false, generateId: true },
  name: "string",
  rank: "integer",
  settings: "json",
  startsAt: "datetime",
}) {
  static override binding = "DB";
  items = hasMany(SaaItem);
}
