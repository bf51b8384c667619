import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { connect, Model, QueryBudgetExceeded } from "../../src/index.js";
import { withoutD1Limits } from "../helpers/d1-limits.js";

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

/** A connection with budgets, counting the queries actually sent. */
function budgeted(budgets: { maxQueries?: number; maxRowsRead?: number }) {
  const sent: string[] = [];
  const db = connect(env.DB, { ...budgets, onQuery: (event) => sent.push(event.sql) });
  return { db, sent, Items: db.model(Item) };
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

describe("connect's budgets", () => {
  it("refuses a budget that is not a whole number from 0 with a TypeError naming it", () => {
    for (const value of [-1, 1.5, "10", Number.NaN, null]) {
      expect(() => connect(env.DB, { maxQueries: value as number })).toThrow(TypeError);
      expect(() => connect(env.DB, { maxRowsRead: value as number })).toThrow(/connect: maxRowsRead/);
    }
  });

  it("counts nothing without a budget", async () => {
    const db = connect(env.DB);
    for (let index = 0; index < 5; index++) await db.model(Item).find(1);
  });
});
