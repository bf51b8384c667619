/**
 * Items, parents with kids, and numbers (tables `edge_rel_*` of test/fixtures/migrations/0014_edge_case_relations.sql),
 * shared by the Relation tests of conditions, finders, shape and pagination, and by printing and attribute filtering.
 */
import { belongsTo, hasMany, Model } from "../../src/index.js";

/** An item with a column of each type; `seedItems` writes four of them. */
export class Item extends Model({
  id: { type: "string", null: false },
  name: "string",
  email: "string",
  qty: "integer",
  price: "real",
  flag: "boolean",
  at: "datetime",
  code: "string",
  data: "json",
}) {
  static override binding = "DB";
  static override tableName = "edge_rel_items";
}

/** A kid, belonging to a `Parent`. */
export class Kid extends Model({ id: { type: "string", null: false }, parentId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_kids";
  parent = belongsTo(Parent, { foreignKey: "parentId" });
}

/** A parent with many `Kid`s. */
export class Parent extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_parents";
  kids = hasMany(Kid, { foreignKey: "parentId" });
}

/** A row with an integer id, a label and a number. */
export class Num extends Model({ id: "integer", label: "string", n: "integer" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_nums";
}

/**
 * Writes four items, one of them NULL in every column but `name`:
 *
 *     id  qty   price  flag   at          email  code
 *     a   1     1.5    true   2024-01-01  a@x    "10"
 *     b   2     2.5    false  2024-02-01  b@x    "2"
 *     c   null  null   null   null        null   null
 *     d   3     3.5    true   2024-03-01  d@x    "3"
 */
export async function seedItems(): Promise<void> {
  await Item.insertAll([
    { id: "a", name: "a", email: "a@x", qty: 1, price: 1.5, flag: true, at: "2024-01-01", code: "10" },
    { id: "b", name: "b", email: "b@x", qty: 2, price: 2.5, flag: false, at: "2024-02-01", code: "2" },
    { id: "c", name: "c", email: null, qty: null, price: null, flag: null, at: null, code: null },
    { id: "d", name: "d", email: "d@x", qty: 3, price: 3.5, flag: true, at: "2024-03-01", code: "3" },
  ]);
}
