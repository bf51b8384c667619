/** Items of `srt_items` (test/fixtures/migrations/0019_spec_audit_runtime.sql), with a name, an age and both timestamps. */
import { Model } from "../../src/index.js";

/** An item with text, integer, JSON and timestamp attributes. */
export class Item extends Model({
  id: { type: "string", null: false, generateId: true },
  name: "string",
  age: "integer",
  email: "string",
  codeValue: "string",
  partA: "string",
  partB: "string",
  data: "json",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override binding = "DB";
  static override tableName = "srt_items";
}
