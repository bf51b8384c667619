/**
 * Edge cases of SPEC.md's "Casting of assigned values" (its last paragraph: conditions), "Querying" (both tables and
 * the paginate rules), Record item 8 (printing) and Events item 1 (filtered params) that the other test files do not
 * cover. Tables: test/fixtures/migrations/0014_edge_case_relations.sql (and audit_q_wide of 0012).
 */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  belongsTo,
  between,
  column,
  connect,
  gt,
  gte,
  hasMany,
  ignoringCase,
  IncompatibleRelation,
  IrreversibleOrder,
  lt,
  lte,
  MissingAttribute,
  Model,
  RecordNotFound,
  sql,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { listen, recordingRoundTrips } from "./helpers/queries.js";

beforeEach(resetDatabase);

class Item extends Model({
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

class Kid extends Model({ id: { type: "string", null: false }, parentId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_kids";
  parent = belongsTo(Parent, { foreignKey: "parentId" });
}

class Parent extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_parents";
  kids = hasMany(Kid, { foreignKey: "parentId" });
}

class Num extends Model({ id: "integer", label: "string", n: "integer" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_nums";
}

/** Attributes mapped to other columns with `{ column }`. */
class Mapped extends Model({
  id: { type: "string", null: false },
  title: { type: "string", column: "name" },
  amount: { type: "integer", column: "qty" },
  happenedOn: { type: "datetime", column: "at" },
  secretCode: { type: "string", column: "code" },
}) {
  static override binding = "DB";
  static override tableName = "edge_rel_items";
}

/** A primary key other than id. */
class ByCode extends Model({ id: { type: "string", null: false }, name: "string", code: { type: "string", null: false }, qty: "integer" }) {
  static override binding = "DB";
  static override tableName = "edge_rel_items";
  static override primaryKey = "code";
}

const WIDTH = 99;
const wideColumns = Array.from({ length: WIDTH }, (_, index) => `c${index + 1}`);
/** A 100-column table whose key and one column are filtered. */
class Wide extends Model({ id: { type: "string", null: false }, ...Object.fromEntries(wideColumns.map((name) => [name, "string"])) } as Record<string, "string" | { type: "string"; null: false }>) {
  static override binding = "DB";
  static override tableName = "audit_q_wide";
  static override filterAttributes = ["c50", "id"];
}
const wideValues = (prefix: string) => Object.fromEntries(wideColumns.map((name) => [name, `${prefix}-${name}`]));

//   id  qty   price  flag   at          email  code
//   a   1     1.5    true   2024-01-01  a@x    "10"
//   b   2     2.5    false  2024-02-01  b@x    "2"
//   c   null  null   null   null        null   null
//   d   3     3.5    true   2024-03-01  d@x    "3"
async function seed(): Promise<void> {
  await Item.insertAll([
    { id: "a", name: "a", email: "a@x", qty: 1, price: 1.5, flag: true, at: "2024-01-01", code: "10" },
    { id: "b", name: "b", email: "b@x", qty: 2, price: 2.5, flag: false, at: "2024-02-01", code: "2" },
    { id: "c", name: "c", email: null, qty: null, price: null, flag: null, at: null, code: null },
    { id: "d", name: "d", email: "d@x", qty: 3, price: 3.5, flag: true, at: "2024-03-01", code: "3" },
  ]);
}
const ALL = ["a", "b", "c", "d"];
/** Ids of the matching rows, sorted. */
const ids = async (relation: { pluck(name: "id"): Promise<unknown[]> }) => (await relation.pluck("id")).map(String).sort();
const shown = (event: { params: readonly unknown[] }) => JSON.stringify(event.params);
const both = (value: unknown) => [String(value), inspect(value)];

// ---- Casting of assigned values: conditions -------------------------------------------------------------

describe("conditions are cast: an uncastable value matches nothing, and its negation excludes nothing", () => {
  it("for every kind of refused value, where matches nothing and whereNot keeps every row (NULLs too)", async () => {
    await seed();
    const refused: [string, Record<string, unknown>][] = [
      ["unsafe integer", { qty: 2 ** 53 }],
      ["unsafe integer text", { qty: "9007199254740993" }],
      ["1.5 for integer", { qty: 1.5 }],
      ["1e3 for integer", { qty: "1e3" }],
      ["boolean for integer", { qty: true }],
      ["empty string", { qty: "" }],
      ["Infinity text for real", { price: "Infinity" }],
      ["spaces around a real", { price: " 1.5" }],
      ["NaN", { price: NaN }],
      ["nonexistent day", { at: "2024-02-30" }],
      ["time without offset", { at: "2024-01-01T00:00:00" }],
      ["lowercase t", { at: "2024-01-01t00:00:00Z" }],
      ["number for datetime", { at: 0 }],
      ["invalid Date", { at: new Date("x") }],
      ["yes for boolean", { flag: "yes" }],
      ["2 for boolean", { flag: 2 }],
      ["boolean for string", { code: true }],
      ["Date for string", { code: new Date("2024-01-01T00:00:00Z") }],
      ["NaN for string", { code: NaN }],
      ["object for integer", { qty: { a: 1 } }],
      ["a plain copy of a comparison", { qty: JSON.parse(JSON.stringify(gt(1))) }],
    ];
    for (const [label, condition] of refused) {
      expect(await Item.where(condition as never).count(), label).toBe(0);
      expect(await ids(Item.whereNot(condition as never)), label).toEqual(ALL);
    }
  });

  it("an uncastable comparison, between end or ignoringCase value: nothing matches, the negation excludes nothing", async () => {
    await seed();
    expect(await Item.where({ qty: between(1, "x" as never) }).count()).toBe(0);
    expect(await ids(Item.whereNot({ qty: between("x" as never, 3) }))).toEqual(ALL);
    expect(await ids(Item.whereNot({ qty: gt("abc") }))).toEqual(ALL);
    expect(await Item.where({ name: ignoringCase(new Date() as never) }).count()).toBe(0);
    expect(await ids(Item.whereNot({ name: ignoringCase(new Date() as never) }))).toEqual(ALL);
  });

  it("with several keys, one uncastable value makes the whole condition match nothing", async () => {
    await seed();
    expect(await Item.where({ name: "a", qty: "x" }).count()).toBe(0);
    expect(await ids(Item.whereNot({ name: "a", qty: "x" }))).toEqual(ALL);
  });

  it("combined with or, merge and whereNot, an uncastable side is a condition that matches nothing", async () => {
    await seed();
    expect(await ids(Item.where({ qty: "abc" }).or(Item.where({ name: "b" })))).toEqual(["b"]);
    expect(await ids(Item.where({ name: "b" }).or(Item.where({ qty: "abc" })))).toEqual(["b"]);
    expect(await ids(Item.whereNot({ qty: "x" }).or(Item.where({ name: "a" })))).toEqual(ALL);
    expect(await ids(Item.where({ name: "a" }).or(Item.whereNot({ qty: "x" })))).toEqual(ALL);
    expect(await Item.where({ name: "a" }).merge(Item.where({ qty: "x" })).count()).toBe(0);
    expect(await Item.where({ qty: "x" }).merge(Item.where({ name: "a" })).count()).toBe(0);
    expect(await ids(Item.where({ qty: "x" }).whereNot({ qty: "y" }))).toEqual([]);
  });

  it("in lists, uncastable values of every type are dropped", async () => {
    await seed();
    expect(await ids(Item.where({ name: [true, "a", new Date()] as never }))).toEqual(["a"]);
    expect(await ids(Item.where({ qty: [2 ** 53, 1, ["2"]] as never }))).toEqual(["a"]);
    expect(await ids(Item.where({ at: ["2024-01-01", new Date("2024-02-01T00:00:00Z"), "bad"] }))).toEqual(["a", "b"]);
    expect(await ids(Item.where({ flag: [true, "off", "maybe"] as never }))).toEqual(["a", "b", "d"]);
    expect(await ids(Item.where({ price: ["1.5", 3.5, "x"] }))).toEqual(["a", "d"]);
    expect(await ids(Item.where({ qty: ["x", null] }))).toEqual(["c"]);
    expect(await ids(Item.whereNot({ qty: ["x", null] }))).toEqual(["a", "b", "d"]);
  });

  it("find, findBy and findByOrThrow with uncastable values", async () => {
    await Num.insertAll([{ label: "x", n: 1 }]);
    await expect(Num.find("1x")).rejects.toThrow(RecordNotFound);
    await expect(Num.find(1, "x")).rejects.toThrow(RecordNotFound);
    await expect(Num.findByOrThrow({ n: "x" })).rejects.toThrow(RecordNotFound);
    expect(await Num.findBy({ id: "x" })).toBeNull();
    expect((await Num.find(" 1 ")).label).toBe("x");
    await expect(Item.find(new Date() as never)).rejects.toThrow(RecordNotFound);
    await expect(Item.find(["a", true] as never)).rejects.toThrow(RecordNotFound);
  });

  it("a number on a string attribute is read as its digits in comparisons, negations, ignoringCase, find and create", async () => {
    await seed();
    expect(Item.where({ code: gt(2) }).toSql().params).toEqual(["2"]);
    expect(await ids(Item.where({ code: 10 }))).toEqual(["a"]);
    expect(await ids(Item.whereNot({ code: 10 }))).toEqual(["b", "d"]);
    expect(await ids(Item.where({ code: between(2, 3) }))).toEqual(["b", "d"]);
    expect(await ids(Item.where({ code: ignoringCase(10 as never) }))).toEqual(["a"]);
    await expect(Item.find(10 as never)).rejects.toThrow(RecordNotFound);
    const created = await Item.where({ code: 8 }).create({ id: "y" });
    expect(created.code).toBe("8");
    expect((await Item.find("y")).code).toBe("8");
  });

  it("a record built from a merged Relation or an association Relation starts with the cast condition values", async () => {
    const built = Item.where({ code: 1 }).merge(Item.where({ name: "x", qty: "2" })).build({ id: "m" });
    expect([built.code, built.name, built.qty]).toEqual(["1", "x", 2]);
    const parent = await Parent.create({ id: "p" });
    const kid = parent.kids().where({ name: 7 }).build({ id: "k" });
    expect([kid.name, kid.parentId]).toEqual(["7", "p"]);
    expect(Mapped.where({ title: 5 }).build({ id: "z" }).title).toBe("5");
  });
});

// ---- Querying -----------------------------------------------------------------------------------------

describe("Querying: conditions", () => {
  it("whereNot excludes NULLs for string, datetime, boolean, real, json, ignoringCase, lists and comparisons", async () => {
    await seed();
    await Item.where({ id: "a" }).updateAll({ data: { k: 1 } });
    await Item.where({ id: "b" }).updateAll({ data: { k: 2 } });
    expect(await ids(Item.whereNot({ email: "a@x" }))).toEqual(["b", "d"]);
    expect(await ids(Item.whereNot({ email: ignoringCase("A@X") }))).toEqual(["b", "d"]);
    expect(await ids(Item.whereNot({ at: "2024-01-01" }))).toEqual(["b", "d"]);
    expect(await ids(Item.whereNot({ flag: true }))).toEqual(["b"]);
    expect(await ids(Item.whereNot({ price: lt(2) }))).toEqual(["b", "d"]);
    expect(await ids(Item.whereNot({ data: { k: 1 } }))).toEqual(["b"]);
    expect(await ids(Item.whereNot({ at: between("2024-01-01", "2024-02-01") }))).toEqual(["d"]);
    expect(await ids(Item.whereNot({ at: between("2024-01-01", "2024-02-01", { excludeEnd: true }) }))).toEqual(["b", "d"]);
    expect(await ids(Item.whereNot({ code: gte("2") }))).toEqual(["a"]);
    expect(await ids(Item.whereNot({ qty: [1], name: ["a", "b"] }))).toEqual(["b", "d"]);
  });

  it("or keeps each side whole: whereNot's NULL exclusion stays inside its side; later conditions apply to both", async () => {
    await seed();
    expect(await ids(Item.whereNot({ qty: 1 }).or(Item.where({ name: "a" })))).toEqual(["a", "b", "d"]);
    expect(await ids(Item.where({ name: "zz" }).or(Item.whereNot({ qty: 1 })))).toEqual(["b", "d"]);
    expect(await ids(Item.where({ name: "a" }).or(Item.whereNot({ qty: [1, 2] })))).toEqual(["a", "d"]);
    const ab = Item.where({ name: "a" }).or(Item.where({ name: "b" }));
    expect(await ids(ab.whereNot({ qty: 2 }))).toEqual(["a"]);
  });

  it("or refuses a Relation with other includes (it must differ only in conditions)", () => {
    expect(() => Parent.where({ name: "a" }).or(Parent.where({ name: "b" }).includes("kids"))).toThrow(IncompatibleRelation);
  });

  it("comparisons on datetime attributes with text, offsets and Dates; on reals with excludeEnd; reversed between is empty", async () => {
    await seed();
    expect(await ids(Item.where({ at: gt("2024-01-01T00:00:00Z") }))).toEqual(["b", "d"]);
    expect(await ids(Item.where({ at: gte("2024-01-01T01:00:00+01:00") }))).toEqual(["a", "b", "d"]);
    expect(await ids(Item.where({ at: lte(new Date("2024-02-01T00:00:00Z")) }))).toEqual(["a", "b"]);
    expect(await ids(Item.where({ at: lt("2024-02-01") }))).toEqual(["a"]);
    expect(await ids(Item.where({ at: between("2024-02-01", "2024-01-01") }))).toEqual([]);
    expect(await ids(Item.where({ price: between(1.5, 3.5, { excludeEnd: true }) }))).toEqual(["a", "b"]);
    expect(await ids(Item.where({ qty: gt(" 1 ") }))).toEqual(["b", "d"]);
  });

  it("attributes mapped to other columns work in where, order with nulls, select, distinct, sql column(), first/last, paginate", async () => {
    await seed();
    expect(await Mapped.where({ amount: gt(1) }).order({ title: { direction: "desc", nulls: "last" } }).pluck("title")).toEqual(["d", "b"]);
    expect(await Mapped.select("amount").distinct().count()).toBe(4);
    expect(await Mapped.where(sql`${column("amount")} > ${1}`).count()).toBe(2);
    expect((await Mapped.order({ happenedOn: "desc" }).first())!.title).toBe("d");
    expect((await Mapped.order({ happenedOn: "desc" }).last())!.title).toBe("c");
    expect((await Mapped.order({ amount: "desc" }).paginate({ perPage: 3 })).records.map((r) => r.title)).toEqual(["d", "b", "a"]);
    const [partial] = await Mapped.select("title").where({ id: "a" }).toArray();
    expect(partial!.title).toBe("a");
    expect(() => partial!.amount).toThrow(MissingAttribute);
    expect(String(partial)).toBe(`#<Mapped id: "a", title: "a", amount: (changed), happenedOn: (changed), secretCode: (changed)>`);
  });
});

describe("Querying: sql values keep their places through merge, or, find, count, paginate and updateAll", () => {
  const equals = (n: number) => sql`${column("qty")} = ${n}`;

  it("sql fragments with bound values in both where and order", async () => {
    await seed();
    const merged = Item.where(sql`${column("qty")} >= ${1}`)
      .order(sql`${equals(3)} DESC`)
      .merge(Item.where(sql`${column("qty")} <= ${3}`).order(sql`${equals(2)} DESC`));
    expect(merged.toSql()).toEqual({
      sql: `SELECT * FROM "edge_rel_items" WHERE ("qty" >= ?) AND ("qty" <= ?) ORDER BY "qty" = ? DESC`,
      params: [1, 3, 2],
    });
    expect((await merged.toArray())[0]!.id).toBe("b");
    expect(await merged.count()).toBe(3);
    expect(await merged.limit(2).count()).toBe(2);
    expect(await merged.offset(1).count()).toBe(2);
    expect(await merged.size()).toBe(3);
    expect((await merged.first())!.id).toBe("b");
    expect((await merged.find("d")).id).toBe("d");
    expect((await merged.findBy({ name: "a" }))!.id).toBe("a");
    expect(await merged.exists({ name: "a" })).toBe(true);
    expect((await merged.pluck("id"))[0]).toBe("b");
    const page = await merged.paginate({ perPage: 1 });
    expect([page.total, page.records[0]!.id]).toEqual([3, "b"]);
    expect(await merged.select("qty").distinct().count()).toBe((await merged.select("qty").distinct().toArray()).length);

    const either = Item.where(sql`${column("qty")} >= ${2}`).or(Item.where(sql`${column("qty")} = ${1}`)).order(sql`${equals(1)} DESC`);
    expect((await either.toArray())[0]!.id).toBe("a");
    expect(await either.count()).toBe(3);
    expect(await either.whereNot(sql`${column("qty")} = ${2}`).count()).toBe(2);

    expect(await Item.where(sql`${column("qty")} >= ${2}`).order(sql`${equals(3)} DESC`).limit(1).updateAll({ name: "top" })).toBe(1);
    expect((await Item.find("d")).name).toBe("top");
  });
});

describe("Querying: shape", () => {
  it("merge joins or-conditions with AND, keeps both conditions on one attribute, and takes the argument's offset and distinct", async () => {
    await seed();
    const ab = Item.where({ name: "a" }).or(Item.where({ name: "b" }));
    expect(await ids(ab.merge(Item.where({ qty: 2 })))).toEqual(["b"]);
    expect(await ids(Item.where({ qty: 2 }).merge(ab))).toEqual(["b"]);
    expect(await ids(Item.whereNot({ qty: 1 }).merge(ab))).toEqual(["b"]);
    expect(await ids(Item.where({ qty: 1 }).merge(Item.where({ qty: 2 })))).toEqual([]);
    const replaced = Item.order({ name: "desc" }).limit(1).offset(1).select("name").merge(Item.order({ qty: "asc" }).limit(2).offset(2).select("qty"));
    expect(replaced.toSql().sql).toBe(`SELECT "id", "qty" FROM "edge_rel_items" ORDER BY "qty" ASC LIMIT 2 OFFSET 2`);
    expect(Item.all().merge(Item.select("name").distinct()).toSql().sql).toBe(`SELECT DISTINCT "name" FROM "edge_rel_items"`);
    expect((await Item.order(sql`${column("name")} DESC`).merge(Item.order({ name: "asc" })).last())!.id).toBe("d");
  });

  it("a partial record serializes only its loaded attributes; first, last and find keep the select", async () => {
    await seed();
    const [partial] = await Item.select("name").where({ id: "a" }).toArray();
    expect(partial!.toJSON()).toEqual({ id: "a", name: "a" });
    expect(await Item.select("name").count()).toBe(4);
    const found = await Item.select("name").find("b");
    expect(() => found.qty).toThrow(MissingAttribute);
    expect((await Item.select("name").last())!.id).toBe("d");
  });

  it("distinct partial records: first, last, pluck and count under limit/offset agree with toArray", async () => {
    await seed();
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
    await seed();
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

describe("Querying: results", () => {
  // As Rails makes the ids unique (ids.uniq), each record comes once, in the order of its first id.
  it("find([ids]) with repeated ids (also the same integer key as text and number) does not throw; each record once", async () => {
    await Num.insertAll([{ label: "a" }, { label: "b" }]);
    expect((await Num.find(["1", 1])).map((r) => r.id)).toEqual([1]);
    expect((await Num.find([2, 2, 1])).map((r) => r.id)).toEqual([2, 1]);
    expect((await Num.find(2, "2")).map((r) => r.id)).toEqual([2]);
  });

  it("pluck reads json, datetime and boolean values; an unknown name rejects", async () => {
    await seed();
    await Item.insert({ id: "e", data: { k: [1] } });
    expect(await Item.where({ id: "e" }).pluck("data")).toEqual([{ k: [1] }]);
    expect(await Item.order({ id: "asc" }).limit(2).pluck("id", "at", "flag")).toEqual([
      ["a", new Date("2024-01-01T00:00:00Z"), true],
      ["b", new Date("2024-02-01T00:00:00Z"), false],
    ]);
    await expect(Item.pluck("nope" as never)).rejects.toThrow();
  });

  it("size, isEmpty and hasAny under offset and limit(0)", async () => {
    await seed();
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

// ---- paginate ------------------------------------------------------------------------------------------

describe("paginate", () => {
  const fill = () => Num.insertAll(Array.from({ length: 30 }, (_, i) => ({ label: `l${i + 1}`, n: i % 3 === 0 ? null : i % 4 })));

  it("rule 1: padded and zero-led text is a whole number; other text and unsafe numbers throw TypeError", async () => {
    await fill();
    expect((await Num.paginate({ page: " 2 ", perPage: "5" })).records.map((r) => r.id)).toEqual([6, 7, 8, 9, 10]);
    expect((await Num.paginate({ page: "02", perPage: "05" })).page).toBe(2);
    for (const bad of ["1e1", "2.0", " ", "0x2", 1e21, "99999999999999999999", Number.MAX_SAFE_INTEGER + 1]) {
      await expect(Num.paginate({ page: bad as never }), String(bad)).rejects.toThrow(TypeError);
    }
    const far = await Num.paginate({ page: Number.MAX_SAFE_INTEGER, perPage: 100 });
    expect([far.records.length, far.total]).toEqual([0, 30]);
  });

  it("rule 2: an order with nulls, or an sql order, then the primary key: pages cover every row once", async () => {
    await fill();
    const byNulls = Num.order({ n: { direction: "desc", nulls: "first" } });
    const expected = await byNulls.order({ id: "asc" }).pluck("id");
    const seen: number[] = [];
    for (let page = 1; page <= 6; page++) seen.push(...(await byNulls.paginate({ page, perPage: 5 })).records.map((r) => r.id as number));
    expect(seen).toEqual(expected);
    const bySql = Num.order(sql`${column("n")} IS NULL DESC`);
    const sqlSeen: number[] = [];
    for (let page = 1; page <= 8; page++) sqlSeen.push(...(await bySql.paginate({ page, perPage: 4, count: false })).records.map((r) => r.id as number));
    expect(sqlSeen.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("rule 2 with distinct: pages never overlap", async () => {
    await Num.insertAll([5, 3, 5, 1, 3, 5, 2, 1, 4, 2, 5].map((n) => ({ n })));
    const relation = Num.select("n").distinct();
    const seen: unknown[] = [];
    for (let page = 1; page <= 3; page++) seen.push(...(await relation.paginate({ page, perPage: 2 })).records.map((r) => r.n));
    expect(seen.slice().sort()).toEqual([1, 2, 3, 4, 5]);
    const ordered: unknown[] = [];
    for (let page = 1; page <= 3; page++) ordered.push(...(await relation.order({ n: "desc" }).paginate({ page, perPage: 2 })).records.map((r) => r.n));
    expect(ordered).toEqual([5, 4, 3, 2, 1]);
  });

  it("rule 4: a distinct, ordered page is one round trip; an sql order's values are not sent with the count", async () => {
    await fill();
    const { binding, roundTrips } = recordingRoundTrips();
    const page = await connect(binding).model(Num).select("n").distinct().order({ n: "asc" }).paginate({ perPage: 2, page: 2 });
    expect(roundTrips).toHaveLength(1);
    expect(page.total).toBe(5);
    expect(page.records.map((r) => r.n)).toEqual([1, 2]);
    const { db, events } = listen();
    const bySql = await db.model(Num).order(sql`${column("n")} = ${1} DESC`).paginate({ perPage: 4 });
    expect(bySql.total).toBe(30);
    expect(events.map((event) => event.params)).toEqual([[], [1]]);
  });

  it("rules 4 and 5: count: false with includes is the page and a query per association, in one batch", async () => {
    await Parent.insertAll([{ id: "p1" }, { id: "p2" }]);
    await Kid.insertAll([{ id: "k1", parentId: "p1" }]);
    const { db, events } = listen();
    const page = await db.model(Parent).includes("kids").paginate({ count: false, perPage: 1 });
    expect(events.map((event) => event.batched)).toEqual([true, true]);
    expect(page.hasNext).toBe(true);
    expect("total" in page).toBe(false);
    expect(await page.records[0]!.kids().size()).toBe(1);
    expect(events).toHaveLength(2);
  });

  it("rule 6 through merge of an offset(0); rule 7 with text", async () => {
    await expect(Num.all().merge(Num.offset(0)).paginate()).rejects.toThrow(IncompatibleRelation);
    await fill();
    expect((await Num.paginate({ perPage: "101" })).perPage).toBe(100);
    const page = await Num.paginate({ page: 2, perPage: 7 });
    expect({ ...page, records: page.records.length }).toEqual({ records: 7, page: 2, perPage: 7, total: 30, totalPages: 5, hasNext: true, hasPrevious: true });
  });
});

// ---- Record item 8: printing ---------------------------------------------------------------------------

describe("printing (Record 8), in String() and util.inspect", () => {
  it("(was null), a changed Date, a Date edited in place, a filtered attribute set from null", async () => {
    await seed();
    const c = await Item.find("c");
    c.qty = 5;
    c.at = "2024-05-05" as never;
    c.email = "c@x";
    for (const text of both(c)) {
      expect(text).toBe(`#<Item id: "c", name: "c", email: [FILTERED] (changed), qty: 5 (was null), price: null, flag: null, at: 2024-05-05T00:00:00.000Z (was null), code: null, data: null>`);
    }
    const a = await Item.find("a");
    a.at!.setUTCFullYear(2000);
    for (const text of both(a)) expect(text).toContain("at: 2000-01-01T00:00:00.000Z (was 2024-01-01T00:00:00.000Z)");
  });

  it("flags nothing after a change reverted, after a save, after a reload", async () => {
    await seed();
    const a = await Item.find("a");
    a.name = "zz";
    a.name = "a";
    for (const text of both(a)) expect(text).not.toMatch(/\(was|\(changed\)/);
    const b = await Item.find("b");
    b.name = "bb";
    await b.save();
    for (const text of both(b)) expect(text).not.toMatch(/\(was|\(changed\)/);
    const d = await Item.find("d");
    d.name = "q";
    await d.reload();
    for (const text of both(d)) expect(text).not.toMatch(/\(was|\(changed\)/);
  });

  it("a partial record: (was) for a changed loaded attribute, (changed) for each unloaded one, the key too after distinct", async () => {
    await seed();
    const [partial] = await Item.select("name").where({ id: "a" }).toArray();
    partial!.name = "A";
    for (const text of both(partial)) {
      expect(text).toBe(`#<Item id: "a", name: "A" (was "a"), email: (changed), qty: (changed), price: (changed), flag: (changed), at: (changed), code: (changed), data: (changed)>`);
    }
    const [distinct] = await Item.select("qty").distinct().where({ qty: 1 }).toArray();
    for (const text of both(distinct)) {
      expect(text).toBe(`#<Item id: (changed), name: (changed), email: (changed), qty: 1, price: (changed), flag: (changed), at: (changed), code: (changed), data: (changed)>`);
    }
  });

  it("a new record flags nothing, even after assignments, also when built from a Relation or nested in an array", () => {
    const fresh = Item.build({ id: "n", name: "x", email: "e@x" });
    fresh.name = "y";
    fresh.email = "f@x";
    const expected = `#<Item id: "n", name: "y", email: [FILTERED], qty: null, price: null, flag: null, at: null, code: null, data: null>`;
    for (const text of both(fresh)) expect(text).toBe(expected);
    expect(inspect([fresh])).toContain(expected);
    for (const text of both(Item.where({ name: "r", qty: "3" }).build({ id: "r1" }))) {
      expect(text).toBe(`#<Item id: "r1", name: "r", email: [FILTERED], qty: 3, price: null, flag: null, at: null, code: null, data: null>`);
    }
  });

  it("a Relation shows SQL and params of every kind, filtered ones hidden; sql fragment values shown", () => {
    const { db, events } = listen();
    const relation = db
      .model(Item)
      .where({ at: gt(new Date("2024-01-01T00:00:00Z")), flag: true, name: ["a", null], email: "e@x", qty: between(1, 2) })
      .order({ name: { direction: "desc", nulls: "last" } })
      .limit(3)
      .offset(1)
      .select("name")
      .distinct();
    for (const text of both(relation)) {
      expect(text).toBe(
        `#<Relation Item SELECT DISTINCT "name" FROM "edge_rel_items" WHERE "at" > ? AND "flag" = ? AND ("name" IN (SELECT value FROM json_each(?)) OR "name" IS NULL) AND "email" = ? AND "qty" >= ? AND "qty" <= ? ORDER BY "name" DESC NULLS LAST LIMIT 3 OFFSET 1 ["2024-01-01T00:00:00.000Z",1,"[\\"a\\"]","[FILTERED]",1,2]>`,
      );
    }
    for (const text of both(db.model(Item).where({ qty: "abc" }))) expect(text).toBe(`#<Relation Item SELECT * FROM "edge_rel_items" WHERE 1 = 0 []>`);
    for (const text of both(db.model(Item).where(sql`${column("email")} = ${"s@x"}`))) expect(text).toContain(`["s@x"]`);
    expect(inspect({ r: db.model(Item).where({ qty: 1 }) })).toContain(`#<Relation Item SELECT * FROM "edge_rel_items" WHERE "qty" = ? [1]>`);
    expect(events).toHaveLength(0);
  });

  it("never loads an association, even with util.inspect's getters and showHidden", async () => {
    const { db, events } = listen();
    await db.model(Parent).insertAll([{ id: "p1", name: "p" }]);
    await db.model(Kid).insertAll([{ id: "k1", parentId: "p1" }]);
    const kid = await db.model(Kid).find("k1");
    const parent = await db.model(Parent).find("p1");
    events.length = 0;
    const texts = [...both(kid), ...both(parent), inspect(kid, { getters: true, showHidden: true, depth: 10 }), inspect(parent, { getters: true, showHidden: true, depth: 10 })];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toHaveLength(0);
    expect(texts[0]).toBe(`#<Kid id: "k1", parentId: "p1", name: null>`);
    const loaded = await db.model(Parent).includes("kids").find("p1");
    for (const text of both(loaded)) expect(text).toBe(`#<Parent id: "p1", name: "p">`);
  });

  it("errors list each failure, two on one attribute included; no failure prints empty", async () => {
    class Checked extends Item {
      static {
        this.validates("name", { presence: true, length: { minimum: 3 } });
        this.validates("email", { presence: true });
      }
    }
    const invalid = Checked.build({ id: "v", name: "" });
    expect(await invalid.save()).toBe(false);
    expect(String(invalid.errors)).toBe("Name can't be blank, Name is too short, Email can't be blank");
    expect(inspect(invalid.errors)).toBe(`Errors ["Name can't be blank", "Name is too short", "Email can't be blank"]`);
    const valid = Checked.build({ id: "w", name: "abcd", email: "x" });
    expect(await valid.save()).toBe(true);
    expect(inspect(valid.errors)).toBe("Errors []");
  });

  it("hidden attributes print in util.inspect too", () => {
    class Hidden extends Item {
      static override hiddenAttributes = ["code"];
    }
    const record = Hidden.build({ id: "h", code: "SEEN" });
    for (const text of both(record)) expect(text).toContain(`code: "SEEN"`);
    expect(JSON.stringify(record)).not.toContain("SEEN");
  });
});

// ---- Events 1: [FILTERED] ------------------------------------------------------------------------------

describe("query events show filtered values as [FILTERED]", () => {
  it("between ends, lists with null, negated comparisons, merge, first/last/take, a number on a string, or, exists, paginate", async () => {
    await seed();
    const { db, events } = listen();
    const Items = db.model(Item);
    await Items.where({ email: between("a@x", "c@x") }).toArray();
    await Items.where({ email: between("a@x", "c@x", { excludeEnd: true }) }).count();
    await Items.where({ email: ["a@x", null] }).toArray();
    await Items.whereNot({ email: lte("b@x") }).toArray();
    await Items.where({ name: "a" }).merge(Items.where({ email: "a@x" })).first();
    await Items.where({ email: "a@x" }).last();
    await Items.where({ email: "a@x" }).take();
    await Items.findBy({ email: 12345 });
    await Items.where({ email: gte("a@x") }).or(Items.where({ email: lt("b@x") })).pluck("id");
    await Items.where({ email: "a@x" }).offset(1).exists();
    await Items.where({ email: "a@x" }).paginate({ count: false });
    expect(events).toHaveLength(11);
    for (const event of events) {
      expect(shown(event), event.sql).toContain("[FILTERED]");
      expect(shown(event), event.sql).not.toMatch(/[abc]@x|12345/);
    }
  });

  it("subquery forms: count under limit or distinct, updateAll and deleteAll on an ordered, limited Relation", async () => {
    await seed();
    const { db, events } = listen();
    const Items = db.model(Item);
    await Items.where({ email: "a@x" }).limit(1).count();
    await Items.where({ email: "a@x" }).select("qty").distinct().count();
    await Items.where({ email: "b@x" }).order({ id: "asc" }).limit(1).updateAll({ email: "z@x" });
    await Items.where({ email: "z@x" }).order({ id: "asc" }).limit(1).offset(0).deleteAll();
    expect(events).toHaveLength(4);
    for (const event of events) expect(shown(event), event.sql).not.toMatch(/[abz]@x/);
    expect(events[2]!.params).toEqual(["[FILTERED]", "[FILTERED]"]);
  });

  it("a record created from a filtered condition, its update, and batched toSave/toUpdateAll/toDeleteAll", async () => {
    const { db, events } = listen();
    const record = await db.model(Item).where({ email: "q@x" }).create({ id: "q" });
    await record.update({ email: "r@x" });
    record.email = "t@x";
    await db.batch([record.toSave(), db.model(Item).where({ email: "t@x" }).toUpdateAll({ email: "s@x" }), db.model(Item).where({ email: ["s@x"] }).toDeleteAll()]);
    expect(events).toHaveLength(5);
    for (const event of events) expect(shown(event), event.sql).not.toMatch(/[qrst]@x/);
  });

  it("upsert, upsertAll, insert and batched toInsertAll/toUpsertAll rows", async () => {
    const { db, events } = listen();
    await db.model(Item).upsertAll([{ id: "u1", email: "u1@x" }, { id: "u2", email: "u2@x" }]);
    await db.model(Item).upsert({ id: "u3", email: "u3@x" });
    await db.model(Item).insert({ id: "u4", email: "u4@x" });
    await db.batch([db.model(Item).toInsertAll([{ id: "u5", email: "u5@x" }]), db.model(Item).toUpsertAll([{ id: "u6", email: "u6@x" }])]);
    expect(events).toHaveLength(5);
    for (const event of events) expect(shown(event), event.sql).not.toMatch(/u\d@x/);
  });

  it("json, datetime, boolean and integer attributes when filtered", async () => {
    class Secretive extends Item {
      static override filterAttributes = ["data", "at", "flag", "qty"];
    }
    const { db, events } = listen();
    const Secrets = db.model(Secretive);
    await Secrets.insertAll([{ id: "s1", data: { k: "SECRET1" }, at: "2001-01-01", flag: true, qty: 777 }]);
    const record = await Secrets.create({ id: "s2", data: { k: "SECRET2" }, at: "2002-02-02", flag: false, qty: 778 });
    record.data = { k: "SECRET3" };
    record.qty = 779;
    await record.save();
    await Secrets.where({ data: { k: "SECRET3" }, at: gt("2000-01-01"), qty: [779, 780] }).toArray();
    await Secrets.where({ qty: 779 }).updateAll({ data: ["SECRET4"], qty: 781 });
    expect(events).toHaveLength(5);
    for (const event of events) expect(shown(event), event.sql).not.toMatch(/SECRET|2001|2002|77\d|78\d/);
  });

  it("a 100-column table: record insert and update, updateAll, upsertAll, reload, destroy", async () => {
    const { db, events } = listen();
    const Wides = db.model(Wide) as any;
    const record = Wides.build({ id: "wide-secret-id", ...wideValues("a") });
    await record.save();
    record.assign(wideValues("b"));
    await record.save();
    await Wides.where({ id: "wide-secret-id", c1: "b-c1" }).updateAll(wideValues("c"));
    await Wides.upsertAll([{ id: "wide-secret-id", ...wideValues("d") }]);
    await Wides.insertAll([{ id: "wide-secret-2", ...wideValues("e") }]);
    await record.reload();
    await record.destroy();
    expect(events).toHaveLength(7);
    for (const event of events) expect(event.params.length).toBeLessThanOrEqual(100);
    for (const event of events) {
      expect(shown(event), event.sql.slice(0, 40)).not.toMatch(/[a-e]-c50\\?"/);
      expect(shown(event), event.sql.slice(0, 40)).not.toMatch(/wide-secret/);
    }
  });
});
