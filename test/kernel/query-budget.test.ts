import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { connect, type D1DatabaseLike, type D1PreparedStatementLike, Model, QueryBudgetExceeded, type QueryEvent } from "../../src/index.js";
import { defineStatement } from "../../src/plugin.js";
import { withoutD1Limits } from "../helpers/d1-limits.js";
import { rejectionOf } from "../helpers/errors.js";
import { LockedDocument } from "../models/locked-documents.js";

class Item extends Model({ id: "integer", code: "string", createdAt: "datetime", updatedAt: "datetime" }) {
  static override binding = "DB";
  static override tableName = "cost_items";
}

beforeAll(async () => {
  const ids = JSON.stringify(Array.from({ length: 100 }, (_, index) => index + 1));
  await withoutD1Limits(env.DB)
    .prepare("INSERT INTO cost_items (id, code, created_at, updated_at) SELECT value, 'c' || value, ?2, ?2 FROM json_each(?1)")
    .bind(ids, new Date(0).toISOString())
    .run();
});

/** A connection with budgets (on `binding`, the test D1 by default), counting the queries actually sent. */
function budgeted(budgets: { maxQueries?: number; maxRowsRead?: number }, binding: D1DatabaseLike = env.DB) {
  const sent: string[] = [];
  const events: QueryEvent[] = [];
  const db = connect(binding, {
    ...budgets,
    onQuery: (event) => {
      sent.push(event.sql);
      events.push(event);
    },
  });
  return { db, sent, events, Items: db.model(Item) };
}

const rowsReadBy = (events: readonly QueryEvent[]) => events.reduce((sum, event) => sum + event.rowsRead, 0);

/** A statement that D1 runs and fails on its first row ('c1' is not JSON): a real D1 error. */
const failingRead = () => defineStatement({ sql: "SELECT json(code) FROM cost_items" });

/**
 * The test D1, whose errors report the rows read in their `meta` as some D1 answers do (the local D1 reports none):
 * every statement still runs on the real database, only its error gains `meta`.
 */
function reportingRowsOfErrors(rowsRead: number): D1DatabaseLike {
  const withMeta = (error: unknown) => Promise.reject(Object.assign(error as Error, { meta: { rows_read: rowsRead } }));
  type Wrapped = D1PreparedStatementLike & { inner: D1PreparedStatement };
  const wrap = (inner: D1PreparedStatement): Wrapped => ({
    inner,
    bind: (...values: unknown[]) => wrap(inner.bind(...values)),
    all: () => inner.all().catch(withMeta) as never,
    run: () => inner.run().catch(withMeta) as never,
  });
  return {
    prepare: (sql) => wrap(env.DB.prepare(sql)),
    batch: (statements) => env.DB.batch((statements as Wrapped[]).map((statement) => statement.inner)).catch(withMeta) as never,
  };
}

describe("maxQueries", () => {
  it("refuses, before sending, the query that would pass the budget, naming the budget and the query", async () => {
    const { Items, sent } = budgeted({ maxQueries: 2 });
    await Items.find(1);
    await Items.find(2);
    const refused = await Items.where({ code: "c3" }).toArray().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueryBudgetExceeded);
    expect(refused).toMatchObject({ name: "QueryBudgetExceeded", budget: "maxQueries", limit: 2 });
    expect((refused as Error).message).toBe(
      'maxQueries of 2 exceeded (2 queries sent, and this one would pass it); refused before sending: SELECT * FROM "cost_items" WHERE "code" = ?1',
    );
    expect(sent).toHaveLength(2);
  });

  it("counts each statement of a batch, and refuses the whole batch before anything is written", async () => {
    const { db, Items, sent } = budgeted({ maxQueries: 3 });
    await Items.find(1);
    const a = Items.build({ id: 1001, code: "a" });
    const b = Items.build({ id: 1002, code: "b" });
    const c = Items.build({ id: 1003, code: "c" });
    await expect(db.batch([a.toSave(), b.toSave(), c.toSave()])).rejects.toThrow(QueryBudgetExceeded);
    expect(sent).toHaveLength(1);
    expect([a.isNewRecord(), b.isNewRecord(), c.isNewRecord()]).toEqual([true, true, true]);
    expect(await Item.where({ id: [1001, 1002, 1003] }).count()).toBe(0);
    await db.batch([a.toSave(), b.toSave()]);
    expect(sent).toHaveLength(3);
    await expect(Items.count()).rejects.toThrow(QueryBudgetExceeded);
  });

  it("allows exactly maxQueries, and 0 allows none", async () => {
    const { Items } = budgeted({ maxQueries: 1 });
    expect(await Items.count()).toBeGreaterThan(0);
    await expect(Items.count()).rejects.toThrow("maxQueries of 1 exceeded");
    await expect(budgeted({ maxQueries: 0 }).Items.first()).rejects.toThrow(QueryBudgetExceeded);
  });
});

describe("maxRowsRead", () => {
  it("lets the query that passes the budget finish and refuses the next one, before sending it", async () => {
    const { Items, sent } = budgeted({ maxRowsRead: 10 });
    await Items.find(1);
    // A full read of cost_items passes the budget of 10 rows; it was sent before the budget was known to be spent.
    expect((await Items.toArray()).length).toBeGreaterThan(10);
    const refused = await Items.find(2).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "QueryBudgetExceeded", budget: "maxRowsRead", limit: 10 });
    expect((refused as Error).message).toMatch(/^maxRowsRead of 10 exceeded \(\d+ rows read so far\); refused before sending: SELECT /);
    expect(sent).toHaveLength(2);
  });

  it("lets reads within the budget go through", async () => {
    const { Items } = budgeted({ maxRowsRead: 3 });
    await Items.find(1);
    await Items.find(2);
    await Items.find(3);
    await expect(Items.find(4)).resolves.toBeDefined();
    await expect(Items.find(5)).rejects.toThrow(QueryBudgetExceeded);
  });
});

describe("budgets count what D1 counts", () => {
  async function lockedDocuments(count: number): Promise<number[]> {
    await env.DB.exec("DELETE FROM locked_sections; DELETE FROM locked_documents;");
    const created = await Promise.all(Array.from({ length: count }, (_, index) => LockedDocument.createOrThrow({ title: `Draft ${index}` })));
    return created.map((document) => document.id!);
  }

  it("maxQueries counts the guard after each checked write of a batch: five locked saves in one batch are ten statements", async () => {
    const ids = await lockedDocuments(5);
    const refusing = budgeted({ maxQueries: 10 });
    const documents = await refusing.db.model(LockedDocument).where({ id: ids }).toArray();
    for (const document of documents) document.title = "Edited";
    await expect(refusing.db.batch(documents.map((document) => document.toSave()))).rejects.toThrow(
      "maxQueries of 10 exceeded (1 queries sent, and this one would pass it)",
    );
    expect(refusing.sent).toHaveLength(1);
    expect(await LockedDocument.where({ title: "Edited" }).count()).toBe(0);

    const enough = budgeted({ maxQueries: 11 });
    const again = await enough.db.model(LockedDocument).where({ id: ids }).toArray();
    for (const document of again) document.title = "Edited";
    await enough.db.batch(again.map((document) => document.toSave()));
    expect(enough.sent).toHaveLength(11);
    expect(enough.sent.filter((sql) => sql.includes("recordflare changes guard"))).toHaveLength(5);
    await expect(enough.db.model(LockedDocument).count()).rejects.toThrow("maxQueries of 11 exceeded (11 queries sent");
  });

  it("maxRowsRead: parallel queries are sent one at a time, so the first to pass the budget completes and the others are refused unsent", async () => {
    const { Items, events } = budgeted({ maxRowsRead: 10 });
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => Items.toArray()));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected", "rejected", "rejected"]);
    for (const outcome of outcomes.slice(1)) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: "QueryBudgetExceeded", budget: "maxRowsRead" });
    }
    expect(events).toHaveLength(1);
    expect(rowsReadBy(events)).toBe(events[0]!.rowsRead);
    expect(events[0]!.rowsRead).toBeGreaterThan(10);
  });

  it("maxRowsRead: parallel queries within the budget all run, sent in the order they were made", async () => {
    const { Items, events } = budgeted({ maxRowsRead: 50 });
    const found = await Promise.all([5, 4, 3, 2, 1].map((id) => Items.find(id)));
    expect(found.map((item) => item.id)).toEqual([5, 4, 3, 2, 1]);
    expect(events.map((event) => event.params[0])).toEqual([5, 4, 3, 2, 1]);
  });

  it("maxQueries holds for parallel queries: those past it are refused unsent", async () => {
    const { Items, sent } = budgeted({ maxQueries: 3 });
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((id) => Items.find(id)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "rejected"]);
    expect(sent).toHaveLength(3);
  });

  it("a failed query counts as a query sent", async () => {
    const { db, Items, sent } = budgeted({ maxQueries: 1 });
    expect((await rejectionOf(db.run(failingRead()))).message).toMatch(/D1_ERROR/);
    expect(sent).toHaveLength(1);
    await expect(Items.find(1)).rejects.toThrow("maxQueries of 1 exceeded (1 queries sent");
  });

  it("maxRowsRead counts the rows a failed query read when D1's error reports them, and its event shows them", async () => {
    const { db, Items, events } = budgeted({ maxRowsRead: 10 }, reportingRowsOfErrors(40));
    const error = await rejectionOf(db.run(failingRead()));
    expect(error.message).toMatch(/D1_ERROR/);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ rowsRead: 40, error });
    await expect(Items.find(1)).rejects.toThrow("maxRowsRead of 10 exceeded (40 rows read so far)");
  });

  it("maxRowsRead counts the rows of a failed batch reported with its error, once for the batch", async () => {
    const { db, Items, events } = budgeted({ maxRowsRead: 30 }, reportingRowsOfErrors(20));
    await expect(db.batch([Items.where({ id: 1 }).toSelect(), failingRead()])).rejects.toThrow(/D1_ERROR/);
    expect(events).toHaveLength(2);
    expect(rowsReadBy(events)).toBe(0);
    await expect(db.batch([failingRead(), Items.where({ id: 2 }).toSelect()])).rejects.toThrow(/D1_ERROR/);
    await expect(Items.find(1)).rejects.toThrow("maxRowsRead of 30 exceeded (40 rows read so far)");
  });
});

describe("connect's budgets", () => {
  it("refuses a budget that is not a whole number from 0 with a TypeError naming it", () => {
    for (const value of [-1, 1.5, "10", Number.NaN, null, 2 ** 53, Number.MAX_VALUE]) {
      expect(() => connect(env.DB, { maxQueries: value as number })).toThrow(TypeError);
      expect(() => connect(env.DB, { maxRowsRead: value as number })).toThrow(/connect: maxRowsRead/);
    }
    // The words of every count argument (`limit`, `first(n)`).
    expect(() => connect(env.DB, { maxQueries: 2 ** 53 })).toThrow(new TypeError("connect: maxQueries takes a whole number from 0, not 9007199254740992"));
  });

  it("counts nothing without a budget", async () => {
    const db = connect(env.DB);
    for (let index = 0; index < 5; index++) await db.model(Item).find(1);
  });
});
