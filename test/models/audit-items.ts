/** Items of `audit_r_items` (test/fixtures/migrations/0011_audit_records.sql), declared by hand with one attribute of each type. */
import { Model } from "../../src/index.js";

/** An item with one attribute of each type and both timestamps. */
export class AuditItem extends Model({
  id: "string",
  name: "string",
  email: "string",
  qty: "integer",
  price: "real",
  flag: "boolean",
  kind: "string",
  happenedAt: "datetime",
  data: "json",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override binding = "DB";
  static override tableName = "audit_r_items";
}
