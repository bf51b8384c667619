import { beforeAll, describe, expect, it } from "vitest";
import { column, IrreversibleOrder, Model, RecordNotFound, sql, UnknownAttribute } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen as listenTo } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";

// Shared by every test of this file; no test writes to users.
//   name  age   admin  bornAt
//   Ada   36    true   1990-01-01
//   Bob   17    false  2005-06-15
//   Cy    null  false  null
//   Dee   50    false  1975-03-03
//   Eve   17    false  2006-12-31
const people = [
  { name: "Ada", age: 36, admin: true, bornAt: "1990-01-01" },
  { name: "Bob", age: 17, bornAt: "2005-06-15" },
  { name: "Cy" },
  { name: "Dee", age: 50, bornAt: "1975-03-03" },
  { name: "Eve", age: 17, bornAt: "2006-12-31" },
];
const ids: Record<string, string> = {};
/** The Model class itself (tests shadow `User` with the view bound to a listening database). */
const UserModel = User;

beforeAll(async () => {
  for (const person of people) ids[person.name] = (await User.create(person)).id;
  for (const label of ["c1", "c2", "c3"]) await Counter.create({ label, value: 10 });
});

/** A listening database, with User and Counter bound to it (tests shadow the imported Models with the bound views). */
const listen = () => listenTo({ models: { User, Counter } });

/** Names in primary key order: what first()/last() use when the Relation has no order. */
function byKey(): string[] {
  return Object.entries(ids)
    .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name]) => name);
}

describe("toArray", () => {
  it("loads the records", async () => {
    const records = await User.order({ name: "asc" }).toArray();
    expect(records.map((record) => record.name)).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
    for (const record of records) {
      expect(record).toBeInstanceOf(UserModel);
      expect(record.isPersisted()).toBe(true);
      expect(record.isChanged()).toBe(false);
    }
    expect(records[0]!.admin).toBe(true);
    expect(records[0]!.bornAt).toEqual(new Date("1990-01-01T00:00:00.000Z"));
    expect(records[2]!.age).toBeNull();
    expect(await User.where({ name: "Nobody" }).toArray()).toEqual([]);
  });

  it("sends one query each time it is called", async () => {
    const { events, User } = listen();
    const relation = User.where({ age: 17 });
    await relation.toArray();
    await relation.toArray();
    expect(events.map((event) => event.sql)).toEqual([`SELECT * FROM "users" WHERE "age" = ?1`, `SELECT * FROM "users" WHERE "age" = ?1`]);
  });
});

describe("find", () => {
  it("find(id) gives the record", async () => {
    const { events, User } = listen();
    const ada = await User.find(ids["Ada"]);
    expect(ada).toBeInstanceOf(UserModel);
    expect(ada.name).toBe("Ada");
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(`SELECT * FROM "users" WHERE "id" = ?1 LIMIT 1`);
  });

  it("find(id) throws RecordNotFound when there is no such row", async () => {
    await expect(User.find("no-such-id")).rejects.toThrow(RecordNotFound);
    await expect(User.find("no-such-id")).rejects.toThrow(/no-such-id/);
    await expect(Counter.find(999)).rejects.toThrow(RecordNotFound);
  });

  it("find on a narrowed Relation finds only within it", async () => {
    expect((await User.where({ age: 17 }).find(ids["Bob"])).name).toBe("Bob");
    await expect(User.where({ age: 17 }).find(ids["Ada"])).rejects.toThrow(RecordNotFound);
  });

  it("find([ids]) gives records in the ids' order, from one query", async () => {
    const { events, User } = listen();
    const order = ["Eve", "Ada", "Dee", "Bob"];
    const records = await User.find(order.map((name) => ids[name]));
    expect(Array.isArray(records)).toBe(true);
    expect(records.map((record) => record.name)).toEqual(order);
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    const reversed = await User.find([...order].reverse().map((name) => ids[name]));
    expect(reversed.map((record) => record.name)).toEqual([...order].reverse());
  });

  it("find([id]) with one id is still an array; find([]) is empty", async () => {
    const records = await User.find([ids["Cy"]]);
    expect(Array.isArray(records)).toBe(true);
    expect(records.map((record) => record.name)).toEqual(["Cy"]);
    expect(await User.find([])).toEqual([]);
  });

  it("find([ids]) throws RecordNotFound if any is missing", async () => {
    await expect(User.find([ids["Ada"], "missing-1"])).rejects.toThrow(RecordNotFound);
    await expect(User.find([ids["Ada"], "missing-1"])).rejects.toThrow(/missing-1/);
    await expect(Counter.find([1, 2, 999])).rejects.toThrow(RecordNotFound);
  });

  it("find(a, b) is always an array, in the ids' order", async () => {
    const records = await User.find(ids["Dee"], ids["Ada"]);
    expect(Array.isArray(records)).toBe(true);
    expect(records.map((record) => record.name)).toEqual(["Dee", "Ada"]);
    const three = await User.find(ids["Bob"], ids["Cy"], ids["Eve"]);
    expect(three.map((record) => record.name)).toEqual(["Bob", "Cy", "Eve"]);
    await expect(User.find(ids["Bob"], "missing-2")).rejects.toThrow(RecordNotFound);
  });

  it("find casts ids: text for an integer key", async () => {
    const counters = await Counter.find(["3", 1]);
    expect(counters.map((counter) => counter.label)).toEqual(["c3", "c1"]);
    expect((await Counter.find("2")).label).toBe("c2");
  });
});

describe("findBy and findByOrThrow", () => {
  it("findBy gives the matching record or null", async () => {
    const { events, User } = listen();
    const bob = await User.findBy({ name: "Bob", age: 17 });
    expect(bob).toBeInstanceOf(UserModel);
    expect(bob!.id).toBe(ids["Bob"]);
    expect(await User.findBy({ name: "Bob", age: 36 })).toBeNull();
    expect((await User.findBy({ age: null }))!.name).toBe("Cy");
    expect(events[0]!.sql).toBe(`SELECT * FROM "users" WHERE "name" = ?1 AND "age" = ?2 LIMIT 1`);
    expect(await User.where({ admin: true }).findBy({ name: "Bob" })).toBeNull();
  });

  it("findByOrThrow gives the record or throws RecordNotFound", async () => {
    expect((await User.findByOrThrow({ name: "Dee" })).age).toBe(50);
    await expect(User.findByOrThrow({ name: "Nobody" })).rejects.toThrow(RecordNotFound);
    await expect(User.where({ age: 17 }).findByOrThrow({ name: "Ada" })).rejects.toThrow(RecordNotFound);
  });
});

describe("first, last and take", () => {
  it("first and last order by primary key when the Relation has no order", async () => {
    const { events, User } = listen();
    const keyOrder = byKey();
    expect((await User.first())!.name).toBe(keyOrder[0]);
    expect((await User.last())!.name).toBe(keyOrder[keyOrder.length - 1]);
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT * FROM "users" ORDER BY "id" ASC LIMIT 1`,
      `SELECT * FROM "users" ORDER BY "id" DESC LIMIT 1`,
    ]);
    const seventeen = keyOrder.filter((name) => name === "Bob" || name === "Eve");
    expect((await User.where({ age: 17 }).first())!.name).toBe(seventeen[0]);
    expect((await User.where({ age: 17 }).last())!.name).toBe(seventeen[1]);
    expect((await Counter.first())!.label).toBe("c1");
    expect((await Counter.last())!.label).toBe("c3");
  });

  it("first and last follow the Relation's order; last reverses it", async () => {
    const { events, User } = listen();
    const byName = User.order({ name: "asc" });
    expect((await byName.first())!.name).toBe("Ada");
    expect((await byName.last())!.name).toBe("Eve");
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT * FROM "users" ORDER BY "name" ASC LIMIT 1`,
      `SELECT * FROM "users" ORDER BY "name" DESC LIMIT 1`,
    ]);
    expect((await User.order({ name: "desc" }).last())!.name).toBe("Ada");
  });

  it("last is the last record of toArray(), NULLs included, for every key of the order", async () => {
    const orders = [
      User.order({ age: "desc", name: "asc" }),
      User.order({ age: "asc", name: "desc" }),
      User.order({ age: { direction: "asc", nulls: "last" } }).order({ name: "asc" }),
      User.order({ bornAt: { direction: "desc", nulls: "first" } }),
      User.order({ admin: "desc" }).order({ name: "asc" }),
    ];
    for (const relation of orders) {
      const all = await relation.toArray();
      expect((await relation.last())!.name, relation.toSql().sql).toBe(all[all.length - 1]!.name);
      expect((await relation.first())!.name, relation.toSql().sql).toBe(all[0]!.name);
    }
  });

  it("last on an sql order throws IrreversibleOrder; first works", async () => {
    const relation = User.order(sql`${column("name")} DESC`);
    expect((await relation.first())!.name).toBe("Eve");
    await expect(relation.last()).rejects.toThrow(IrreversibleOrder);
    await expect(User.order({ age: "asc" }).order(sql`${column("name")}`).last()).rejects.toThrow(IrreversibleOrder);
    // Also with a limit or offset, where last() takes the last record of the window rather than reversing.
    await expect(relation.limit(2).last()).rejects.toThrow(IrreversibleOrder);
    await expect(relation.offset(1).last()).rejects.toThrow(IrreversibleOrder);
    // reorder() makes it reversible again.
    expect((await relation.reorder({ name: "desc" }).last())!.name).toBe("Ada");
  });

  it("keep the Relation's limit and offset: one record never reaches outside its window", async () => {
    const byName = User.order({ name: "asc" });
    expect((await byName.limit(3).last())!.name).toBe("Cy");
    expect((await byName.offset(1).limit(2).last())!.name).toBe("Cy");
    expect((await byName.offset(3).last())!.name).toBe("Eve");
    expect((await byName.offset(1).first())!.name).toBe("Bob");
    expect(await byName.limit(0).first()).toBeNull();
    expect(await byName.limit(0).last()).toBeNull();
    expect(await byName.limit(0).take()).toBeNull();
    expect(await byName.limit(0).findBy({ name: "Ada" })).toBeNull();
    await expect(byName.limit(0).find(ids["Ada"])).rejects.toThrow(RecordNotFound);
    expect(await byName.limit(0).exists()).toBe(false);
    expect(await byName.offset(4).exists()).toBe(true);
    expect(await byName.offset(5).exists()).toBe(false);
  });

  it("includes of an unknown name throws even when no record matches", async () => {
    // @ts-expect-error: not an association (a compile error in TypeScript; the runtime check is tested)
    await expect(User.where({ name: "Nobody" }).includes("nothing").toArray()).rejects.toThrow(/nothing is not an association of User/);
    // @ts-expect-error: not an association
    await expect(User.includes("nothing").toArray()).rejects.toThrow(TypeError);
  });

  it("first and last give null when nothing matches", async () => {
    expect(await User.where({ name: "Nobody" }).first()).toBeNull();
    expect(await User.where({ name: "Nobody" }).last()).toBeNull();
  });

  it("take gives one record without ordering, or null", async () => {
    const { events, User } = listen();
    const record = await User.take();
    expect(record).toBeInstanceOf(UserModel);
    expect(Object.keys(ids)).toContain(record!.name);
    expect((await User.where({ age: 50 }).take())!.name).toBe("Dee");
    expect(await User.where({ name: "Nobody" }).take()).toBeNull();
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT * FROM "users" LIMIT 1`,
      `SELECT * FROM "users" WHERE "age" = ?1 LIMIT 1`,
      `SELECT * FROM "users" WHERE "name" = ?1 LIMIT 1`,
    ]);
  });
});

describe("pluck", () => {
  it("one name gives an array of values, read as JavaScript values", async () => {
    const { events, User } = listen();
    expect(await User.order({ name: "asc" }).pluck("name")).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
    expect(events[0]!.sql).toBe(`SELECT "name" FROM "users" ORDER BY "name" ASC`);
    expect(await User.order({ name: "asc" }).pluck("admin")).toEqual([true, false, false, false, false]);
    expect(await User.order({ name: "asc" }).pluck("age")).toEqual([36, 17, null, 50, 17]);
    const born = await User.where({ name: "Ada" }).pluck("bornAt");
    expect(born).toEqual([new Date("1990-01-01T00:00:00.000Z")]);
    expect(await User.where({ name: "Nobody" }).pluck("name")).toEqual([]);
  });

  it("several names give an array of tuples", async () => {
    const { events, User } = listen();
    const tuples = await User.where({ age: 17 }).order({ name: "asc" }).pluck("name", "age", "admin");
    expect(tuples).toEqual([
      ["Bob", 17, false],
      ["Eve", 17, false],
    ]);
    expect(events[0]!.sql).toBe(`SELECT "name", "age", "admin" FROM "users" WHERE "age" = ?1 ORDER BY "name" ASC`);
  });

  it("follows limit and offset", async () => {
    expect(await User.order({ name: "asc" }).limit(2).offset(1).pluck("name")).toEqual(["Bob", "Cy"]);
  });

  it("gives null for a NULL, whatever the attribute's type (a boolean NULL is not false)", async () => {
    // users.age read as a boolean: Cy's age is NULL, Bob's and Eve's 17.
    class AgeFlag extends Model({ id: "string", name: "string", age: "boolean" }) {
      static override tableName = "users";
      static override binding = "DB";
    }
    expect(await AgeFlag.order({ name: "asc" }).pluck("age")).toEqual([true, true, null, true, true]);
    expect(await AgeFlag.order({ name: "asc" }).pluck("name", "age")).toContainEqual(["Cy", null]);
    expect(await User.where({ name: "Cy" }).pluck("age", "bornAt")).toEqual([[null, null]]);
  });

  it("checks its names before any query: none is a TypeError naming the Model and pluck, an unknown one UnknownAttribute", async () => {
    const { events, User } = listen();
    const none = await rejectionOf((User as unknown as { pluck(): Promise<unknown> }).pluck());
    expect(none).toBeInstanceOf(TypeError);
    expect((none as TypeError).message).toContain("User");
    expect((none as TypeError).message).toContain("pluck");
    const unknown = await rejectionOf(User.pluck("name", "nope" as never));
    expect(unknown).toBeInstanceOf(UnknownAttribute);
    expect((unknown as Error).message).toContain("nope");
    expect(await rejectionOf((User.none() as unknown as { pluck(): Promise<unknown> }).pluck())).toBeInstanceOf(TypeError);
    expect(events).toHaveLength(0);
  });
});

describe("count", () => {
  it("counts the matching rows", async () => {
    const { events, User } = listen();
    expect(await User.count()).toBe(5);
    expect(await User.where({ age: 17 }).count()).toBe(2);
    expect(await User.where({ name: "Nobody" }).count()).toBe(0);
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT COUNT(*) AS "recordflare_count" FROM "users"`,
      `SELECT COUNT(*) AS "recordflare_count" FROM "users" WHERE "age" = ?1`,
      `SELECT COUNT(*) AS "recordflare_count" FROM "users" WHERE "name" = ?1`,
    ]);
  });

  it("under a limit or offset counts the keys of the page, reading no other column", async () => {
    const { events, User } = listen();
    expect(await User.limit(2).offset(1).count()).toBe(2);
    expect(events[0]!.sql).toBe(`SELECT COUNT(*) AS "recordflare_count" FROM (SELECT "id" FROM "users" LIMIT 2 OFFSET 1)`);
  });

  it("always agrees with toArray(), even with limit, offset and distinct", async () => {
    const relations = {
      limit: User.limit(2),
      limitPastEnd: User.limit(50),
      limitZero: User.limit(0),
      offset: User.offset(3),
      offsetPastEnd: User.offset(9),
      limitOffset: User.order({ name: "asc" }).limit(2).offset(4),
      whereLimit: User.where({ age: 17 }).limit(1),
      distinctAge: User.select("age").distinct(),
      distinctAgeNotNull: User.select("age").distinct().whereNot({ age: null }),
      distinctAdmin: User.select("admin").distinct(),
      distinctRows: User.distinct(),
      distinctLimit: User.select("age").distinct().limit(2),
      distinctOffset: User.select("age").distinct().order({ age: "asc" }).offset(1),
      ordered: User.order({ name: "desc" }),
      selected: User.select("name"),
    };
    const counts: Record<string, number> = {};
    for (const [name, relation] of Object.entries(relations)) {
      counts[name] = await relation.count();
      expect(counts[name], name).toBe((await relation.toArray()).length);
    }
    expect(counts).toEqual({
      limit: 2,
      limitPastEnd: 5,
      limitZero: 0,
      offset: 2,
      offsetPastEnd: 0,
      limitOffset: 1,
      whereLimit: 1,
      distinctAge: 4,
      distinctAgeNotNull: 3,
      distinctAdmin: 2,
      distinctRows: 5,
      distinctLimit: 2,
      distinctOffset: 3,
      ordered: 5,
      selected: 5,
    });
  });
});

describe("exists, size, isEmpty and hasAny", () => {
  it("exists() and exists(conditions)", async () => {
    const { events, User } = listen();
    expect(await User.exists()).toBe(true);
    expect(await User.exists({ name: "Cy" })).toBe(true);
    expect(await User.exists({ name: "Nobody" })).toBe(false);
    expect(await User.where({ age: 17 }).exists({ name: "Ada" })).toBe(false);
    expect(await User.where({ age: 17 }).exists({ name: "Eve" })).toBe(true);
    expect(await User.where({ name: "Nobody" }).exists()).toBe(false);
    expect(await User.exists({ age: null })).toBe(true);
    expect(events).toHaveLength(7);
    expect(events[1]!.sql).toBe(`SELECT 1 AS "recordflare_one" FROM "users" WHERE "name" = ?1 LIMIT 1`);
  });

  it("exists selects 1, not the columns, unless a distinct Relation has an offset", async () => {
    const { events, User } = listen();
    expect(await User.offset(4).exists()).toBe(true);
    expect(await User.select("age").distinct().exists()).toBe(true);
    expect(await User.select("age").distinct().offset(3).exists()).toBe(true);
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT 1 AS "recordflare_one" FROM "users" LIMIT 1 OFFSET 4`,
      `SELECT DISTINCT 1 AS "recordflare_one" FROM "users" LIMIT 1`,
      `SELECT DISTINCT "age" FROM "users" LIMIT 1 OFFSET 3`,
    ]);
  });

  it("exists respects offset: nothing past the last row", async () => {
    expect(await User.offset(4).exists()).toBe(true);
    expect(await User.offset(5).exists()).toBe(false);
  });

  it("size, isEmpty and hasAny", async () => {
    expect(await User.size()).toBe(5);
    expect(await User.where({ age: 17 }).size()).toBe(2);
    expect(await User.limit(3).size()).toBe(3);
    expect(await User.isEmpty()).toBe(false);
    expect(await User.hasAny()).toBe(true);
    expect(await User.where({ name: "Nobody" }).size()).toBe(0);
    expect(await User.where({ name: "Nobody" }).isEmpty()).toBe(true);
    expect(await User.where({ name: "Nobody" }).hasAny()).toBe(false);
    expect(await User.where({ age: 17 }).isEmpty()).toBe(false);
    expect(await User.where({ age: 17 }).hasAny()).toBe(true);
  });
});
