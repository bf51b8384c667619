/**
 * Items of `audit_r_items` and keyed rows of `audit_r_keyed` (test/fixtures/migrations/0011_audit_records.sql):
 * a Model declared by hand with one attribute of each type, and the schema with its application record.
 */
import { defineApplicationRecord, Model } from "../../src/index.js";
import { ApplicationBase } from "./fixtures.js";

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

/** The schema of `audit_r_items` and `audit_r_keyed`, as `defineApplicationRecord` reads it. */
export const auditSchema = {
  audit_r_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: "integer",
    price: "real",
    flag: "boolean",
    kind: { type: "string", null: false, default: "plain" },
    happenedAt: "datetime",
    data: "json",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  audit_r_keyed: {
    token: { type: "string", null: false },
    id: "string",
    label: "string",
  },
} as const;

/** The application record of `auditSchema`: `AuditRecord("audit_r_items", overrides?)` declares a Model. */
export const AuditRecord = defineApplicationRecord(auditSchema, ApplicationBase);
