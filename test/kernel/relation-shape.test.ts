/** A Relation's shape: none, select, order, distinct, limit and offset, in combination. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  Model,
  RecordNotFound,
  MissingAttribute,
  column,
  IrreversibleOrder,
  sql,
  IncompatibleRelation,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";
import { inspect } from "node:util";
import { Post, User } from "../models/fixtures.js";
import { Item, Kid, Parent, seedItems } from "../models/edge-relation-items.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

const O = ItemOwner as any;

const idsInOrder = async (relation: any): Promise<string[]> => (await relation.toArray()).map((record: any) => record.id);

describe("none(): 'matches nothing without querying; chaining keeps it empty'", () => {
  it("every terminal method answers without a query", async () => {
    await seedOwnedItemsSeen();
    const { db, events } = listen();
    const none = db.model(OwnedItem).none() as any;
    expect(await none.toArray()).toEqual([]);
    expect(await none.count()).toBe(0);
    expect(await none.size()).toBe(0);
    expect(await none.exists()).toBe(false);
    expect(await none.exists({ id: "a" })).toBe(false);
    expect(await none.isEmpty()).toBe(true);
    expect(await none.hasAny()).toBe(false);
    expect(await none.pluck("id")).toEqual([]);
    expect(await none.pluck("id", "name")).toEqual([]);
    expect(await none.first()).toBeNull();
    expect(await none.last()).toBeNull();
    expect(await none.take()).toBeNull();
    expect(await none.findBy({ id: "a" })).toBeNull();
    expect(await rejectionOf(none.find("a"))).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(none.find(["a", "b"]))).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(none.findByOrThrow({ id: "a" }))).toBeInstanceOf(RecordNotFound);
    expect(await none.updateAll({ name: "z" })).toBe(0);
    expect(await none.deleteAll()).toBe(0);
    const page = await none.paginate();
    expect(page).toMatchObject({ records: [], total: 0, totalPages: 0, hasNext: false, hasPrevious: false });
    expect(await none.includes("owner").toArray()).toEqual([]);
    expect(await none.where({ id: "a" }).order({ rank: "asc" }).limit(2).select("name").distinct().toArray()).toEqual([]);
    expect(await none.merge(db.model(OwnedItem).where({ id: "a" })).toArray()).toEqual([]);
    expect(await db.model(OwnedItem).where({ id: "a" }).merge(none).toArray()).toEqual([]);
    expect(await none.ranked().count()).toBe(0);
    expect(events).toEqual([]);
    expect(await I.count()).toBe(4);
  });

  it("'toSql() shows 1 = 0' after where, or and a scope too", () => {
    expect(I.none().where({ id: "a" }).toSql().sql).toContain("1 = 0");
    expect(I.where({ id: "a" }).none().toSql().sql).toContain("1 = 0");
    expect(I.none().ranked().toSql().sql).toContain("1 = 0");
    expect(I.none().or(I.where({ id: "a" }).none()).toSql().sql).toContain("1 = 0");
  });
});

describe("select: 'loads only those attributes plus the primary key'", () => {
  it("with includes, first and last", async () => {
    await seedOwnedItemsSeen();
    const first = await I.select("name").first();
    expect(first.id).toBe("a");
    expect(first.name).toBe("x");
    const last = await I.select("rank").order({ rank: { direction: "asc", nulls: "first" } }).last();
    expect(last.id).toBe("c");
    const owners = await O.select("name").includes("items").order({ id: "asc" }).toArray();
    expect(owners.map((owner: any) => owner.items().size())).toHaveLength(2);
    expect(await owners[0].items().size()).toBe(2);
    const items = await I.select("name", "ownerId").includes("owner").where({ id: "c" }).toArray();
    expect(items[0].owner.get().name).toBe("two");
  });
});

describe("order: 'repeated calls add keys; NULLs sort first in ascending order by default'", () => {
  it("several attributes with nulls, reversed by last()", async () => {
    await seedOwnedItemsSeen();
    await I.insert({ id: "e", name: "x", rank: null, code: "E" });
    const ordered = I.order({ name: { direction: "asc", nulls: "last" } }).order({ rank: "desc" });
    expect(ordered.toSql().sql).toBe(`SELECT * FROM "saq_items" ORDER BY "name" ASC NULLS LAST, "rank" DESC`);
    expect(await idsInOrder(ordered)).toEqual(["b", "a", "e", "c", "d"]);
    expect((await ordered.first()).id).toBe("b");
    expect((await ordered.last()).id).toBe("d");
    expect(await idsInOrder(I.order({ rank: "asc" }).order({ id: "asc" }))).toEqual(["d", "e", "a", "b", "c"]);
    expect((await I.order({ rank: "asc" }).last()).id).toBe("c");
    expect((await I.order({ rank: "desc" }).last()).id).toMatch(/^[de]$/);
    const page = await ordered.paginate({ perPage: 2, page: 2 });
    expect(page.records.map((r: any) => r.id)).toEqual(["e", "c"]);
  });
});

/** A primary key other than id. */
class ByCode extends Model({ id: { type: "string", null: false }, name: "string", code: { type: "string", null: false }, qty: "integer" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_items";
  static override primaryKey = "code";
}

/** Ids of the matching rows, sorted. */
const sortedIds = async (relation: { pluck(name: "id"): Promise<unknown[]> }) => (await relation.pluck("id")).map(String).sort();

const both = (value: unknown) => [String(value), inspect(value)];

describe("Querying: shape", () => {
  it("merge joins or-conditions with AND, keeps both conditions on one attribute, and takes the argument's offset and distinct", async () => {
    await seedItems();
    const ab = Item.where({ name: "a" }).or(Item.where({ name: "b" }));
    expect(await sortedIds(ab.merge(Item.where({ qty: 2 })))).toEqual(["b"]);
    expect(await sortedIds(Item.where({ qty: 2 }).merge(ab))).toEqual(["b"]);
    expect(await sortedIds(Item.whereNot({ qty: 1 }).merge(ab))).toEqual(["b"]);
    expect(await sortedIds(Item.where({ qty: 1 }).merge(Item.where({ qty: 2 })))).toEqual([]);
    const replaced = Item.order({ name: "desc" }).limit(1).offset(1).select("name").merge(Item.order({ qty: "asc" }).limit(2).offset(2).select("qty"));
    expect(replaced.toSql().sql).toBe(`SELECT "id", "qty" FROM "edge_rel_items" ORDER BY "qty" ASC LIMIT 2 OFFSET 2`);
    expect(Item.all().merge(Item.select("name").distinct()).toSql().sql).toBe(`SELECT DISTINCT "name" FROM "edge_rel_items"`);
    expect((await Item.order(sql`${column("name")} DESC`).merge(Item.order({ name: "asc" })).last())!.id).toBe("d");
  });

  it("a partial record serializes only its loaded attributes; first, last and find keep the select", async () => {
    await seedItems();
    const [partial] = await Item.select("name").where({ id: "a" }).toArray();
    expect(partial!.toJSON()).toEqual({ id: "a", name: "a" });
    expect(await Item.select("name").count()).toBe(4);
    const found = await Item.select("name").find("b");
    expect(() => found.qty).toThrow(MissingAttribute);
    expect((await Item.select("name").last())!.id).toBe("d");
  });

  it("a later select adds its attributes to the earlier ones, each once, as Rails' select adds them", async () => {
    await seedItems();
    const both = Item.select("name").select("qty", "name");
    expect(both.toSql().sql).toBe(`SELECT "id", "name", "qty" FROM "edge_rel_items"`);
    const found = await both.find("a");
    expect(found.toJSON()).toEqual({ id: "a", name: "a", qty: found.qty });
    expect(Item.select("name").distinct().select("flag").toSql().sql).toBe(`SELECT DISTINCT "name", "flag" FROM "edge_rel_items"`);
  });

  it("select() with no name throws TypeError before anything is sent: a distinct one would select no column", async () => {
    const { db, events } = listen();
    const Bound = db.model(Item) as any;
    for (const relation of [Bound.all(), Bound.distinct()]) {
      expect(() => relation.select()).toThrow(new TypeError("Item.select needs at least one attribute name"));
    }
    expect(() => (Item as any).select()).toThrow(TypeError);
    expect(events).toHaveLength(0);
  });

  it("distinct partial records: first, last, pluck and count under limit/offset agree with toArray", async () => {
    await seedItems();
    const relation = Item.select("flag").distinct();
    expect(await relation.toArray()).toHaveLength(3);
    expect(await relation.count()).toBe(3);
    expect(await relation.first()).not.toBeNull();
    expect(await relation.last()).not.toBeNull();
    expect((await relation.pluck("flag")).length).toBe(3);
    expect(await relation.limit(1).count()).toBe(1);
    expect(await relation.offset(1).count()).toBe(2);
  });

  it("order with nulls on string and datetime attributes, and last() of it", async () => {
    await seedItems();
    expect(await Item.order({ at: { direction: "asc", nulls: "last" } }).pluck("id")).toEqual(["a", "b", "d", "c"]);
    expect(await Item.order({ at: { direction: "desc", nulls: "first" } }).pluck("id")).toEqual(["c", "d", "b", "a"]);
    expect((await Item.order({ at: { direction: "asc", nulls: "last" } }).last())!.id).toBe("c");
    expect((await Item.order({ at: { direction: "desc", nulls: "first" } }).last())!.id).toBe("a");
    expect((await Item.order({ email: "asc" }).first())!.id).toBe("c");
    expect((await Item.order({ email: "desc" }).last())!.id).toBe("c");
    expect((await Item.order(sql`x`).reorder({ qty: { direction: "asc", nulls: "last" } }).last())!.id).toBe("c");
    await expect(Item.order({ qty: "asc" }).reorder(sql`${column("qty")}`).last()).rejects.toThrow(IrreversibleOrder);
  });

  it("none() stays empty through exists(conds), find([...]) and paginate without querying", async () => {
    const { db, events } = listen();
    const Items = db.model(Item);
    expect(await Items.none().exists({ name: "a" })).toBe(false);
    expect(await rejectionOf(Items.none().find(["a"]))).toBeInstanceOf(RecordNotFound);
    expect(await Items.none().find([])).toEqual([]);
    expect((await Items.none().paginate({ count: false })).records).toEqual([]);
    expect(Items.all().merge(Items.none()).toSql().sql).toContain("1 = 0");
    expect(events).toHaveLength(0);
  });

  it("includes: one extra query per association on every single-record finder; none for count, pluck, exists", async () => {
    await Parent.insertAll([{ id: "p1", name: "a" }, { id: "p2", name: "b" }]);
    await Kid.insertAll([{ id: "k1", parentId: "p1" }, { id: "k2", parentId: "p2" }]);
    const { db, events } = listen();
    const Parents = db.model(Parent).includes("kids", "kids");
    const queries: Record<string, number> = {};
    const run = async (label: string, fn: () => Promise<unknown>) => {
      events.length = 0;
      await fn();
      queries[label] = events.length;
    };
    await run("toArray", () => Parents.includes("kids").toArray());
    await run("find", () => Parents.find("p1"));
    await run("findIds", () => Parents.find(["p2", "p1"]));
    await run("first", () => Parents.first());
    await run("last", () => Parents.last());
    await run("take", () => Parents.take());
    await run("findBy", () => Parents.findBy({ name: "b" }));
    await run("findByOrThrow", () => Parents.findByOrThrow({ name: "b" }));
    await run("count", () => Parents.count());
    await run("pluck", () => Parents.pluck("id"));
    await run("exists", () => Parents.exists());
    await run("none", () => Parents.none().toArray());
    expect(queries).toEqual({ toArray: 2, find: 2, findIds: 2, first: 2, last: 2, take: 2, findBy: 2, findByOrThrow: 2, count: 1, pluck: 1, exists: 1, none: 0 });
  });

  it("includes of belongsTo on a select without the foreign key throws MissingAttribute", async () => {
    await Parent.insertAll([{ id: "p1" }]);
    await Kid.insertAll([{ id: "k1", parentId: "p1", name: "n" }]);
    await expect(Kid.select("name").includes("parent").toArray()).rejects.toThrow(MissingAttribute);
  });

  it("a primary key other than id orders first, last and pages, and is the key select adds", async () => {
    await Item.insertAll([
      { id: "1", name: "x", code: "c3", qty: 1 },
      { id: "2", name: "y", code: "c1", qty: 1 },
      { id: "3", name: "z", code: "c2", qty: 2 },
    ]);
    expect((await ByCode.first())!.code).toBe("c1");
    expect((await ByCode.last())!.code).toBe("c3");
    expect((await ByCode.paginate({ perPage: 2 })).records.map((r) => r.code)).toEqual(["c1", "c2"]);
    expect((await ByCode.order({ qty: "asc" }).paginate({ perPage: 2 })).records.map((r) => r.code)).toEqual(["c1", "c3"]);
    expect(ByCode.select("name").toSql().sql).toBe(`SELECT "code", "name" FROM "edge_rel_items"`);
    expect((await ByCode.find(["c2", "c1"])).map((r) => r.name)).toEqual(["z", "y"]);
  });
});

describe("guide: Ordering, paging and shape", () => {
  it("compiles recent as shown; select; merge", async () => {
    const recent = Post.where({ published: true }).order({ createdAt: "desc" }).limit(10);
    expect(recent.toSql()).toEqual({ sql: `SELECT * FROM "posts" WHERE "published" = ?1 ORDER BY "created_at" DESC LIMIT 10`, params: [1] });

    await User.createOrThrow({ name: "Bob" });
    await User.createOrThrow({ name: "Ada" });
    const names = await User.select("name").order({ name: { direction: "asc", nulls: "last" } }).toArray();
    expect(names[0]!.name).toBe("Ada");
    expect(() => names[0]!.email).toThrow(new MissingAttribute("User.email was not loaded by select"));

    const mine = Post.where({ userId: "u1" });
    const merged = mine.merge(recent).toSql();
    expect(merged.sql).toBe(`SELECT * FROM "posts" WHERE "user_id" = ?1 AND "published" = ?2 ORDER BY "created_at" DESC LIMIT 10`);

    expect(User.order({ age: "asc" }).reorder({ name: "desc" }).limit(20).offset(40).toSql().sql).toBe(
      `SELECT * FROM "users" ORDER BY "name" DESC LIMIT 20 OFFSET 40`,
    );
    expect(User.select("age").distinct().toSql().sql).toBe(`SELECT DISTINCT "age" FROM "users"`);
    expect(User.none().where({ admin: true }).toSql().sql).toBe(`SELECT * FROM "users" WHERE 1 = 0`);
    expect(await User.none().toArray()).toEqual([]);
  });

  it("order directions in any case; limit/offset refuse non-whole numbers; none shows 1 = 0; reorder() removes", () => {
    expect(User.order({ age: "DESC" as never }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "age" DESC`);
    expect(() => User.limit(-1)).toThrow(TypeError);
    expect(() => User.offset(1.5)).toThrow(TypeError);
    expect(User.none().where({ age: 1 }).toSql().sql).toContain("1 = 0");
    expect(User.order({ age: "asc" }).reorder().toSql().sql).toBe(`SELECT * FROM "users"`);
    expect(User.select("name").distinct().toSql().sql).toBe(`SELECT DISTINCT "name" FROM "users"`);
    expect(() => User.all().merge(Post.all() as never)).toThrow(IncompatibleRelation);
  });

  it("none() sends no query", async () => {
    const { db, sqls } = listen();
    expect(await db.model(User).none().toArray()).toEqual([]);
    expect(await db.model(User).none().count()).toBe(0);
    expect(sqls()).toEqual([]);
  });
});

describe("guide: Querying, prose claims", () => {
  it("await User.where(...) does not run a query (no then)", async () => {
    expect("then" in User.where({ age: 1 })).toBe(false);
  });

  it("count agrees with toArray with distinct", async () => {
    await User.createOrThrow({ name: "a" });
    await User.createOrThrow({ name: "a" });
    const r = User.select("name").distinct();
    expect(await r.count()).toBe((await r.toArray()).length);
  });

  it("a distinct select cannot be saved: the primary key is not added", async () => {
    await User.createOrThrow({ name: "a" });
    const [rec] = await User.select("name").distinct().toArray();
    rec!.name = "b";
    await expect(rec!.save()).rejects.toThrow();
  });
});
