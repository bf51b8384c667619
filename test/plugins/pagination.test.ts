import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CastError,
  column,
  connect,
  defineApplicationRecord,
  gte,
  IncompatibleRelation,
  InvalidModel,
  type D1DatabaseLike,
  type PaginationSettings,
  type BasePage,
  type Page,
  type QueryEvent,
  sql,
} from "../../src/index.js";
import { listen as listenTo } from "../helpers/queries.js";
import { Article, Profile, Writer } from "../models/association-fixtures.js";
import { ApplicationBase, Counter, Counter as CounterModel, schema } from "../models/fixtures.js";

// 120 counters shared by every test of this file: ids 1..120, value = id % 7 (so values tie).
const TOTAL = 120;
const valueOf = (id: number) => id % 7;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

beforeAll(async () => {
  await Counter.insertAll(range(1, TOTAL).map((id) => ({ label: `c${id}`, value: valueOf(id) })));
  expect(await Counter.count()).toBe(TOTAL);
  expect(await Counter.order({ id: "asc" }).pluck("id")).toEqual(range(1, TOTAL));
});

/** A listening database, with Counter bound to it (tests shadow the imported Counter with the bound view). */
const listen = () => listenTo({ models: { Counter } });

/** A D1 binding that counts round trips: each batch() is one, each all()/run() outside a batch is one. */
function countingBinding() {
  const trips = { count: 0 };
  const wrap = (statement: D1PreparedStatement): any => ({
    real: statement,
    bind: (...values: unknown[]) => wrap(statement.bind(...values)),
    all: () => {
      trips.count += 1;
      return statement.all();
    },
    run: () => {
      trips.count += 1;
      return statement.run();
    },
  });
  const binding: D1DatabaseLike = {
    prepare: (sql) => wrap(env.DB.prepare(sql)),
    batch: ((statements: { real: D1PreparedStatement }[]) => {
      trips.count += 1;
      return env.DB.batch(statements.map((statement) => statement.real));
    }) as unknown as D1DatabaseLike["batch"],
  };
  return { binding, trips };
}

const ids = (page: BasePage<{ id: number }>) => page.records.map((record) => record.id);

describe("Page", () => {
  it("has records, page, perPage, total, totalPages, hasNext and hasPrevious", async () => {
    const page = await Counter.paginate({ page: 2, perPage: 10 });
    expect(Object.keys(page).sort()).toEqual(["hasNext", "hasPrevious", "page", "perPage", "records", "total", "totalPages"]);
    expect(ids(page)).toEqual(range(11, 20));
    expect(page.records[0]).toBeInstanceOf(Counter);
    expect(page.records[0]!.isPersisted()).toBe(true);
    expect(page.records[0]!.label).toBe("c11");
    expect(page.page).toBe(2);
    expect(page.perPage).toBe(10);
    expect(page.total).toBe(TOTAL);
    expect(page.totalPages).toBe(12);
    expect(page.hasNext).toBe(true);
    expect(page.hasPrevious).toBe(true);
  });

  it("the first page has no previous page; the last has no next page", async () => {
    const first = await Counter.paginate({ page: 1, perPage: 50 });
    expect([first.hasPrevious, first.hasNext, first.totalPages]).toEqual([false, true, 3]);
    const last = await Counter.paginate({ page: 3, perPage: 50 });
    expect(ids(last)).toEqual(range(101, 120));
    expect([last.hasPrevious, last.hasNext, last.totalPages]).toEqual([true, false, 3]);
    const exact = await Counter.paginate({ page: 12, perPage: 10 });
    expect(ids(exact)).toEqual(range(111, 120));
    expect(exact.hasNext).toBe(false);
    const beforeExact = await Counter.paginate({ page: 11, perPage: 10 });
    expect(beforeExact.hasNext).toBe(true);
  });

  it("counts the Relation's rows, not the table's", async () => {
    const page = await Counter.where({ value: 3 }).paginate({ perPage: 5 });
    const expected = range(1, TOTAL).filter((id) => valueOf(id) === 3);
    expect(page.total).toBe(expected.length);
    expect(page.totalPages).toBe(Math.ceil(expected.length / 5));
    expect(ids(page)).toEqual(expected.slice(0, 5));
  });

  it("an empty Relation gives an empty first page", async () => {
    const page = await Counter.where({ value: 99 }).paginate();
    expect(page).toEqual({ records: [], page: 1, perPage: 25, total: 0, totalPages: 0, hasNext: false, hasPrevious: false });
  });

  it("none() gives an empty page without a query", async () => {
    const { events, Counter } = listen();
    const page = await Counter.none().paginate({ page: 1, perPage: 5 });
    expect(page.records).toEqual([]);
    expect(page.total).toBe(0);
    expect(page.hasNext).toBe(false);
    expect(events).toHaveLength(0);
  });

  it("paginate is also a static and a method of any Relation", async () => {
    expect(ids(await Counter.paginate({ perPage: 3 }))).toEqual([1, 2, 3]);
    expect(ids(await Counter.all().paginate({ perPage: 3 }))).toEqual([1, 2, 3]);
    expect(ids(await Counter.where({ value: 0 }).paginate({ perPage: 3 }))).toEqual([7, 14, 21]);
  });
});

describe("rule 1: page and perPage from numbers or query-string text", () => {
  it("takes query-string text", async () => {
    const page = await Counter.paginate({ page: "3", perPage: "10" });
    expect(page.page).toBe(3);
    expect(page.perPage).toBe(10);
    expect(ids(page)).toEqual(range(21, 30));
    const params = new URLSearchParams("page=2&perPage=7");
    const fromQuery = await Counter.paginate({ page: params.get("page"), perPage: params.get("perPage") });
    expect([fromQuery.page, fromQuery.perPage]).toEqual([2, 7]);
    expect(ids(fromQuery)).toEqual(range(8, 14));
  });

  it("missing, null or empty means the first page and the default size", async () => {
    const params = new URLSearchParams("");
    for (const options of [
      undefined,
      {},
      { page: null, perPage: null },
      { page: "", perPage: "" },
      { page: undefined, perPage: undefined },
      { page: params.get("page"), perPage: params.get("perPage") },
    ]) {
      const page = await Counter.paginate(options);
      const label = JSON.stringify(options);
      expect(page.page, label).toBe(1);
      expect(page.perPage, label).toBe(25);
      expect(ids(page), label).toEqual(range(1, 25));
      expect(page.hasPrevious, label).toBe(false);
    }
    expect((await Counter.paginate({ page: "", perPage: 5 })).page).toBe(1);
    expect((await Counter.paginate({ page: 2, perPage: null })).perPage).toBe(25);
  });

  it("anything that is not a whole number from 1 throws CastError (bad request input) naming the option, before any query", async () => {
    const { events, Counter } = listen();
    const refused: unknown[] = [0, -1, 1.5, "abc", "2x", "0", "-1", "+0", "1.5", "x2", NaN, Infinity, true, [2], { page: 1 }, 2n];
    for (const value of refused) {
      const label = String(value);
      for (const option of ["page", "perPage"]) {
        const error = await Counter.paginate({ [option]: value as any }).catch((thrown: unknown) => thrown);
        expect(error, `${option} ${label}`).toBeInstanceOf(CastError);
        expect(error, `${option} ${label}`).toMatchObject({ model: CounterModel, attribute: option });
        expect(Object.is((error as CastError).value, value), `${option} ${label}`).toBe(true);
      }
    }
    // count is the app's own option, never read from a request: a wrong one is the app's TypeError.
    const count = await Counter.paginate({ count: "no" as never }).catch((thrown: unknown) => thrown);
    expect(count).toBeInstanceOf(TypeError);
    expect(count).not.toBeInstanceOf(CastError);
    await expect(Counter.paginate({ page: "abc" })).rejects.toThrow(/page/);
    await expect(Counter.paginate({ page: 2n as never })).rejects.toThrow("Counter.paginate: page must be a whole number from 1, not 2n");
    expect(events).toHaveLength(0);
  });

  it("text with a plus sign is read as integer attributes read it", async () => {
    const { Counter } = listen();
    const page = await Counter.paginate({ page: "+2", perPage: " +5 " });
    expect([page.page, page.perPage]).toEqual([2, 5]);
  });
});

describe("rule 2: pages follow the Relation's order, then the primary key", () => {
  it("without an order, pages are ordered by primary key", async () => {
    const { events, Counter } = listen();
    const page = await Counter.paginate({ page: 3, perPage: 10 });
    expect(ids(page)).toEqual(range(21, 30));
    expect(events[1]!.sql).toBe(`SELECT * FROM "counters" ORDER BY "id" ASC LIMIT 10 OFFSET 20`);
  });

  it("ties in the Relation's order are broken by primary key, so pages never overlap or skip", async () => {
    const { events, Counter } = listen();
    const relation = Counter.order({ value: "desc" });
    const first = await relation.paginate({ page: 1, perPage: 8 });
    expect(events[1]!.sql).toBe(`SELECT * FROM "counters" ORDER BY "value" DESC, "id" ASC LIMIT 8 OFFSET 0`);
    const expected = range(1, TOTAL).sort((a, b) => valueOf(b) - valueOf(a) || a - b);
    expect(ids(first)).toEqual(expected.slice(0, 8));
    const seen: number[] = [];
    for (let number = 1; number <= first.totalPages!; number++) {
      seen.push(...ids(await relation.paginate({ page: number, perPage: 8 })));
    }
    expect(seen).toEqual(expected);
  });

  it("an order that already ends with the primary key is kept as is", async () => {
    const page = await Counter.order({ id: "desc" }).paginate({ page: 2, perPage: 5 });
    expect(ids(page)).toEqual([115, 114, 113, 112, 111]);
  });

  it("adds the primary key to the order only when the order does not hold it already", async () => {
    const { events, Counter } = listen();
    await Counter.order({ id: "desc" }).paginate({ perPage: 5, count: false });
    await Counter.order({ id: "desc" }).order({ value: "asc" }).paginate({ perPage: 5, count: false });
    await Counter.order({ value: "asc" }).paginate({ perPage: 5, count: false });
    await Counter.order(sql`${column("id")} % 2`).paginate({ perPage: 5, count: false });
    expect(events.map((event) => /ORDER BY (.*) LIMIT/.exec(event.sql)?.[1])).toEqual([
      `"id" DESC`,
      `"id" DESC, "value" ASC`,
      `"value" ASC, "id" ASC`,
      `"id" % 2, "id" ASC`,
    ]);
  });

  it("the Relation's own order keys come first", async () => {
    const page = await Counter.order({ value: "asc" }).order({ label: "desc" }).paginate({ page: 1, perPage: 3 });
    // value 0: ids 7, 14, ..., 119; by label desc as text: c98, c91, c84.
    expect(page.records.map((record) => record.label)).toEqual(["c98", "c91", "c84"]);
  });
});

describe("rule 3: a page past the last has no records and the real total", () => {
  it("reports the real total", async () => {
    const page = await Counter.paginate({ page: 100, perPage: 25 });
    expect(page.records).toEqual([]);
    expect(page.page).toBe(100);
    expect(page.total).toBe(TOTAL);
    expect(page.totalPages).toBe(5);
    expect(page.hasNext).toBe(false);
    expect(page.hasPrevious).toBe(true);
    const justPast = await Counter.paginate({ page: 6 });
    expect(justPast.records).toEqual([]);
    expect(justPast.total).toBe(TOTAL);
  });

  it("without a count, a page past the last is empty with no next page", async () => {
    const page = await Counter.paginate({ page: 100, count: false });
    expect(page.records).toEqual([]);
    expect(page.hasNext).toBe(false);
    expect(page.hasPrevious).toBe(true);
  });
});

describe("rule 4: count and page in one round trip; count: false skips the count", () => {
  it("sends the count and the page together in one batch", async () => {
    const { events, Counter } = listen();
    const page = await Counter.where({ value: 2 }).paginate({ page: 2, perPage: 5 });
    expect(page.records).toHaveLength(5);
    expect(events).toHaveLength(2);
    expect(events.every((event) => event.batched)).toBe(true);
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT COUNT(*) AS "recordflare_count" FROM "counters" WHERE "value" = ?1`,
      `SELECT * FROM "counters" WHERE "value" = ?1 ORDER BY "id" ASC LIMIT 5 OFFSET 5`,
    ]);
  });

  it("is exactly one round trip to D1", async () => {
    const { binding, trips } = countingBinding();
    const db = connect(binding);
    const page = await db.model(Counter).order({ value: "asc" }).paginate({ page: 2, perPage: 10 });
    expect(page.total).toBe(TOTAL);
    expect(page.records).toHaveLength(10);
    expect(trips.count).toBe(1);
    // The counter does see queries sent one by one.
    await db.model(Counter).count();
    await db.model(Counter).limit(1).toArray();
    expect(trips.count).toBe(3);
  });

  it("count: false sends only the page and leaves total and totalPages out", async () => {
    const { events, Counter } = listen();
    const page = await Counter.paginate({ page: 2, perPage: 10, count: false });
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).not.toContain("COUNT");
    expect("total" in page).toBe(false);
    expect("totalPages" in page).toBe(false);
    expect(Object.keys(page).sort()).toEqual(["hasNext", "hasPrevious", "page", "perPage", "records"]);
    expect(ids(page)).toEqual(range(11, 20));
    expect(page.hasNext).toBe(true);
    expect(page.hasPrevious).toBe(true);
  });

  it("count: false still knows whether a next page exists at the boundary", async () => {
    const last = await Counter.paginate({ page: 12, perPage: 10, count: false });
    expect(ids(last)).toEqual(range(111, 120));
    expect(last.hasNext).toBe(false);
    const beforeLast = await Counter.paginate({ page: 11, perPage: 10, count: false });
    expect(beforeLast.records).toHaveLength(10);
    expect(beforeLast.hasNext).toBe(true);
    const { trips, binding } = countingBinding();
    await connect(binding).model(Counter).paginate({ count: false });
    expect(trips.count).toBe(1);
  });

  it("count: false on page 1 has no previous page, and a next one only while rows remain", async () => {
    const first = await Counter.paginate({ perPage: 10, count: false });
    expect(ids(first)).toEqual(range(1, 10));
    expect(first.hasPrevious).toBe(false);
    expect(first.hasNext).toBe(true);
    const whole = await Counter.where({ id: range(1, 20) }).paginate({ page: 1, perPage: 20, count: false });
    expect(whole.records).toHaveLength(20);
    expect(whole.hasPrevious).toBe(false);
    expect(whole.hasNext).toBe(false);
    const none = await Counter.none().paginate({ count: false });
    expect(none).toEqual({ records: [], page: 1, perPage: none.perPage, hasNext: false, hasPrevious: false });
  });

  it("count: true is the default", async () => {
    const page = await Counter.paginate({ count: true, perPage: 10 });
    expect(page.total).toBe(TOTAL);
    expect(page.totalPages).toBe(12);
  });
});

describe("rule 7: includes preloads the page's associations in the page's batch", () => {
  it("one query per association in the batch of the count and the page, for the page's records only", async () => {
    for (const name of ["w1", "w2", "w3", "w4", "w5"]) {
      const writer = await Writer.create({ name });
      await Article.create({ userId: writer.id, title: `${name}-a` });
      await Article.create({ userId: writer.id, title: `${name}-b` });
      await Profile.create({ id: `profile-${name}`, userId: writer.id, bio: `bio ${name}` });
    }
    const events: QueryEvent[] = [];
    const db = connect(env.DB, { onQuery: (event) => events.push(event) });
    const page = await db.model(Writer).where({ name: gte("w1") }).order({ name: "asc" }).includes("posts", "profile").paginate({ page: 2, perPage: 2 });
    expect(page.records.map((writer) => writer.name)).toEqual(["w3", "w4"]);
    expect(page.total).toBe(5);
    expect(events).toHaveLength(4);
    expect(events.map((event) => event.batched)).toEqual([true, true, true, true]);
    expect(events[0]!.sql).toContain("COUNT(*)");
    expect(events[1]!.sql).toContain(`FROM "users"`);
    const preloads = events.slice(2).map((event) => event.sql);
    expect(preloads.some((sql) => sql.includes(`LEFT JOIN "posts"`))).toBe(true);
    expect(preloads.some((sql) => sql.includes(`LEFT JOIN "profiles"`))).toBe(true);
    // Each preload selects by a subquery of the page itself: its order, limit and offset.
    for (const event of events.slice(2)) expect(event.sql).toContain("LIMIT 2 OFFSET 2");
    events.length = 0;
    const titles = (await page.records[0]!.posts().toArray()).map((article) => article.title);
    expect(titles.sort()).toEqual(["w3-a", "w3-b"]);
    expect(await page.records[1]!.posts().size()).toBe(2);
    expect(page.records[1]!.profile.get()!.bio).toBe("bio w4");
    expect(events).toHaveLength(0);
  });
});

describe("rule 6: a Relation with limit or offset throws IncompatibleRelation", () => {
  it("throws before any query", async () => {
    const { events, Counter } = listen();
    await expect(Counter.limit(5).paginate()).rejects.toThrow(IncompatibleRelation);
    await expect(Counter.offset(5).paginate()).rejects.toThrow(IncompatibleRelation);
    await expect(Counter.offset(0).paginate({ page: 2 })).rejects.toThrow(IncompatibleRelation);
    await expect(Counter.limit(10).offset(10).paginate()).rejects.toThrow(IncompatibleRelation);
    await expect(Counter.where({ value: 1 }).limit(1).paginate({ count: false })).rejects.toThrow(IncompatibleRelation);
    expect(events).toHaveLength(0);
  });

  it("names the Model and paginate", async () => {
    const error = await Counter.limit(5).paginate().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(IncompatibleRelation);
    expect((error as Error).message).toMatch(/^Counter\.paginate: .*limit or offset/);
  });

  it("reorder or merge keep the limit, so they still throw", async () => {
    await expect(Counter.limit(5).reorder().paginate()).rejects.toThrow(IncompatibleRelation);
    await expect(Counter.all().merge(Counter.limit(3)).paginate()).rejects.toThrow(IncompatibleRelation);
  });
});

describe("rule 7 and limits: perPage defaults to 25 and is capped at maxPerPage (100)", () => {
  it("defaults", async () => {
    expect(Counter.perPage).toBe(25);
    expect(Counter.maxPerPage).toBe(100);
    const page = await Counter.paginate();
    expect(page.perPage).toBe(25);
    expect(page.records).toHaveLength(25);
    expect(page.totalPages).toBe(5);
  });

  it("a requested perPage above maxPerPage is capped", async () => {
    for (const perPage of [101, 500, "1000", Number.MAX_SAFE_INTEGER]) {
      const page = await Counter.paginate({ perPage });
      expect(page.perPage, String(perPage)).toBe(100);
      expect(page.records, String(perPage)).toHaveLength(100);
      expect(page.totalPages, String(perPage)).toBe(2);
    }
    const second = await Counter.paginate({ page: 2, perPage: 500 });
    expect(ids(second)).toEqual(range(101, 120));
    expect((await Counter.paginate({ perPage: 100 })).records).toHaveLength(100);
    expect((await Counter.paginate({ perPage: 500, count: false })).records).toHaveLength(100);
  });

  it("perPage and maxPerPage are settable on the app's base class", async () => {
    class SmallBase extends ApplicationBase {
      static override perPage = 3;
      static override maxPerPage = 4;
    }
    const SmallRecord = defineApplicationRecord(schema, SmallBase);
    class SmallCounter extends SmallRecord("counters") {}
    expect(SmallCounter.perPage).toBe(3);
    const byDefault = await SmallCounter.paginate();
    expect(byDefault.perPage).toBe(3);
    expect(byDefault.records.map((record) => record.id)).toEqual([1, 2, 3]);
    expect(byDefault.totalPages).toBe(TOTAL / 3);
    const capped = await SmallCounter.paginate({ perPage: 50 });
    expect(capped.perPage).toBe(4);
    expect(capped.records).toHaveLength(4);
    expect(capped.totalPages).toBe(TOTAL / 4);
    expect((await SmallCounter.paginate({ perPage: "2" })).records).toHaveLength(2);
    // The library's defaults stay as they were for other Models.
    expect((await Counter.paginate()).perPage).toBe(25);
  });

  it("perPage and maxPerPage are settable on a Model", async () => {
    class TenCounter extends Counter {
      static override perPage = 10;
      static override maxPerPage = 15;
    }
    expect((await TenCounter.paginate()).records).toHaveLength(10);
    const capped = await TenCounter.paginate({ perPage: 99, page: 2 });
    expect(capped.perPage).toBe(15);
    expect(capped.records.map((record) => record.id)).toEqual(range(16, 30));
    expect(Counter.perPage).toBe(25);
    expect(Counter.maxPerPage).toBe(100);
  });

  it("a perPage above maxPerPage is capped too, as any page size is; maxPerPage may be Infinity, no cap", async () => {
    class Capped extends Counter {
      static override perPage = 50;
      static override maxPerPage = 10;
    }
    const page = await Capped.paginate();
    expect([page.perPage, page.records.length, page.totalPages]).toEqual([10, 10, 12]);
    class Uncapped extends Counter {
      static override maxPerPage = Infinity;
    }
    expect((await Uncapped.paginate({ perPage: 500 })).records).toHaveLength(TOTAL);
  });

  it("a perPage or maxPerPage that is not a whole number from 1 throws InvalidModel naming it, before any query", async () => {
    const settings: [keyof PaginationSettings, unknown, string][] = [
      ["perPage", 0, "0"],
      ["perPage", -1, "-1"],
      ["perPage", 2.5, "2.5"],
      ["perPage", "5", '"5"'],
      ["maxPerPage", 0, "0"],
      ["maxPerPage", NaN, "NaN"],
      ["maxPerPage", null, "null"],
    ];
    const { db, events } = listenTo();
    for (const [name, value, shown] of settings) {
      class Misset extends Counter {}
      Object.assign(Misset, { [name]: value });
      const refusal = new InvalidModel(`Misset.${name} must be a whole number from 1, not ${shown}`);
      await expect(db.model(Misset).paginate()).rejects.toThrow(refusal);
      await expect(db.model(Misset).none().paginate({ perPage: 2 })).rejects.toThrow(refusal);
    }
    expect(events).toHaveLength(0);
  });
});
