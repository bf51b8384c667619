/**
 * Items with an attribute of every type, and rows with a required label (tables `sar_items` and `sar_strict` of
 * test/fixtures/migrations/0016_spec_audit_records.sql), shared by the tests of records, casting, change tracking,
 * errors, overrides and permitting. Classes hold no rows: each test file seeds its own.
 */
import { ActiveRecord, defineApplicationRecord } from "../../src/index.js";

/** The application base of these Models: every one reads the `DB` binding. */
export class AppBase extends ActiveRecord {
  static override binding = "DB";
}

/** The schema of `sar_items` and `sar_strict`, as `defineApplicationRecord` reads it. */
export const itemSchema = {
  sar_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: { type: "integer", default: 1 },
    price: "real",
    flag: "boolean",
    kind: { type: "string", null: false, default: "plain" },
    happenedAt: "datetime",
    data: "json",
    code: "string",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  sar_strict: {
    id: { type: "string", null: false, generateId: true },
    label: { type: "string", null: false },
    note: "string",
  },
} as const;

/** The application record of `itemSchema`: `ItemApplicationRecord("sar_items", overrides?)` declares a Model. */
export const ItemApplicationRecord = defineApplicationRecord(itemSchema, AppBase);

/** An item of `sar_items`, with the schema's declarations unchanged. */
export class Item extends ItemApplicationRecord("sar_items") {}
