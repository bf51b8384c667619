/** A Relation's finders and results on fresh rows: find, findBy, first, last and IrreversibleOrder, exists and isEmpty. */
import { beforeEach, describe, expect, it, expectTypeOf } from "vitest";
import { Model, RecordNotFound, IrreversibleOrder, sql, column } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Item as OwnedItem, Num as NamedNumber, seedOwnedItemsSeen, seedOwnedItems } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";
import { Item, Kid, Parent, Num, seedItems } from "../models/edge-relation-items.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

describe("find: 'records in the ids' order from one query; throws if any is missing'", () => {
  it("with duplicate ids and an id given as its digits, as Rails (ids made unique)", async () => {
    await seedOwnedItemsSeen();
    const { db, events } = listen();
    const found = await db.model(OwnedItem).find(["c", "a", "c"]);
    expect(found.map((r: any) => r.id)).toEqual(["c", "a"]);
    expect(events).toHaveLength(1);
    expect((await I.find("a", "a")).map((r: any) => r.id)).toEqual(["a"]);
    await (NamedNumber as any).insertAll([{ id: 1, name: "one" }, { id: 2, name: "two" }]);
    expect((await (NamedNumber as any).find([2, "1", 1, " 2 "])).map((r: any) => r.name)).toEqual(["two", "one"]);
  });

  it("find with select, where and order keeps the ids' order", async () => {
    await seedOwnedItemsSeen();
    const found = await I.select("name").where({ ownerId: ["o1", "o2"] }).order({ rank: "desc" }).find(["a", "c"]);
    expect(found.map((r: any) => r.id)).toEqual(["a", "c"]);
    expect(await rejectionOf(I.where({ ownerId: "o1" }).find(["a", "c"]))).toBeInstanceOf(RecordNotFound);
  });
});

/** A Model whose primary key is filtered (its name holds "token"). */
class Secret extends Model({ token: { type: "string", null: false }, name: "string", ownerId: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_secrets";
  static override primaryKey = "token";
}

describe("Results: exists, isEmpty and hasAny agree with toArray()", () => {
  it("on a distinct Relation with an offset", async () => {
    await seedOwnedItems();
    const names = I.distinct().select("name").order({ name: "asc" }).offset(1);
    expect((await names.toArray()).map((r: any) => r.name)).toEqual(["x", "y"]);
    expect(await names.exists()).toBe(true);
    expect(await names.hasAny()).toBe(true);
    expect(await names.isEmpty()).toBe(false);
    const whole = I.distinct().offset(3);
    expect(await whole.toArray()).toHaveLength(1);
    expect(await whole.exists()).toBe(true);
    expect(await I.distinct().select("name").offset(3).exists()).toBe(false);
  });
});

describe("Results: find", () => {
  it("find(id) on a bound Model is one query on its database", async () => {
    await seedOwnedItems();
    const { events, Item: Bound } = listen({ models: { Item: OwnedItem } });
    const found = await (Bound as any).find("a");
    expect(found.name).toBe("x");
    expect(events).toHaveLength(1);
    // The record keeps the bound database for its save.
    found.name = "z";
    await found.save();
    expect(events).toHaveLength(2);
  });

  it("find([...1000 ids]) is one query with one bound value, in the ids' order", async () => {
    await (NamedNumber as any).insertAll(Array.from({ length: 1000 }, (_, index) => ({ id: index + 1, name: `n${index + 1}` })));
    const { events, Num: Bound } = listen({ models: { Num: NamedNumber } });
    const ids = Array.from({ length: 1000 }, (_, index) => 1000 - index);
    const found = await (Bound as any).find(ids);
    expect(found.map((r: any) => r.id)).toEqual(ids);
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    const missing = await rejectionOf((Bound as any).find([...ids, 1001]));
    expect(missing).toBeInstanceOf(RecordNotFound);
  });

  it("find with a filtered primary key hides it in RecordNotFound, on a narrowed Relation too", async () => {
    const error = await rejectionOf((Secret as any).where({ name: "n" }).find("hush-1"));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).not.toContain("hush-1");
    const list = await rejectionOf((Secret as any).where({ name: "n" }).find(["hush-2", "hush-3"]));
    expect(list.message).not.toContain("hush");
  });
});

describe("Querying: last and IrreversibleOrder", () => {
  it("last() throws for an sql order chained after a scope, and on a paginating-like window", async () => {
    await seedOwnedItems();
    expect(await rejectionOf(I.ranked().order(sql`rank`).last())).toBeInstanceOf(IrreversibleOrder);
    expect(await rejectionOf(I.order(sql`rank`).limit(2).last())).toBeInstanceOf(IrreversibleOrder);
    expect((await I.ranked().last()).id).toBe("a");
  });
});

describe("Querying: results", () => {
  // As Rails makes the ids unique (ids.uniq), each record comes once, in the order of its first id.
  it("find([ids]) with repeated ids (also the same integer key as text and number) does not throw; each record once", async () => {
    await Num.insertAll([{ label: "a" }, { label: "b" }]);
    expect((await Num.find(["1", 1])).map((r) => r.id)).toEqual([1]);
    expect((await Num.find([2, 2, 1])).map((r) => r.id)).toEqual([2, 1]);
    expect((await Num.find(2, "2")).map((r) => r.id)).toEqual([2]);
  });

  it("pluck reads json, datetime and boolean values; an unknown name rejects", async () => {
    await seedItems();
    await Item.insert({ id: "e", data: { k: [1] } });
    expect(await Item.where({ id: "e" }).pluck("data")).toEqual([{ k: [1] }]);
    expect(await Item.order({ id: "asc" }).limit(2).pluck("id", "at", "flag")).toEqual([
      ["a", new Date("2024-01-01T00:00:00Z"), true],
      ["b", new Date("2024-02-01T00:00:00Z"), false],
    ]);
    await expect(Item.pluck("nope" as never)).rejects.toThrow();
  });

  it("size, isEmpty and hasAny under offset and limit(0)", async () => {
    await seedItems();
    const window = Item.order({ id: "asc" }).offset(2);
    expect(await window.count()).toBe(2);
    expect(await window.size()).toBe(2);
    expect(await window.hasAny()).toBe(true);
    expect(await Item.offset(4).isEmpty()).toBe(true);
    expect(await Item.limit(0).hasAny()).toBe(false);
    expect(await Item.limit(0).isEmpty()).toBe(true);
  });

  it("on a loaded association, size answers without a query; a narrowed Relation of it still counts its own rows", async () => {
    await Parent.insertAll([{ id: "p1" }]);
    await Kid.insertAll([{ id: "k1", parentId: "p1", name: "x" }, { id: "k2", parentId: "p1", name: "y" }]);
    const { db, events } = listen();
    const parent = await db.model(Parent).find("p1");
    await parent.kids().toArray();
    events.length = 0;
    expect(await parent.kids().size()).toBe(2);
    expect(await parent.kids().isEmpty()).toBe(false);
    expect(await parent.kids().hasAny()).toBe(true);
    expect(events).toHaveLength(0);
    expect(await parent.kids().limit(1).size()).toBe(1);
    expect(await parent.kids().where({ name: "x" }).size()).toBe(1);
    expect(await parent.kids().where({ name: "zz" }).isEmpty()).toBe(true);
    expect(await parent.kids().offset(5).hasAny()).toBe(false);
    expect(await parent.kids().none().size()).toBe(0);
  });
});

describe("guide: Results", () => {
  it("runs the examples with the types shown", async () => {
    const a = await User.createOrThrow({ id: "019a0000-0000-7000-8000-000000000000", name: "Ada", age: 30, admin: true, email: "ada@example.com" });
    await User.createOrThrow({ id: "019a0000-0000-7000-8000-000000000001", name: "Grace", age: 40, email: "grace@example.com" });
    const ada = await User.find("019a0000-0000-7000-8000-000000000000");
    const [first, second] = await User.find([ada.id, "019a0000-0000-7000-8000-000000000001"]);
    expect([first!.name, second!.name]).toEqual(["Ada", "Grace"]);
    expect((await User.find(["019a0000-0000-7000-8000-000000000001", ada.id])).map((u) => u.name)).toEqual(["Grace", "Ada"]);
    const grace = await User.findBy({ email: "grace@example.com" });
    expectTypeOf(grace).toEqualTypeOf<User | null>();
    const oldest = await User.order({ age: "desc" }).first();
    expect(oldest!.name).toBe("Grace");
    const emails = await User.where({ admin: true }).pluck("email");
    expectTypeOf(emails).toEqualTypeOf<(string | null)[]>();
    expect(emails).toEqual(["ada@example.com"]);
    const pairs = await User.pluck("name", "age");
    expectTypeOf(pairs).toEqualTypeOf<[string, number | null][]>();
    expect(pairs).toEqual([
      ["Ada", 30],
      ["Grace", 40],
    ]);
    expect(await User.where({ admin: true }).count()).toBe(1);
    expect(await User.exists({ email: "ada@example.com" })).toBe(true);
    expect(a.id).toBe(ada.id);

    const both = await User.find(ada.id, second!.id);
    expect(both.map((user) => user.name)).toEqual(["Ada", "Grace"]);
    expect(await User.find([ada.id])).toHaveLength(1);
    const known = await User.findByOrThrow({ email: "ada@example.com" });
    expect(known.id).toBe(ada.id);
    await expect(User.findByOrThrow({ email: "nobody@example.com" })).rejects.toBeInstanceOf(RecordNotFound);
    const newest = await User.last();
    expect(newest!.name).toBe("Grace");
    const anyone = await User.take();
    expect(["Ada", "Grace"]).toContain(anyone!.name);
    expect(await User.where({ admin: true }).size()).toBe(1);
    expect(await User.where({ admin: true }).isEmpty()).toBe(false);
    expect(await User.where({ admin: true }).hasAny()).toBe(true);
    const many = await User.find(ada.id, "019a0000-0000-7000-8000-000000000001");
    expect(Array.isArray(many)).toBe(true);
    await expect(User.find([ada.id, "missing"])).rejects.toBeInstanceOf(RecordNotFound);
    await expect(User.find(null as never)).rejects.toBeInstanceOf(RecordNotFound);
  });

  it("first/last by primary key; last with sql order throws IrreversibleOrder; last of a window; take; count with limit", async () => {
    for (const name of ["A", "B", "C", "D"]) await User.createOrThrow({ name });
    expect((await User.first())!.name).toBe("A");
    expect((await User.last())!.name).toBe("D");
    await expect(User.order(sql`${column("name")}`).last()).rejects.toBeInstanceOf(IrreversibleOrder);
    await expect(User.order(sql`${column("name")}`).limit(2).last()).rejects.toBeInstanceOf(IrreversibleOrder);
    expect((await User.order({ name: "asc" }).limit(2).last())!.name).toBe("B");
    expect((await User.order({ name: "asc" }).offset(1).limit(2).last())!.name).toBe("C");
    expect(await User.limit(2).offset(3).count()).toBe(1);
    expect(await User.none().first()).toBeNull();
    expect(await User.where({ name: "Z" }).take()).toBeNull();
    expect(await User.where({ name: "Z" }).isEmpty()).toBe(true);
    expect(await User.hasAny()).toBe(true);
    expect(await User.size()).toBe(4);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("last() throws IrreversibleOrder for an sql order arriving through merge or a scope", async () => {
    class Ordered extends User {
      static bySql = this.scope((q) => q.order(sql`name`));
    }
    await expect(User.all().merge(User.order(sql`name`)).last()).rejects.toThrow(IrreversibleOrder);
    await expect(Ordered.bySql().last()).rejects.toThrow(IrreversibleOrder);
    await expect(Ordered.bySql().reorder({ name: "asc" }).last()).resolves.toBeNull();
  });
});

describe("first(n) and take(n): Rails' forms, a list of up to n records", () => {
  it("first(n) reads the first n by the order or the primary key; take(n) up to n; within the Relation's own limit", async () => {
    for (const [name, age] of [["c", 3], ["a", 1], ["b", 2]] as const) await User.createOrThrow({ name, age });
    const { db, events } = listen();
    const U = db.model(User);
    const byAge = await U.order({ age: "desc" }).first(2);
    expectTypeOf(byAge).toEqualTypeOf<InstanceType<typeof User>[]>();
    expect(byAge.map((user) => user.name)).toEqual(["c", "b"]);
    expect(events.at(-1)!.sql).toMatch(/ORDER BY "age" DESC LIMIT 2$/);
    expect((await U.first(2)).map((user) => user.name)).toEqual((await U.order({ id: "asc" }).limit(2).pluck("name")));
    expect(await U.take(5)).toHaveLength(3);
    expect(await U.first(0)).toEqual([]);
    expect(await U.limit(1).first(3)).toHaveLength(1);
    expect(await U.none().take(2)).toEqual([]);
    // Without a count, one record or null, as before.
    const one = await U.order({ age: "asc" }).first();
    expectTypeOf(one).toEqualTypeOf<InstanceType<typeof User> | null>();
    expect(one!.name).toBe("a");
    expect(await U.where({ name: "nobody" }).take()).toBeNull();
  });
});
