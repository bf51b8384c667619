/** A Relation's conditions: where, whereNot, or, comparison helpers and sql fragments, cast like assigned values. */
import { beforeEach, describe, expect, it } from "vitest";
import { between, CastError, gt, gte, ignoringCase, lt, lte, Model, RecordNotFound, MissingAttribute, IncompatibleRelation, sql, column, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item as OwnedItem, seedOwnedItemsSeen, seedOwnedItems } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";
import { thrown } from "../helpers/errors.js";
import { inspect } from "node:util";
import { Post, User } from "../models/fixtures.js";
import { AuditItem } from "../models/audit-items.js";
import { Item, Parent, Num, seedItems } from "../models/edge-relation-items.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

const idsInOrder = async (relation: any): Promise<string[]> => (await relation.toArray()).map((record: any) => record.id);

describe("comparison helpers: 'for number, string and datetime attributes'", () => {
  it("datetime with strings and Dates, between with excludeEnd", async () => {
    await seedOwnedItemsSeen();
    expect(await idsInOrder(I.where({ seenAt: gt("2024-01-01T00:00:00Z") }).order({ id: "asc" }))).toEqual(["b", "c"]);
    expect(await idsInOrder(I.where({ seenAt: gte("2024-01-02") }).order({ id: "asc" }))).toEqual(["b", "c"]);
    expect(await idsInOrder(I.where({ seenAt: lt(new Date("2024-01-02T00:00:00Z")) }))).toEqual(["a"]);
    expect(await idsInOrder(I.where({ seenAt: lte("2024-01-02T01:00:00+01:00") }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await idsInOrder(I.where({ seenAt: between("2024-01-01", "2024-01-03") }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await idsInOrder(I.where({ seenAt: between("2024-01-01", "2024-01-03", { excludeEnd: true }) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await idsInOrder(I.where({ rank: between(1, 3, { excludeEnd: true }) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await idsInOrder(I.where({ name: between("x", "y", { excludeEnd: true }) }))).toEqual(["a"]);
    expect(await idsInOrder(I.whereNot({ rank: between(1, 2) }))).toEqual(["c"]);
    expect(await idsInOrder(I.whereNot({ seenAt: gt("2024-01-01") }))).toEqual(["a"]);
    expect(I.where({ rank: between(1, 3, { excludeEnd: true }) }).toSql()).toEqual({
      sql: `SELECT * FROM "saq_items" WHERE "rank" >= ?1 AND "rank" < ?2`,
      params: [1, 3],
    });
  });

  it("ignoringCase with where, whereNot, a list and or", async () => {
    await seedOwnedItemsSeen();
    expect(await idsInOrder(I.where({ name: ignoringCase("X") }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await idsInOrder(I.whereNot({ name: ignoringCase("X") }))).toEqual(["c"]);
    expect(await idsInOrder(I.where({ name: ignoringCase("Y") }).or(I.where({ id: "a" })).order({ id: "asc" }))).toEqual(["a", "c"]);
  });
});

describe("whereNot: 'negates the whole condition; rows with NULL in the attribute are also excluded'", () => {
  it("with null lists, several keys and comparisons", async () => {
    await seedOwnedItemsSeen();
    expect(await idsInOrder(I.whereNot({ rank: [null] }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await idsInOrder(I.whereNot({ rank: [null, 1] }).order({ id: "asc" }))).toEqual(["b", "c"]);
    // (name IN ('x') OR name IS NULL) AND rank = 3 holds for no row; d is excluded for its NULLs.
    expect(await idsInOrder(I.whereNot({ name: ["x", null], rank: 3 }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await idsInOrder(I.whereNot({ rank: gt(2) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await idsInOrder(I.whereNot({ rank: 1, name: "x" }).order({ id: "asc" }))).toEqual(["b", "c"]);
  });
});

describe("Querying: combinations", () => {
  it("a scope chained after where keeps both, and paginate with includes pages it", async () => {
    await seedOwnedItems();
    const { events, Item: Bound } = listen({ models: { Item: OwnedItem } });
    const page = await (Bound as any).where({ ownerId: "o1" }).ranked().includes("owner").paginate({ perPage: 1 });
    expect(page.records.map((r: any) => r.id)).toEqual(["b"]);
    expect(page.total).toBe(2);
    expect(page.records[0].owner.get().name).toBe("one");
    expect(events).toHaveLength(3);
  });

  it("count after distinct + select + limit agrees with toArray()", async () => {
    await seedOwnedItems();
    const relation = I.distinct().select("name").limit(2);
    expect(await relation.count()).toBe((await relation.toArray()).length);
    const offset = I.distinct().select("ownerId").offset(1);
    expect(await offset.count()).toBe((await offset.toArray()).length);
  });
});

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

const ALL = ["a", "b", "c", "d"];

/** Ids of the matching rows, sorted. */
const sortedIds = async (relation: { pluck(name: "id"): Promise<unknown[]> }) => (await relation.pluck("id")).map(String).sort();

const both = (value: unknown) => [String(value), inspect(value)];

// ---- Casting of assigned values: conditions -------------------------------------------------------------

describe("conditions are cast: an uncastable value matches nothing, and its negation excludes nothing", () => {
  it("for every kind of refused value, where matches nothing and whereNot keeps every row (NULLs too)", async () => {
    await seedItems();
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
      expect(await sortedIds(Item.whereNot(condition as never)), label).toEqual(ALL);
    }
  });

  it("an uncastable comparison, between end or ignoringCase value throws CastError naming the Model, attribute and helper, as the Relation is built", async () => {
    await seedItems();
    const refusals: Array<[() => unknown, string]> = [
      [() => Item.where({ qty: gt("abc" as never) }), `Item.qty: "abc" is not a valid integer to compare with (gt)`],
      [() => Item.whereNot({ qty: gte(true as never) }), `Item.qty: true is not a valid integer to compare with (gte)`],
      [() => Item.where({ qty: lt(1.5) }), `Item.qty: 1.5 is not a valid integer to compare with (lt)`],
      [() => Item.where({ price: lte("1e400" as never) }), `Item.price: "1e400" is not a valid real to compare with (lte)`],
      [() => Item.where({ qty: between(1, "x" as never) }), `Item.qty: "x" is not a valid integer to compare with (between)`],
      [() => Item.whereNot({ at: between("2024-13-01", "2025-01-01") }), `Item.at: "2024-13-01" is not a valid datetime to compare with (between)`],
      [() => Item.where({ name: ignoringCase(new Date(0) as never) }), `Item.name: 1970-01-01T00:00:00.000Z is not a valid string to compare with (ignoringCase)`],
      // A filtered attribute's value is not shown.
      [() => Item.where({ email: gt(new Date(0) as never) }), `Item.email: [FILTERED] is not a valid string to compare with (gt)`],
    ];
    for (const [refused, message] of refusals) {
      const error = await thrown(refused);
      expect(error, message).toBeInstanceOf(CastError);
      expect((error as CastError).message).toBe(message);
      expect((error as CastError).model).toBe(Item);
    }
    // null stays SQL's comparison with NULL: it matches nothing, and its negation excludes nothing.
    expect(await Item.where({ qty: gt(null as never) }).count()).toBe(0);
    expect(await sortedIds(Item.whereNot({ qty: between(null as never, 3) }))).toEqual(ALL);
  });

  it("with several keys, one uncastable value makes the whole condition match nothing", async () => {
    await seedItems();
    expect(await Item.where({ name: "a", qty: "x" }).count()).toBe(0);
    expect(await sortedIds(Item.whereNot({ name: "a", qty: "x" }))).toEqual(ALL);
  });

  it("combined with or, merge and whereNot, an uncastable side is a condition that matches nothing", async () => {
    await seedItems();
    expect(await sortedIds(Item.where({ qty: "abc" }).or(Item.where({ name: "b" })))).toEqual(["b"]);
    expect(await sortedIds(Item.where({ name: "b" }).or(Item.where({ qty: "abc" })))).toEqual(["b"]);
    expect(await sortedIds(Item.whereNot({ qty: "x" }).or(Item.where({ name: "a" })))).toEqual(ALL);
    expect(await sortedIds(Item.where({ name: "a" }).or(Item.whereNot({ qty: "x" })))).toEqual(ALL);
    expect(await Item.where({ name: "a" }).merge(Item.where({ qty: "x" })).count()).toBe(0);
    expect(await Item.where({ qty: "x" }).merge(Item.where({ name: "a" })).count()).toBe(0);
    expect(await sortedIds(Item.where({ qty: "x" }).whereNot({ qty: "y" }))).toEqual([]);
  });

  it("in lists, uncastable values of every type are dropped", async () => {
    await seedItems();
    expect(await sortedIds(Item.where({ name: [true, "a", new Date()] as never }))).toEqual(["a"]);
    expect(await sortedIds(Item.where({ qty: [2 ** 53, 1, ["2"]] as never }))).toEqual(["a"]);
    expect(await sortedIds(Item.where({ at: ["2024-01-01", new Date("2024-02-01T00:00:00Z"), "bad"] }))).toEqual(["a", "b"]);
    expect(await sortedIds(Item.where({ flag: [true, "off", "maybe"] as never }))).toEqual(["a", "b", "d"]);
    expect(await sortedIds(Item.where({ price: ["1.5", 3.5, "x"] }))).toEqual(["a", "d"]);
    expect(await sortedIds(Item.where({ qty: ["x", null] }))).toEqual(["c"]);
    expect(await sortedIds(Item.whereNot({ qty: ["x", null] }))).toEqual(["a", "b", "d"]);
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
    await seedItems();
    // Not in comparisons' types (text orders as text: 10 < 2), but read so at run time.
    expect(Item.where({ code: gt(2 as never) }).toSql().params).toEqual(["2"]);
    expect(await sortedIds(Item.where({ code: 10 }))).toEqual(["a"]);
    expect(await sortedIds(Item.whereNot({ code: 10 }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.where({ code: between(2 as never, 3 as never) }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.where({ code: ignoringCase(10 as never) }))).toEqual(["a"]);
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
    await seedItems();
    await Item.where({ id: "a" }).updateAll({ data: { k: 1 } });
    await Item.where({ id: "b" }).updateAll({ data: { k: 2 } });
    expect(await sortedIds(Item.whereNot({ email: "a@x" }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.whereNot({ email: ignoringCase("A@X") }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.whereNot({ at: "2024-01-01" }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.whereNot({ flag: true }))).toEqual(["b"]);
    expect(await sortedIds(Item.whereNot({ price: lt(2) }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.whereNot({ data: { k: 1 } }))).toEqual(["b"]);
    expect(await sortedIds(Item.whereNot({ at: between("2024-01-01", "2024-02-01") }))).toEqual(["d"]);
    expect(await sortedIds(Item.whereNot({ at: between("2024-01-01", "2024-02-01", { excludeEnd: true }) }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.whereNot({ code: gte("2") }))).toEqual(["a"]);
    expect(await sortedIds(Item.whereNot({ qty: [1], name: ["a", "b"] }))).toEqual(["b", "d"]);
  });

  it("or keeps each side whole: whereNot's NULL exclusion stays inside its side; later conditions apply to both", async () => {
    await seedItems();
    expect(await sortedIds(Item.whereNot({ qty: 1 }).or(Item.where({ name: "a" })))).toEqual(["a", "b", "d"]);
    expect(await sortedIds(Item.where({ name: "zz" }).or(Item.whereNot({ qty: 1 })))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.where({ name: "a" }).or(Item.whereNot({ qty: [1, 2] })))).toEqual(["a", "d"]);
    const ab = Item.where({ name: "a" }).or(Item.where({ name: "b" }));
    expect(await sortedIds(ab.whereNot({ qty: 2 }))).toEqual(["a"]);
  });

  it("or refuses a Relation with other includes (it must differ only in conditions)", () => {
    expect(() => Parent.where({ name: "a" }).or(Parent.where({ name: "b" }).includes("kids"))).toThrow(IncompatibleRelation);
  });

  it("comparisons on datetime attributes with text, offsets and Dates; on reals with excludeEnd; reversed between is empty", async () => {
    await seedItems();
    expect(await sortedIds(Item.where({ at: gt("2024-01-01T00:00:00Z") }))).toEqual(["b", "d"]);
    expect(await sortedIds(Item.where({ at: gte("2024-01-01T01:00:00+01:00") }))).toEqual(["a", "b", "d"]);
    expect(await sortedIds(Item.where({ at: lte(new Date("2024-02-01T00:00:00Z")) }))).toEqual(["a", "b"]);
    expect(await sortedIds(Item.where({ at: lt("2024-02-01") }))).toEqual(["a"]);
    expect(await sortedIds(Item.where({ at: between("2024-02-01", "2024-01-01") }))).toEqual([]);
    expect(await sortedIds(Item.where({ price: between(1.5, 3.5, { excludeEnd: true }) }))).toEqual(["a", "b"]);
    expect(await sortedIds(Item.where({ qty: gt(" 1 ") }))).toEqual(["b", "d"]);
  });

  it("attributes mapped to other columns work in where, order with nulls, select, distinct, sql column(), first/last, paginate", async () => {
    await seedItems();
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
    await seedItems();
    const merged = Item.where(sql`${column("qty")} >= ${1}`)
      .order(sql`${equals(3)} DESC`)
      .merge(Item.where(sql`${column("qty")} <= ${3}`).order(sql`${equals(2)} DESC`));
    expect(merged.toSql()).toEqual({
      sql: `SELECT * FROM "edge_rel_items" WHERE ("qty" >= ?1) AND ("qty" <= ?2) ORDER BY "qty" = ?3 DESC`,
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

// ---- Querying -------------------------------------------------------------------------------------------------

describe("guide: Conditions", () => {
  it("compiles to the SQL shown", () => {
    expect(User.where({ admin: true, age: gt(17) }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "admin" = ?1 AND "age" > ?2`,
      params: [1, 17],
    });
    expect(User.where({ name: ["Ada", "Grace"], email: null }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "name" IN (SELECT value FROM json_each(?1)) AND "email" IS NULL`,
      params: ['["Ada","Grace"]'],
    });
    expect(User.where({ createdAt: between(new Date("2026-01-01"), new Date("2026-02-01"), { excludeEnd: true }) }).toSql().sql).toBe(
      `SELECT * FROM "users" WHERE "created_at" >= ?1 AND "created_at" < ?2`,
    );
    expect(User.where({ age: 30 }).or(User.where({ admin: true })).toSql().sql).toBe(`SELECT * FROM "users" WHERE ("age" = ?1 OR "admin" = ?2)`);
    expect(User.where({ age: "abc" }).toSql().sql).toBe(`SELECT * FROM "users" WHERE 1 = 0`);
    expect(User.where({ email: ignoringCase("Ada@Example.com") }).toSql().sql).toBe(`SELECT * FROM "users" WHERE "email" = ?1 COLLATE NOCASE`);
    expect(User.where({ age: gte(18), score: lt(9.5), bornAt: lte("2000-01-01") }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "age" >= ?1 AND "score" < ?2 AND "born_at" <= ?3`,
      params: [18, 9.5, "2000-01-01T00:00:00.000Z"],
    });
  });

  it("whereNot({ admin: true }) compiles to `... WHERE NOT (\"admin\" = ?1)`", () => {
    expect(User.whereNot({ admin: true }).toSql().sql).toBe(`SELECT * FROM "users" WHERE NOT ("admin" = ?1)`);
  });

  it("whereNot excludes rows with NULL; with several keys adds a IS NOT NULL for each", async () => {
    await User.createOrThrow({ name: "A", age: null });
    await User.createOrThrow({ name: "B", age: 5 });
    await User.createOrThrow({ name: "C", age: 6 });
    expect(await User.whereNot({ age: 5 }).pluck("name")).toEqual(["C"]);
    expect(User.whereNot({ age: 5, name: "x" }).toSql().sql).toContain(`"age" IS NOT NULL`);
    expect(await User.whereNot({}).count()).toBe(3);
  });

  it("ignoringCase filters its value in query events", async () => {
    const { db, events } = listen();
    await db.model(User).where({ email: ignoringCase("Ada@Example.com") }).toArray();
    expect(events[0]!.params).toEqual(["[FILTERED]"]);
  });

  it("or: r.or(M.none()) matches what r does; M.none().or(r) stays empty; differing in more than conditions throws", async () => {
    await User.createOrThrow({ name: "A", age: 1 });
    expect(await User.where({ age: 1 }).or(User.none()).count()).toBe(1);
    expect(await User.none().or(User.where({ age: 1 })).count()).toBe(0);
    expect(() => User.where({ age: 1 }).or(User.limit(1))).toThrow(IncompatibleRelation);
    expect(() => User.where({ age: 1 }).or(Post.all() as never)).toThrow(IncompatibleRelation);
  });

  it("or: bytes in the sql fragments of both orders are the same when their content is, whichever view holds them", async () => {
    await User.createOrThrow({ name: "A", age: 1 });
    const ordered = (bytes: ArrayBuffer | Uint8Array) => User.order(sql`${column("name")} = ${bytes} DESC`);
    const either = ordered(new Uint8Array([1, 2])).where({ age: 1 }).or(ordered(new Uint8Array([1, 2]).buffer).where({ age: 2 }));
    expect(await either.pluck("name")).toEqual(["A"]);
    expect(() => ordered(new Uint8Array([1, 2])).or(ordered(new Uint8Array([1, 3])))).toThrow(IncompatibleRelation);
  });

  it("comparison helpers on a boolean or json attribute throw TypeError; undefined throws TypeError", () => {
    expect(() => User.where({ settings: gt(1) as never }).toSql()).toThrow(TypeError);
    expect(() => User.where({ admin: gt(1) as never }).toSql()).toThrow(TypeError);
    expect(() => User.where({ age: undefined as never })).toThrow(TypeError);
    expect(() => User.where({ nope: 1 } as never)).toThrow(UnknownAttribute);
  });

  it("uncastable values: findBy gives null, find throws RecordNotFound, list elements dropped; number on string read as digits", async () => {
    const u = await User.createOrThrow({ name: "5" });
    expect(await User.findBy({ age: "abc" })).toBeNull();
    await expect(User.find("")).rejects.toBeInstanceOf(RecordNotFound);
    expect(User.where({ age: [1, "x", 2] }).toSql().params).toEqual(["[1.0,2.0]"]);
    expect((await User.findBy({ name: 5 as never }))!.id).toBe(u.id);
  });
});

describe("guide: SQL fragments", () => {
  it("compiles and runs as shown", async () => {
    await User.createOrThrow({ name: "Ada", email: "ada@example.com", age: 17 });
    await User.createOrThrow({ name: "Bob", age: 50 });
    await User.createOrThrow({ name: "Cy" });
    const r = User.where(sql`lower(${column("email")}) = lower(${"Ada@Example.com"})`);
    expect(r.toSql().sql).toBe(`SELECT * FROM "users" WHERE (lower("email") = lower(?1))`);
    expect(await r.pluck("name")).toEqual(["Ada"]);
    expect(await User.order(sql`${column("age")} IS NULL, ${column("age")} DESC`).pluck("name")).toEqual(["Bob", "Ada", "Cy"]);
    expect(await User.where(sql`${column("age")} IN (SELECT value FROM json_each(${JSON.stringify([17, 50])}))`).count()).toBe(2);
  });

  it("refuses a plain string, an unknown column, undefined and a list; binds Date and boolean as stored", async () => {
    expect(() => User.where("1 = 1" as never)).toThrow(TypeError);
    expect(() => User.where(sql`${column("nope")} = 1`).toSql()).toThrow(UnknownAttribute);
    expect(() => User.where(sql`${column("age")} = ${undefined}`).toSql()).toThrow(TypeError);
    expect(() => User.where(sql`${column("age")} IN (${[1, 2]})`).toSql()).toThrow(TypeError);
    const at = new Date("2026-01-02T03:04:05.000Z");
    expect(User.where(sql`${column("bornAt")} = ${at} AND ${column("admin")} = ${true}`).toSql().params).toEqual([at.toISOString(), 1]);
    const u = await User.createOrThrow({ name: "x", bornAt: at, admin: true });
    expect((await User.where(sql`${column("bornAt")} = ${at} AND ${column("admin")} = ${true}`).first())!.id).toBe(u.id);
  });

  it("sql called as a function is refused: sql(text) spliced the text unbound, a way round the refusal of plain strings", () => {
    const refusal = new TypeError("sql is a tagged template: write sql`...`, whose values are bound, not sql(text)");
    const call = sql as (...args: unknown[]) => unknown;
    expect(() => call("name = 'x' OR 1 = 1")).toThrow(refusal);
    expect(() => call(["age = ", ""], 1)).toThrow(refusal);
    expect(() => call(Object.assign(["a", "b"], { raw: ["a", "b"] }))).toThrow(refusal);
    expect(() => call()).toThrow(refusal);
  });

  it("a fragment prints its text with ? for each of its values, a column(), a value or a fragment alike", () => {
    expect(String(sql`${column("age")} > ${18} AND ${sql`name = ${"secret"}`}`)).toBe("? > ? AND ?");
    expect(String(sql`1 = 1`)).toBe("1 = 1");
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {
  it("whereNot with a list holding null excludes the listed values and NULL", async () => {
    await User.create({ name: "a", age: 17 });
    await User.create({ name: "b", age: 30 });
    await User.create({ name: "c" });
    expect(await User.whereNot({ age: [17, null] }).pluck("name")).toEqual(["b"]);
    expect((await User.whereNot({ age: [17] }).pluck("name")).sort()).toEqual(["b"]);
    expect(await User.whereNot({ age: gt(20) }).pluck("name")).toEqual(["a"]);
  });
});

describe("edge cases that hold", () => {

  it("conditions and ordering name attributes: a column name throws UnknownAttribute", async () => {
    expect(() => AuditItem.where({ happened_at: "2024-01-01" } as never)).toThrow(UnknownAttribute);
    expect(() => AuditItem.order({ happened_at: "asc" } as never)).toThrow(UnknownAttribute);
  });
});
