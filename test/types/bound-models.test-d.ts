/**
 * Compile-time probes of SPEC.md's Querying, Results, Scopes, Bulk writes and Connection, beyond relation.test-d.ts
 * and the other files here: results through a bound Model, find with a list, scopes on a bound Model, Statements.
 * Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { batch, connect, gt, hasMany, belongsTo, Model, type D1DatabaseLike, type Page, type SqlQuery } from "../../src/index.js";

class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  items = hasMany(Item, { foreignKey: "ownerId" });
}

class Item extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string", rank: "integer" }) {
  static override binding = "DB";
  static ranked = this.scope((q) => q.where({ rank: gt(0) }));
  static named = this.scope((q, name: string) => q.where({ name }));
  owner = belongsTo(Owner, { foreignKey: "ownerId" });
}

async function probes(binding: D1DatabaseLike, ids: string[]) {
  const db = connect(binding);
  const Bound = db.model(Item);
  // Results: find in all its forms, on the Model, a Relation and a bound Model.
  expectTypeOf(Item.find(ids)).toEqualTypeOf<Promise<Item[]>>();
  expectTypeOf(Item.find("a")).toEqualTypeOf<Promise<Item>>();
  expectTypeOf(Item.find("a", "b")).toEqualTypeOf<Promise<Item[]>>();
  expectTypeOf(Bound.find("a")).toEqualTypeOf<Promise<Item>>();
  expectTypeOf(Bound.find(ids)).toEqualTypeOf<Promise<Item[]>>();
  expectTypeOf(Item.ranked().find(ids)).toEqualTypeOf<Promise<Item[]>>();
  // @ts-expect-error: find needs an id
  void Item.find();
  // Scopes 1: callable as a static, on any Relation, on a bound Model, after where.
  expectTypeOf(Bound.ranked().named("x").toArray()).toEqualTypeOf<Promise<Item[]>>();
  expectTypeOf(Item.where({ name: "x" }).ranked().first()).toEqualTypeOf<Promise<Item | null>>();
  const page = await Bound.where({ name: "x" }).ranked().includes("owner").paginate({ page: "1" });
  expectTypeOf(page).toEqualTypeOf<Page<Item>>();
  // @ts-expect-error: named takes a string
  Bound.named(1);
  // @ts-expect-error: scopes of one Model are not on another's Relations
  Owner.all().ranked();
  // Bulk writes: results, and the to... Statements with toSql().
  expectTypeOf(Item.updateAll({ name: "y" })).toEqualTypeOf<Promise<number>>();
  expectTypeOf(Item.where({ name: "x" }).deleteAll()).toEqualTypeOf<Promise<number>>();
  expectTypeOf(Item.deleteBy({ name: "x" })).toEqualTypeOf<Promise<number>>();
  expectTypeOf(Bound.where({ rank: 1 }).deleteBy({ name: ["x", "y"] })).toEqualTypeOf<Promise<number>>();
  // @ts-expect-error: deleteBy needs its conditions
  void Item.all().deleteBy();
  // @ts-expect-error: an object is not a condition on a number attribute
  void Item.deleteBy({ rank: { min: 1 } });
  // @ts-expect-error: nope is not an attribute
  void Bound.deleteBy({ nope: 1 });
  expectTypeOf(Item.toInsert({ name: "x" }).toSql()).toEqualTypeOf<SqlQuery>();
  expectTypeOf(Item.where({ name: "x" }).toUpdateAll({ rank: 1 }).toSql()).toEqualTypeOf<SqlQuery>();
  expectTypeOf(Item.toDeleteAll().toSql()).toEqualTypeOf<SqlQuery>();
  await batch([Item.toInsert({ name: "x" }), Bound.where({ name: "x" }).toDeleteAll()]);
  await db.batch([Item.toInsertAll([{ name: "x" }], { onDuplicate: "skip" }), Item.toUpsert({ id: "a", name: "x" })]);
  // @ts-expect-error: nope is not an attribute
  void Item.insert({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  void Item.updateAll({ nope: 1 });
  // @ts-expect-error: rank is an integer
  void Item.updateAll({ rank: {} });
}
void probes;
