/**
 * Items with a status and tags, and counters with an integer key (tables `sal_items` and `sal_counters` of
 * test/fixtures/migrations/0020_spec_audit_lifecycle.sql), shared by the tests of the lifecycle, callbacks and
 * validations. Classes hold no rows: each test file seeds its own.
 */
import { defineApplicationRecord } from "../../src/index.js";
import { AppBase } from "./typed-items.js";

/** The schema of `sal_items` and `sal_counters`, as `defineApplicationRecord` reads it. */
export const itemsAndCountersSchema = {
  sal_items: {
    id: { type: "string", null: false, generateId: true },
    name: "string",
    email: "string",
    qty: "integer",
    score: "real",
    status: "string",
    tags: "json",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
  sal_counters: {
    id: { type: "integer", null: false },
    label: "string",
    hits: { type: "integer", null: false },
  },
} as const;

/** The application record of these tables: `ApplicationRecord("sal_items", overrides?)` declares a Model. */
export const ApplicationRecord = defineApplicationRecord(itemsAndCountersSchema, AppBase);
