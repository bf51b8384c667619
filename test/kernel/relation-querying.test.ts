import { beforeAll, describe, expect, it } from "vitest";
import { between, CastError, column, gt, gte, ignoringCase, lt, lte, MissingAttribute, RecordNotFound, sql, UnknownAttribute } from "../../src/index.js";
import { Relation } from "../../src/plugin.js";
import { listen as listenTo } from "../helpers/queries.js";
import { Counter, Note, Post, User } from "../models/fixtures.js";

// Five users shared by every test of this file (tests that write use other tables or roll their change back).
//   name  age   score  admin  email              bornAt
//   Ada   36    9.5    true   ada@example.com    1990-01-01T00:00:00.000Z
//   Bob   17    5      false  null               2005-06-15T00:00:00.000Z
//   Cy    null  null   false  cy@example.com     null
//   Dee   50    7.25   false  dee@example.com    1975-03-03T00:00:00.000Z
//   Eve   17    0.5    false  eve@example.com    2006-12-31T23:00:00.000Z
beforeAll(async () => {
  await User.create({ name: "Ada", age: 36, score: 9.5, admin: true, email: "ada@example.com", bornAt: "1990-01-01" });
  await User.create({ name: "Bob", age: 17, score: 5, bornAt: "2005-06-15" });
  await User.create({ name: "Cy", email: "cy@example.com" });
  await User.create({ name: "Dee", age: 50, score: 7.25, email: "dee@example.com", bornAt: "1975-03-03" });
  await User.create({ name: "Eve", age: 17, score: 0.5, email: "eve@example.com", bornAt: "2006-12-31T23:00:00Z" });
});

/** A listening database, with User bound to it (tests shadow the imported User with the bound view). */
const listen = () => listenTo({ models: { User } });

/** Names of the records, sorted, so that a test does not depend on an order it does not ask for. */
async function names(relation: { pluck(name: "name"): Promise<string[]> }): Promise<string[]> {
  return (await relation.pluck("name")).sort();
}

describe("Relations are immutable and lazy", () => {
  it("each narrowing, ordering or paging method returns a new Relation and leaves the original unchanged", async () => {
    const base = User.where({ age: 17 });
    const before = base.toSql();
    expect(before).toEqual({ sql: `SELECT * FROM "users" WHERE "age" = ?1`, params: [17] });
    const derived = {
      where: base.where({ name: "Bob" }),
      whereNot: base.whereNot({ name: "Bob" }),
      or: base.or(User.where({ name: "Ada" })),
      order: base.order({ name: "asc" }),
      reorder: base.reorder({ name: "desc" }),
      reorderNone: base.order({ name: "asc" }).reorder(),
      limit: base.limit(1),
      offset: base.offset(1),
      select: base.select("name"),
      distinct: base.distinct(),
      none: base.none(),
      merge: base.merge(User.order({ age: "desc" })),
      // @ts-expect-error: this User declares no association; only immutability is checked here
      includes: base.includes("posts"),
    };
    for (const [method, relation] of Object.entries(derived)) {
      expect(relation, method).toBeInstanceOf(Relation);
      expect(relation, method).not.toBe(base);
    }
    // Every method (but includes and the reorder() of an order added first) changed the SQL of the new Relation...
    for (const [method, relation] of Object.entries(derived)) {
      if (method === "includes" || method === "reorderNone") continue;
      expect(relation.toSql(), method).not.toEqual(before);
    }
    // ...and none changed the original.
    expect(base.toSql()).toEqual(before);
    expect(await names(base)).toEqual(["Bob", "Eve"]);
    expect(await base.count()).toBe(2);
  });

  it("a chained method does not change the Relation it was called on, at any depth", () => {
    const ordered = User.order({ name: "asc" });
    const limited = ordered.limit(2);
    const narrowed = limited.where({ admin: false });
    expect(ordered.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC`);
    expect(limited.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC LIMIT 2`);
    expect(narrowed.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "admin" = ?1 ORDER BY "name" ASC LIMIT 2`, params: [0] });
  });

  it("nothing is sent until results are requested", async () => {
    const { events, User } = listen();
    const relation = User.where({ age: gte(17) })
      .whereNot({ name: "Dee" })
      .or(User.where({ name: "Cy" }))
      .order({ name: "asc" })
      .reorder({ name: "desc" })
      .limit(10)
      .offset(0)
      .select("name", "age")
      .merge(User.all())
      .includes();
    relation.toSql();
    String(relation);
    expect(events).toHaveLength(0);
    expect(await relation.pluck("name")).toEqual(["Eve", "Cy", "Bob", "Ada"]);
    expect(events).toHaveLength(1);
    const records = await relation.toArray();
    expect(records.map((record) => record.name)).toEqual(["Eve", "Cy", "Bob", "Ada"]);
    expect(events).toHaveLength(2);
  });

  it("has no then: awaiting a Relation gives the Relation itself and sends nothing", async () => {
    const { events, User } = listen();
    const relation = User.where({ name: "Ada" });
    expect("then" in relation).toBe(false);
    expect("then" in User.all()).toBe(false);
    expect("then" in User.none()).toBe(false);
    const awaited = await relation;
    expect(awaited).toBe(relation);
    expect(await User.order({ name: "asc" })).toBeInstanceOf(Relation);
    expect(events).toHaveLength(0);
  });

  it("every Relation method is also a static of the Model", async () => {
    const all = User.all();
    const builders: [string, unknown[]][] = [
      ["where", [{ age: 17 }]],
      ["whereNot", [{ age: 17 }]],
      ["or", [User.where({ name: "Ada" })]],
      ["order", [{ name: "desc" }]],
      ["reorder", [{ name: "desc" }]],
      ["limit", [2]],
      ["offset", [1]],
      ["select", ["name"]],
      ["distinct", []],
      ["none", []],
      ["merge", [User.where({ age: 50 })]],
      ["includes", []],
    ];
    for (const [name, args] of builders) {
      const fromStatic = (User as any)[name](...args);
      expect(fromStatic, name).toBeInstanceOf(Relation);
      expect(fromStatic.toSql(), name).toEqual((all as any)[name](...args).toSql());
    }
    expect(User.toSql()).toEqual(all.toSql());
    const ada = (await User.findBy({ name: "Ada" }))!;
    const bob = (await User.findBy({ name: "Bob" }))!;
    expect((await User.toArray()).length).toBe(5);
    expect((await User.find(ada.id)).name).toBe("Ada");
    expect((await User.find([bob.id, ada.id])).map((u) => u.name)).toEqual(["Bob", "Ada"]);
    expect((await User.findByOrThrow({ name: "Bob" })).id).toBe(bob.id);
    expect((await User.first())!.id).toBe((await all.first())!.id);
    expect((await User.last())!.id).toBe((await all.last())!.id);
    expect(await User.take()).toBeInstanceOf(User);
    expect((await User.pluck("name")).sort()).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
    expect(await User.count()).toBe(5);
    expect(await User.exists({ name: "Cy" })).toBe(true);
    expect(await User.size()).toBe(5);
    expect(await User.isEmpty()).toBe(false);
    expect(await User.hasAny()).toBe(true);
    expect((await User.paginate({ perPage: 2 })).total).toBe(5);
    for (const name of ["build", "create", "createOrThrow", "updateAll", "deleteAll", "toUpdateAll", "toDeleteAll"]) {
      expect(typeof (all as any)[name], name).toBe("function");
      expect(typeof (User as any)[name], name).toBe("function");
    }
  });
});

describe("where", () => {
  it("an object: every key must match, joined with AND", async () => {
    const relation = User.where({ age: 17, name: "Bob" });
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" = ?1 AND "name" = ?2`, params: [17, "Bob"] });
    expect(await names(relation)).toEqual(["Bob"]);
    expect(await names(User.where({ age: 17 }).where({ name: "Eve" }))).toEqual(["Eve"]);
    expect(await names(User.where({ age: 36, name: "Bob" }))).toEqual([]);
  });

  it("null matches NULL", async () => {
    const relation = User.where({ age: null });
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" IS NULL`, params: [] });
    expect(await names(relation)).toEqual(["Cy"]);
    expect(await names(User.where({ email: null }))).toEqual(["Bob"]);
  });

  it("an array matches any element, bound as one value", async () => {
    const relation = User.where({ name: ["Ada", "Eve", "Nobody"] });
    expect(relation.toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "name" IN (SELECT value FROM json_each(?1))`,
      params: [JSON.stringify(["Ada", "Eve", "Nobody"])],
    });
    expect(await names(relation)).toEqual(["Ada", "Eve"]);
    expect(await names(User.where({ age: [36, 50] }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.where({ name: [] }))).toEqual([]);
  });

  it("a list of 10,000 values is one bound value and runs on D1 (whose limit is 100 bound values)", async () => {
    const ada = (await User.findBy({ name: "Ada" }))!;
    const ids = Array.from({ length: 10_000 }, (_, index) => `missing-${index}`);
    ids[7_777] = ada.id;
    const { events, User: Bound } = listen();
    const relation = Bound.where({ id: ids });
    expect(relation.toSql().params).toHaveLength(1);
    expect(await names(relation)).toEqual(["Ada"]);
    expect(await relation.count()).toBe(1);
    const ages = Array.from({ length: 10_000 }, (_, index) => index);
    expect(await Bound.where({ age: ages }).count()).toBe(4);
    expect(await Bound.whereNot({ age: ages }).count()).toBe(0);
    expect(events.every((event) => event.params.length === 1)).toBe(true);
  });

  it("a list with null also matches NULL", async () => {
    const relation = User.where({ age: [17, null] });
    expect(relation.toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE ("age" IN (SELECT value FROM json_each(?1)) OR "age" IS NULL)`,
      // Numbers are written as reals, as D1 binds a number on its own.
      params: ["[17.0]"],
    });
    expect(await names(relation)).toEqual(["Bob", "Cy", "Eve"]);
    expect(await names(User.where({ age: [null] }))).toEqual(["Cy"]);
  });

  it("an sql fragment", async () => {
    const relation = User.where(sql`${column("age")} > ${20} AND ${column("bornAt")} IS NOT NULL`);
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE ("age" > ?1 AND "born_at" IS NOT NULL)`, params: [20] });
    expect(await names(relation)).toEqual(["Ada", "Dee"]);
    // Mixed with an object condition, each part stays whole.
    const mixed = User.where(sql`${column("age")} = ${17} OR ${column("age")} = ${50}`).where({ name: "Dee" });
    expect(mixed.toSql().sql).toBe(`SELECT * FROM "users" WHERE ("age" = ?1 OR "age" = ?2) AND "name" = ?3`);
    expect(await names(mixed)).toEqual(["Dee"]);
  });

  it("a plain string is rejected with a TypeError that says to use sql", () => {
    expect(() => User.where("age > 20" as any)).toThrow(TypeError);
    expect(() => User.where("age > 20" as any)).toThrow(/string/);
    expect(() => User.where("age > 20" as any)).toThrow(/sql/);
    expect(() => User.whereNot("age > 20" as any)).toThrow(TypeError);
    expect(() => User.all().where("1 = 1" as any)).toThrow(TypeError);
    // order too: a plain string would be SQL that binds nothing.
    expect(() => User.order("name" as any)).toThrow("User.order: a plain string is not accepted; build the order with sql`...`");
    expect(() => User.reorder("name desc" as any)).toThrow(TypeError);
  });

  it("undefined as a value throws TypeError (null is the way to match NULL)", () => {
    expect(() => User.where({ name: undefined })).toThrow(TypeError);
    expect(() => User.where({ age: 17, email: undefined })).toThrow(/email/);
    expect(() => User.whereNot({ name: undefined })).toThrow(TypeError);
  });

  it("undefined inside a list, a comparison or the ids of find throws TypeError too", async () => {
    expect(() => User.where({ age: [17, undefined as unknown as number] })).toThrow(/User.where: age holds undefined/);
    expect(() => User.where({ settings: [undefined as unknown as null] })).toThrow(TypeError);
    expect(() => User.where({ age: gt(undefined as unknown as number) })).toThrow(TypeError);
    // A comparison helper refuses undefined itself, before any where() sees it.
    expect(() => User.whereNot({ age: between(1, undefined as unknown as number) })).toThrow(/^between takes a value/);
    await expect(User.find("a", undefined)).rejects.toThrow(TypeError);
    await expect(User.find([undefined])).rejects.toThrow(/User.find: an id is undefined/);
  });

  it("undefined in findBy or exists rejects with TypeError", async () => {
    await expect(User.findBy({ name: undefined })).rejects.toThrow(TypeError);
    await expect(User.exists({ name: undefined })).rejects.toThrow(TypeError);
  });
});

describe("whereNot", () => {
  it("negates the whole condition, not each key", async () => {
    const relation = User.whereNot({ name: "Ada", admin: true });
    expect(relation.toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE NOT ("name" = ?1 AND "admin" = ?2) AND "name" IS NOT NULL AND "admin" IS NOT NULL`,
      params: ["Ada", 1],
    });
    expect(await names(relation)).toEqual(["Bob", "Cy", "Dee", "Eve"]);
    // Bob is not an admin, so no row matches the whole condition and none is excluded.
    expect(await names(User.whereNot({ name: "Bob", admin: true }))).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
  });

  it("excludes rows with NULL in the attribute", async () => {
    expect(await names(User.whereNot({ age: 17 }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.whereNot({ age: [17, 50] }))).toEqual(["Ada"]);
    expect(await names(User.whereNot({ email: "ada@example.com" }))).toEqual(["Cy", "Dee", "Eve"]);
    expect(await names(User.whereNot({ age: gt(20) }))).toEqual(["Bob", "Eve"]);
  });

  it("with several attributes, excludes rows with NULL in any of them", async () => {
    // Cy has no age: NOT (age = 17 AND name = 'Bob') alone would keep that row.
    expect(await names(User.whereNot({ age: 17, name: "Bob" }))).toEqual(["Ada", "Dee", "Eve"]);
    expect(await names(User.whereNot({ age: null, name: "Bob" }))).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
  });

  it("with one attribute compared and another matched with null, excludes rows with NULL in the compared one", async () => {
    // NOT (age = 17 AND email IS NULL) alone would keep Cy, whose age is NULL.
    expect(await names(User.whereNot({ age: 17, email: null }))).toEqual(["Ada", "Dee", "Eve"]);
    expect(await names(User.whereNot({ age: [17], email: null }))).toEqual(["Ada", "Dee", "Eve"]);
    expect(await names(User.whereNot({ age: lt(20), email: null }))).toEqual(["Ada", "Dee", "Eve"]);
  });

  it("whereNot({}) excludes nothing, as where({}) narrows nothing", async () => {
    expect(User.whereNot({}).toSql().sql).toBe(`SELECT * FROM "users"`);
    expect(await User.whereNot({}).count()).toBe(5);
  });

  it("whereNot null matches the rows that are not NULL", async () => {
    expect(await names(User.whereNot({ age: null }))).toEqual(["Ada", "Bob", "Dee", "Eve"]);
  });

  it("combines with where", async () => {
    expect(await names(User.where({ age: 17 }).whereNot({ name: "Bob" }))).toEqual(["Eve"]);
  });
});

describe("conditions are cast like assigned values", () => {
  it("a value that cannot be cast matches nothing: findBy gives null", async () => {
    expect(await User.findBy({ age: "abc" })).toBeNull();
    expect(await User.findBy({ age: 1.5 })).toBeNull();
    expect(await User.findBy({ age: "" })).toBeNull();
    expect(await User.findBy({ admin: "maybe" })).toBeNull();
    expect(await User.findBy({ bornAt: "1990-01-01 00:00" })).toBeNull();
    expect(await User.findBy({ score: "NaN" })).toBeNull();
    expect(await User.where({ age: "abc" }).count()).toBe(0);
    expect(await User.exists({ age: "abc" })).toBe(false);
  });

  it("castable text matches like the value it casts to", async () => {
    expect((await User.findBy({ age: " 36 " }))!.name).toBe("Ada");
    expect((await User.findBy({ admin: "on" }))!.name).toBe("Ada");
    expect((await User.findBy({ bornAt: "1990-01-01T02:00:00+02:00" }))!.name).toBe("Ada");
    expect((await User.findBy({ score: "7.25" }))!.name).toBe("Dee");
  });

  it("find with an id that cannot be cast throws RecordNotFound", async () => {
    const counter = await Counter.create({ label: "one" });
    expect((await Counter.find(String(counter.id))).label).toBe("one");
    await expect(Counter.find("abc")).rejects.toThrow(RecordNotFound);
    await expect(Counter.find(1.5)).rejects.toThrow(RecordNotFound);
    await expect(Counter.where({ label: "one" }).find("abc")).rejects.toThrow(RecordNotFound);
    await expect(User.find(true)).rejects.toThrow(RecordNotFound);
    await expect(Counter.find([counter.id, "abc"])).rejects.toThrow(RecordNotFound);
  });

  it("uncastable values in a list are dropped, so a negated list of them excludes nothing", async () => {
    expect(await names(User.where({ age: ["abc", 36, "1.5"] }))).toEqual(["Ada"]);
    expect(await names(User.where({ age: ["abc"] }))).toEqual([]);
    expect(await User.whereNot({ age: ["abc"] }).count()).toBe(5);
    expect(await User.whereNot({ age: ["abc", "x"] }).count()).toBe(5);
    expect(await names(User.whereNot({ age: ["abc", 17] }))).toEqual(["Ada", "Dee"]);
  });

  it("a number in a condition on a string attribute is read as its digits", async () => {
    await Note.create({ body: "42" });
    await Note.create({ body: "7" });
    const relation = Note.where({ body: 42 });
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "notes" WHERE "body" = ?1`, params: ["42"] });
    expect(await relation.pluck("body")).toEqual(["42"]);
    expect((await Note.findBy({ body: 7 }))!.body).toBe("7");
    expect((await Note.where({ body: [42, 7] }).pluck("body")).sort()).toEqual(["42", "7"]);
  });

  it("a record built from a Relation starts with its condition values", () => {
    const built = User.where({ name: "x", age: "30" }).build();
    expect(built.isNewRecord()).toBe(true);
    expect(built.name).toBe("x");
    expect(built.age).toBe(30);
    const fromNumber = Note.where({ body: 42 }).build();
    expect(fromNumber.body).toBe("42");
    const withNull = User.where({ name: "y", email: null }).build({ age: 5 });
    expect(withNull.name).toBe("y");
    expect(withNull.email).toBeNull();
    expect(withNull.age).toBe(5);
    const overridden = User.where({ name: "x" }).build({ name: "z" });
    expect(overridden.name).toBe("z");
    const dated = User.where({ bornAt: "1990-01-01" }).build();
    expect(dated.bornAt).toEqual(new Date("1990-01-01T00:00:00.000Z"));
  });
});

describe("or", () => {
  it("matches rows of either Relation", async () => {
    const relation = User.where({ name: "Ada" }).or(User.where({ age: 17 }));
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE ("name" = ?1 OR "age" = ?2)`, params: ["Ada", 17] });
    expect(await names(relation)).toEqual(["Ada", "Bob", "Eve"]);
    const both = User.where({ age: 17 }).where({ name: "Bob" }).or(User.where({ name: "Dee" }));
    expect(both.toSql().sql).toBe(`SELECT * FROM "users" WHERE ("age" = ?1 AND "name" = ?2 OR "name" = ?3)`);
    expect(await names(both)).toEqual(["Bob", "Dee"]);
    // Later conditions apply to the whole or.
    expect(await names(User.where({ name: "Ada" }).or(User.where({ age: 17 })).where({ admin: false }))).toEqual(["Bob", "Eve"]);
  });

  it("keeps the order, limit and select the two Relations share", async () => {
    const a = User.order({ name: "desc" }).limit(2).where({ name: "Ada" });
    const b = User.order({ name: "desc" }).limit(2).where({ age: 17 });
    expect(await a.or(b).pluck("name")).toEqual(["Eve", "Bob"]);
  });

  it("takes none(): a none() Relation stays empty, and or(none()) adds nothing", async () => {
    const dee = User.where({ name: "Dee" });
    expect(await names(dee.or(User.none()))).toEqual(["Dee"]);
    const { db, events } = listenTo();
    expect(await db.model(User).none().or(dee).toArray()).toEqual([]);
    expect(await db.model(User).none().or(User.none()).toArray()).toEqual([]);
    expect(events).toHaveLength(0);
  });

  it("refuses a Relation that differs in more than conditions", () => {
    const base = User.where({ name: "Ada" });
    expect(() => base.or(User.where({ age: 17 }).limit(1))).toThrow();
    expect(() => base.or(User.where({ age: 17 }).offset(1))).toThrow();
    expect(() => base.or(User.where({ age: 17 }).order({ name: "asc" }))).toThrow();
    expect(() => base.or(User.where({ age: 17 }).select("name"))).toThrow();
    expect(() => base.or(User.where({ age: 17 }).distinct())).toThrow();
    expect(() => base.or(Post.where({ title: "x" }) as any)).toThrow();
    expect(() => base.order({ name: "asc" }).or(User.where({ age: 17 }))).toThrow();
  });
});

describe("comparison helpers", () => {
  it("on a number attribute", async () => {
    expect(User.where({ age: gt(17) }).toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" > ?1`, params: [17] });
    expect(await names(User.where({ age: gt(17) }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.where({ age: gte(36) }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.where({ age: lt(36) }))).toEqual(["Bob", "Eve"]);
    expect(await names(User.where({ age: lte(36) }))).toEqual(["Ada", "Bob", "Eve"]);
    expect(await names(User.where({ age: between(17, 36) }))).toEqual(["Ada", "Bob", "Eve"]);
    expect(await names(User.where({ age: between(17, 36, { excludeEnd: true }) }))).toEqual(["Bob", "Eve"]);
    expect(await names(User.where({ age: between(17, 50, { excludeEnd: false }) }))).toEqual(["Ada", "Bob", "Dee", "Eve"]);
    expect(await names(User.where({ score: gt(7) }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.where({ score: between(0.5, 7.25) }))).toEqual(["Bob", "Dee", "Eve"]);
    expect(await names(User.where({ age: gt("20") }))).toEqual(["Ada", "Dee"]);
  });

  it("are refused on boolean attributes at compile time, and on boolean and json ones at run time", () => {
    // @ts-expect-error: comparison helpers are for number, string and datetime attributes
    expect(() => User.where({ admin: gt(false) })).toThrow(new TypeError("User.where: admin is a boolean; comparison helpers are for comparable types (number, string, datetime)"));
    // A json attribute's value is typed unknown, so only the run-time check can refuse a comparison on it.
    expect(() => User.whereNot({ settings: lt(1) })).toThrow(/settings is a json/);
  });

  it("between binds both ends", () => {
    expect(User.where({ age: between(17, 36) }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "age" >= ?1 AND "age" <= ?2`,
      params: [17, 36],
    });
    expect(User.where({ age: between(17, 36, { excludeEnd: true }) }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "age" >= ?1 AND "age" < ?2`,
      params: [17, 36],
    });
  });

  it("on a string attribute", async () => {
    expect(await names(User.where({ name: gt("Cy") }))).toEqual(["Dee", "Eve"]);
    expect(await names(User.where({ name: gte("Cy") }))).toEqual(["Cy", "Dee", "Eve"]);
    expect(await names(User.where({ name: lt("Cy") }))).toEqual(["Ada", "Bob"]);
    expect(await names(User.where({ name: lte("Cy") }))).toEqual(["Ada", "Bob", "Cy"]);
    expect(await names(User.where({ name: between("Bob", "Dee") }))).toEqual(["Bob", "Cy", "Dee"]);
    expect(await names(User.where({ name: between("Bob", "Dee", { excludeEnd: true }) }))).toEqual(["Bob", "Cy"]);
  });

  it("ignoringCase matches text apart from ASCII letter case, and whereNot negates it", async () => {
    expect(User.where({ name: ignoringCase("ADA") }).toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "name" = ?1 COLLATE NOCASE`, params: ["ADA"] });
    expect(await names(User.where({ name: ignoringCase("ADA") }))).toEqual(["Ada"]);
    expect(await names(User.where({ name: ignoringCase("ada"), age: 36 }))).toEqual(["Ada"]);
    expect(await names(User.whereNot({ name: ignoringCase("aDA") }))).toEqual(["Bob", "Cy", "Dee", "Eve"]);
  });

  it("on a datetime attribute, with Dates and date text", async () => {
    const eve = new Date("2006-12-31T23:00:00Z");
    expect(User.where({ bornAt: gt(eve) }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "born_at" > ?1`,
      params: ["2006-12-31T23:00:00.000Z"],
    });
    expect(await names(User.where({ bornAt: gt(new Date("2000-01-01T00:00:00Z")) }))).toEqual(["Bob", "Eve"]);
    expect(await names(User.where({ bornAt: gt(eve) }))).toEqual([]);
    expect(await names(User.where({ bornAt: gte(eve) }))).toEqual(["Eve"]);
    expect(await names(User.where({ bornAt: lt(eve) }))).toEqual(["Ada", "Bob", "Dee"]);
    expect(await names(User.where({ bornAt: lte("2007-01-01T00:00:00+01:00") }))).toEqual(["Ada", "Bob", "Dee", "Eve"]);
    expect(await names(User.where({ bornAt: between("1975-03-03", "1990-01-01") }))).toEqual(["Ada", "Dee"]);
    expect(await names(User.where({ bornAt: between("1975-03-03", "1990-01-01", { excludeEnd: true }) }))).toEqual(["Dee"]);
    expect(await names(User.where({ bornAt: between(new Date("1975-03-03T00:00:00Z"), eve) }))).toEqual(["Ada", "Bob", "Dee", "Eve"]);
  });
});

describe("sql and column", () => {
  it("sql binds every interpolated value, never splicing it", async () => {
    const hostile = "x' OR '1' = '1";
    const relation = User.where(sql`${column("name")} = ${hostile}`);
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE ("name" = ?1)`, params: [hostile] });
    expect(await relation.count()).toBe(0);
    const nested = sql`${column("age")} >= ${18}`;
    const combined = User.where(sql`${nested} AND ${column("name")} <> ${"Dee"}`);
    expect(combined.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE ("age" >= ?1 AND "name" <> ?2)`, params: [18, "Dee"] });
    expect(await names(combined)).toEqual(["Ada"]);
  });

  it("binds a Date as its ISO text and a boolean as 1 or 0, as the attribute types store them", async () => {
    const relation = User.where(sql`${column("bornAt")} < ${new Date("2000-01-01T00:00:00Z")} AND ${column("admin")} = ${false}`);
    expect(relation.toSql().params).toEqual(["2000-01-01T00:00:00.000Z", 0]);
    expect(await names(relation)).toEqual(["Dee"]);
    const ordered = User.where({ age: 17 }).order(sql`${column("bornAt")} > ${new Date("2006-01-01T00:00:00Z")} DESC`);
    expect(await ordered.pluck("name")).toEqual(["Eve", "Bob"]);
  });

  it("refuses undefined and lists when the fragment is made, before D1 sees them", () => {
    expect(() => User.where(sql`${column("age")} = ${undefined}`).toSql()).toThrow(new CastError("sql: a value in an sql fragment is undefined; use null for NULL", undefined, undefined));
    expect(() => User.where(sql`${column("age")} IN (${[17, 50]})`).toSql()).toThrow(/^sql: a list cannot be bound in an sql fragment/);
  });

  it("a list is read with json_each when bound as JSON text", async () => {
    expect(await names(User.where(sql`${column("age")} IN (SELECT value FROM json_each(${JSON.stringify([17, 50])}))`))).toEqual(["Bob", "Dee", "Eve"]);
  });

  it("column() of a name the Model has no attribute for throws UnknownAttribute", () => {
    expect(() => User.where(sql`${column("nope")} IS NOT NULL`).toSql()).toThrow(new UnknownAttribute("User has no attribute nope"));
    expect(() => User.order(sql`${column("nope")}`).toSql()).toThrow(UnknownAttribute);
  });

  it("column names the attribute's column", async () => {
    const relation = User.where(sql`${column("createdAt")} <= ${new Date().toISOString()}`).order(sql`${column("bornAt")} DESC`);
    expect(relation.toSql().sql).toBe(`SELECT * FROM "users" WHERE ("created_at" <= ?1) ORDER BY "born_at" DESC`);
    expect(await relation.pluck("name")).toEqual(["Eve", "Bob", "Ada", "Dee", "Cy"]);
  });
});

describe("order", () => {
  it("asc and desc", async () => {
    expect(User.order({ name: "asc" }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC`);
    expect(User.order({ name: "desc" }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" DESC`);
    // Read in any letter case at run time, as Rails reads them (the types ask for lowercase).
    expect(User.order({ name: "DESC" as "desc", age: { direction: "Asc" as "asc" } }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" DESC, "age" ASC`);
    expect(await User.order({ name: "asc" }).pluck("name")).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
    expect(await User.order({ name: "desc" }).pluck("name")).toEqual(["Eve", "Dee", "Cy", "Bob", "Ada"]);
  });

  it("NULLs sort first in ascending order by default (and last in descending)", async () => {
    expect(await User.order({ score: "asc" }).pluck("name")).toEqual(["Cy", "Eve", "Bob", "Dee", "Ada"]);
    expect(await User.order({ score: "desc" }).pluck("name")).toEqual(["Ada", "Dee", "Bob", "Eve", "Cy"]);
  });

  it("{ direction, nulls } places NULLs", async () => {
    const last = User.order({ score: { direction: "asc", nulls: "last" } });
    expect(last.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "score" ASC NULLS LAST`);
    expect(await last.pluck("name")).toEqual(["Eve", "Bob", "Dee", "Ada", "Cy"]);
    expect(await User.order({ score: { direction: "desc", nulls: "first" } }).pluck("name")).toEqual(["Cy", "Ada", "Dee", "Bob", "Eve"]);
    expect(await User.order({ score: { direction: "desc" } }).pluck("name")).toEqual(["Ada", "Dee", "Bob", "Eve", "Cy"]);
  });

  it("repeated calls add keys", async () => {
    const relation = User.order({ age: "asc" }).order({ name: "desc" });
    expect(relation.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "age" ASC, "name" DESC`);
    expect(await relation.pluck("name")).toEqual(["Cy", "Eve", "Bob", "Ada", "Dee"]);
    const oneObject = User.order({ age: "desc", name: "asc" });
    expect(oneObject.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "age" DESC, "name" ASC`);
    expect(await oneObject.pluck("name")).toEqual(["Dee", "Ada", "Bob", "Eve", "Cy"]);
  });

  it("an sql fragment", async () => {
    const relation = User.order(sql`length(${column("name")}) ASC`).order({ name: "desc" });
    expect(relation.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY length("name") ASC, "name" DESC`);
    expect(await relation.pluck("name")).toEqual(["Cy", "Eve", "Dee", "Bob", "Ada"]);
  });

  it("reorder replaces the order; reorder() removes it", async () => {
    const ordered = User.order({ age: "asc" }).order({ name: "asc" });
    const reordered = ordered.reorder({ name: "desc" });
    expect(reordered.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" DESC`);
    expect(await reordered.pluck("name")).toEqual(["Eve", "Dee", "Cy", "Bob", "Ada"]);
    expect(ordered.reorder().toSql().sql).toBe(`SELECT * FROM "users"`);
    expect(ordered.reorder().order({ name: "asc" }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC`);
    expect(ordered.reorder(sql`${column("age")} DESC`).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "age" DESC`);
  });
});

describe("limit and offset", () => {
  it("page through the rows", async () => {
    const relation = User.order({ name: "asc" }).limit(2).offset(1);
    expect(relation.toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC LIMIT 2 OFFSET 1`);
    expect(await relation.pluck("name")).toEqual(["Bob", "Cy"]);
    expect(await User.order({ name: "asc" }).limit(2).pluck("name")).toEqual(["Ada", "Bob"]);
    expect(await User.order({ name: "asc" }).offset(3).pluck("name")).toEqual(["Dee", "Eve"]);
    expect(await User.order({ name: "asc" }).offset(10).pluck("name")).toEqual([]);
    expect(await User.order({ name: "asc" }).limit(0).pluck("name")).toEqual([]);
  });

  it("a later call replaces the earlier value", async () => {
    expect(await User.order({ name: "asc" }).limit(1).limit(3).pluck("name")).toEqual(["Ada", "Bob", "Cy"]);
    expect(await User.order({ name: "asc" }).offset(4).offset(1).limit(1).pluck("name")).toEqual(["Bob"]);
  });
});

describe("select", () => {
  it("loads only the named attributes plus the primary key", async () => {
    const relation = User.select("name", "age").where({ name: "Ada" });
    expect(relation.toSql().sql).toBe(`SELECT "id", "name", "age" FROM "users" WHERE "name" = ?1`);
    const [ada] = await relation.toArray();
    expect(ada!.name).toBe("Ada");
    expect(ada!.age).toBe(36);
    expect(ada!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ada!.attributes()).toEqual({ id: ada!.id, name: "Ada", age: 36 });
  });

  it("reading an attribute not loaded throws MissingAttribute", async () => {
    const ada = (await User.select("name").findBy({ name: "Ada" }))!;
    expect(() => ada.email).toThrow(MissingAttribute);
    expect(() => ada.age).toThrow(MissingAttribute);
    expect(() => ada.readAttribute("bornAt")).toThrow(MissingAttribute);
    expect(() => ada.createdAt).toThrow(MissingAttribute);
  });

  it("a partial record whose save reads nothing else can be saved", async () => {
    const ada = (await User.select("name").findBy({ name: "Ada" }))!;
    ada.name = "Ada Lovelace";
    expect(await ada.save()).toBe(true);
    const full = (await User.findBy({ name: "Ada Lovelace" }))!;
    expect(full.age).toBe(36);
    expect(full.email).toBe("ada@example.com");
    await full.update({ name: "Ada" });
  });

  it("a record:validate hook reading an attribute not loaded throws MissingAttribute from save", async () => {
    class ValidatedUser extends User {
      static {
        this.hook("record:validate", ({ record }) => {
          if (record.age === null) record.errors.add("age", "blank", "can't be blank");
        });
      }
    }
    const ada = (await ValidatedUser.select("name").findBy({ name: "Ada" }))!;
    ada.name = "Changed";
    await expect(ada.save()).rejects.toThrow(MissingAttribute);
    expect(await User.exists({ name: "Changed" })).toBe(false);
  });

  it("a record:beforeSave hook (and a beforeSave callback) reading an attribute not loaded throws MissingAttribute", async () => {
    class HookedUser extends User {
      static {
        this.hook("record:beforeSave", ({ record }) => {
          record.email = String(record.email).toLowerCase();
        });
      }
    }
    const hooked = (await HookedUser.select("name").findBy({ name: "Bob" }))!;
    hooked.name = "Changed";
    await expect(hooked.save()).rejects.toThrow(MissingAttribute);

    class CallbackUser extends User {
      static {
        this.beforeSave((record) => {
          if (record.score === null) record.score = 0;
        });
      }
    }
    const called = (await CallbackUser.select("name").findBy({ name: "Bob" }))!;
    called.name = "Changed";
    await expect(called.save()).rejects.toThrow(MissingAttribute);
    expect(await User.exists({ name: "Changed" })).toBe(false);
  });

  it("a validation of an attribute not loaded throws MissingAttribute", async () => {
    class PresenceUser extends User {
      static {
        this.validates("email", { presence: true });
      }
    }
    const dee = (await PresenceUser.select("name").findBy({ name: "Dee" }))!;
    dee.name = "Changed";
    await expect(dee.save()).rejects.toThrow(MissingAttribute);
    expect(await User.exists({ name: "Changed" })).toBe(false);
  });
});

describe("distinct", () => {
  it("removes duplicate rows and does not add the primary key", async () => {
    const relation = User.select("age").distinct();
    expect(relation.toSql().sql).toBe(`SELECT DISTINCT "age" FROM "users"`);
    const ages = await relation.order({ age: "asc" }).pluck("age");
    expect(ages).toEqual([null, 17, 36, 50]);
    const records = await relation.toArray();
    expect(records).toHaveLength(4);
    expect(await relation.count()).toBe(4);
    expect(records.map((record) => record.age).sort()).toEqual([17, 36, 50, null].sort());
  });

  it("a record loaded through distinct did not load its primary key: reading it throws MissingAttribute", async () => {
    const [record] = await User.select("age").distinct().where({ age: 50 }).toArray();
    expect(record!.age).toBe(50);
    expect(() => record!.id).toThrow(MissingAttribute);
  });

  it("a record loaded through distinct cannot be saved: save does not report a write it did not make", async () => {
    const [record] = await User.select("age").distinct().where({ age: 50 }).toArray();
    record!.age = 51;
    // SPEC: save() is false only for validation or an abort; everything else throws.
    await expect(record!.save()).rejects.toThrow();
    expect(await User.exists({ age: 51 })).toBe(false);
    expect(await User.exists({ age: 50 })).toBe(true);
  });

  it("without select, keeps whole rows", async () => {
    expect(User.distinct().toSql().sql).toBe(`SELECT DISTINCT * FROM "users"`);
    expect(await User.distinct().count()).toBe(5);
  });
});

describe("none", () => {
  it("matches nothing without sending a query", async () => {
    const { events, User } = listen();
    const none = User.none();
    expect(none.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE 1 = 0`, params: [] });
    expect(await none.toArray()).toEqual([]);
    expect(await none.count()).toBe(0);
    expect(await none.pluck("name")).toEqual([]);
    expect(await none.exists()).toBe(false);
    expect(await none.first()).toBeNull();
    expect(await none.last()).toBeNull();
    expect(await none.take()).toBeNull();
    expect(await none.findBy({ name: "Ada" })).toBeNull();
    expect(await none.size()).toBe(0);
    expect(await none.isEmpty()).toBe(true);
    expect(await none.hasAny()).toBe(false);
    expect(events).toHaveLength(0);
  });

  it("chaining keeps it empty", async () => {
    const { events, User } = listen();
    const chained = User.where({ name: "Ada" }).none().where({ age: 36 }).order({ name: "asc" }).reorder().limit(3).offset(0);
    expect(chained.toSql().sql).toContain("1 = 0");
    expect(await chained.toArray()).toEqual([]);
    expect(await User.all().merge(User.none()).toArray()).toEqual([]);
    expect(await User.none().merge(User.all()).count()).toBe(0);
    expect(await User.none().whereNot({ name: "Ada" }).count()).toBe(0);
    expect(events).toHaveLength(0);
    // An equivalent Relation with rows shows the none() was what emptied it.
    expect(await User.where({ name: "Ada" }).where({ age: 36 }).count()).toBe(1);
  });
});

describe("merge", () => {
  it("joins conditions with AND; the argument's order, limit and select replace the receiver's", async () => {
    const receiver = User.where({ age: 17 }).order({ name: "asc" }).limit(5).select("age");
    const merged = receiver.merge(User.where({ name: "Eve" }).order({ age: "desc" }).limit(1).select("name"));
    expect(merged.toSql()).toEqual({
      sql: `SELECT "id", "name" FROM "users" WHERE "age" = ?1 AND "name" = ?2 ORDER BY "age" DESC LIMIT 1`,
      params: [17, "Eve"],
    });
    const [eve] = await merged.toArray();
    expect(eve!.name).toBe("Eve");
    expect(() => eve!.age).toThrow(MissingAttribute);
  });

  it("keeps what the argument does not set", async () => {
    const merged = User.where({ age: 17 }).order({ name: "desc" }).limit(1).merge(User.where({ admin: false }));
    expect(merged.toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "age" = ?1 AND "admin" = ?2 ORDER BY "name" DESC LIMIT 1`,
      params: [17, 0],
    });
    expect(await merged.pluck("name")).toEqual(["Eve"]);
    expect(await names(User.where({ age: gte(17) }).merge(User.where({ age: lte(36) })))).toEqual(["Ada", "Bob", "Eve"]);
  });

  it("refuses a Relation of another Model", () => {
    expect(() => User.all().merge(Post.all() as any)).toThrow();
  });
});

describe("toSql and printing", () => {
  it("toSql shows what toArray would send, values unfiltered", async () => {
    const { events, User } = listen();
    const relation = User.where({ email: "ada@example.com" });
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "email" = ?1`, params: ["ada@example.com"] });
    expect(events).toHaveLength(0);
    expect((await relation.toArray()).map((user) => user.name)).toEqual(["Ada"]);
    expect(events[0]!.sql).toBe(relation.toSql().sql);
    // The query event filters the value, toSql does not.
    expect(events[0]!.params).toEqual(["[FILTERED]"]);
  });

  it("printing a Relation shows its SQL and params without sending the query", () => {
    const { events, User } = listen();
    const relation = User.where({ age: 17, name: "Bob" }).order({ name: "asc" }).limit(3);
    const printed = String(relation);
    expect(printed).toContain(`SELECT * FROM "users" WHERE "age" = ?1 AND "name" = ?2 ORDER BY "name" ASC LIMIT 3`);
    expect(printed).toContain("17");
    expect(printed).toContain(`"Bob"`);
    expect(`${User.none()}`).toContain("1 = 0");
    expect(events).toHaveLength(0);
  });
});
