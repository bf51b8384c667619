/**
 * Rows with an attribute of each type, a secret note and both timestamps (table `sar2_rows` of
 * test/fixtures/migrations/0026_spec_audit_records_2.sql), shared by the tests of casting, change tracking,
 * overrides, printing, serialization and timestamps. Classes hold no rows: each test file seeds its own.
 */
import { defineApplicationRecord } from "../../src/index.js";
import { AppBase } from "./typed-items.js";

/** The schema of `sar2_rows`, as `defineApplicationRecord` reads it. */
export const rowSchema = {
  sar2_rows: {
    id: { type: "string", null: false, generateId: true },
    label: "string",
    secretNote: "string",
    qty: "integer",
    price: "real",
    flag: "boolean",
    happenedAt: "datetime",
    stamp: "datetime",
    data: "json",
    code: "string",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
} as const;

/** The application record of `rowSchema`: `RowApplicationRecord("sar2_rows", overrides?)` declares a Model. */
export const RowApplicationRecord = defineApplicationRecord(rowSchema, AppBase);

/** A row of `sar2_rows`, with the schema's declarations unchanged. */
export class Row extends RowApplicationRecord("sar2_rows") {}
