/** paginate combined with distinct, scopes, bound Models and count: false. */
import { beforeEach, describe, expect, it } from "vitest";
import { sql, column, connect, IncompatibleRelation, withDatabase, gt } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item as OwnedItem, seedOwnedItemsSeen } from "../models/owners-and-items.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { Post, User } from "../models/fixtures.js";
import { Kid, Parent, Num } from "../models/edge-relation-items.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

describe("paginate with distinct", () => {
  it("a distinct select pages and counts the distinct rows", async () => {
    await seedOwnedItemsSeen();
    const page = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2 });
    expect(page.total).toBe(3);
    expect(page.totalPages).toBe(2);
    expect(page.records.map((r: any) => r.ownerId)).toEqual([null, "o1"]);
    const second = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2, page: 2 });
    expect(second.records.map((r: any) => r.ownerId)).toEqual(["o2"]);
    const noCount = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2, count: false });
    expect(noCount.hasNext).toBe(true);
  });
});

describe("Page: 'total ... (absent with count: false)'; Statement: 'toSql() returning { sql, params }'", () => {
  it("the Page's fields with and without a count, and past the last page", async () => {
    await seedOwnedItemsSeen();
    const page = await I.order({ id: "asc" }).paginate({ page: "2", perPage: "3" });
    expect(page).toEqual({ records: [expect.objectContaining({ id: "d" })], page: 2, perPage: 3, total: 4, totalPages: 2, hasNext: false, hasPrevious: true });
    const bare = await I.paginate({ count: false, perPage: 3 });
    expect(Object.keys(bare).sort()).toEqual(["hasNext", "hasPrevious", "page", "perPage", "records"]);
    expect(bare.hasNext).toBe(true);
    const past = await I.paginate({ page: 9, perPage: 3 });
    expect(past).toMatchObject({ records: [], total: 4, totalPages: 2, hasNext: false, hasPrevious: true });
    const nonePage = await I.none().paginate({ count: false });
    expect("total" in nonePage).toBe(false);
  });

  it("a Statement's and a Relation's toSql() hold sql and params only", () => {
    expect(Object.keys(I.where({ id: "a" }).toUpdateAll({ name: "b" }).toSql()).sort()).toEqual(["params", "sql"]);
    expect(Object.keys(I.where({ id: "a" }).toSql()).sort()).toEqual(["params", "sql"]);
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

// ---- Pagination -----------------------------------------------------------------------------------------------

describe("guide: Pagination", () => {
  it("runs the example; count and page are one round trip", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    await Post.insertAll(Array.from({ length: 42 }, (_, i) => ({ userId: user.id, title: `t${i}`, published: true })));
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const url = new URL("https://example.com/posts?page=2&per=10");
      const page = await Post.where({ published: true })
        .order({ createdAt: "desc" })
        .paginate({ page: url.searchParams.get("page"), perPage: url.searchParams.get("per") });
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      expect(page.records).toHaveLength(10);
      expect(page.total).toBe(42);
      expect(page.totalPages).toBe(5);
      expect(page.hasNext).toBe(true);
      expect(page.hasPrevious).toBe(true);
      const cheap = await Post.paginate({ page: 3, count: false });
      expect("total" in cheap).toBe(false);
      expect("totalPages" in cheap).toBe(false);
      expect(cheap.records).toHaveLength(0); // 42 rows: page 3 of 25 is past the last
      expect(cheap.hasNext).toBe(false);
    });
  });

  it("rules 1, 3, 5, 6 and totalPages 0", async () => {
    expect((await User.paginate({ page: "", perPage: null })).page).toBe(1);
    expect((await User.paginate()).totalPages).toBe(0);
    await expect(User.paginate({ page: "0" })).rejects.toBeInstanceOf(TypeError);
    await expect(User.paginate({ page: 1.5 })).rejects.toBeInstanceOf(TypeError);
    expect((await User.paginate({ perPage: 500 })).perPage).toBe(100);
    await expect(User.limit(5).paginate()).rejects.toBeInstanceOf(IncompatibleRelation);
    await User.createOrThrow({ name: "A" });
    const past = await User.paginate({ page: 9 });
    expect(past.records).toEqual([]);
    expect(past.total).toBe(1);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("paginate of a distinct select counts and pages alike", async () => {
    for (const age of [17, 36, 17, 50, null]) await User.create({ name: `u${age}`, age });
    const page = await User.select("age").distinct().paginate({ perPage: 3 });
    expect(page.total).toBe(4);
    expect(page.records).toHaveLength(3);
    const next = await User.select("age").distinct().paginate({ perPage: 3, page: 2 });
    expect(next.records).toHaveLength(1);
    expect(new Set([...page.records, ...next.records].map((record) => record.age)).size).toBe(4);
  });

  it("paginate: perPage and maxPerPage are read through a bound Model and a scope", async () => {
    class Small extends User {
      static override perPage = 2;
      static override maxPerPage = 3;
      static named = this.scope((q) => q.where({ name: gt("") }));
    }
    for (const name of ["a", "b", "c", "d"]) await User.create({ name });
    const { db } = listen();
    expect((await db.model(Small).named().paginate()).perPage).toBe(2);
    expect((await db.model(Small).named().paginate({ perPage: "50" })).perPage).toBe(3);
  });
});
