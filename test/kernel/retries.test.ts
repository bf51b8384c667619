import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, type QueryEvent, QueryBudgetExceeded, withDatabase } from "../../src/index.js";
import { defineStatement } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { failingFirstTries, transientError } from "../helpers/transient-d1.js";
import { Counter, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

/** A connection on a binding failing each call's first try, with no wait between tries, and its events. */
function flaky(timing: "before" | "after", options: object = {}, error?: () => Error) {
  const { binding, calls } = failingFirstTries(env.DB, timing, error);
  const events: QueryEvent[] = [];
  const db = connect(binding, { retries: { delayMs: 0 }, onQuery: (event) => events.push(event), ...options });
  return { db, calls, events };
}

const counterValue = async (id: number) => (await env.DB.prepare("SELECT value FROM counters WHERE id = ?").bind(id).first<{ value: number }>())!.value;

describe("retries after D1's transient errors", () => {
  it("a read is sent again, and its events say which try each was, in round trips of their own", async () => {
    await User.createOrThrow({ name: "Ada" });
    const { db, calls, events } = flaky("before");
    const users = await withDatabase(db, () => User.where({ name: "Ada" }).toArray());
    expect(users.map((user) => user.name)).toEqual(["Ada"]);
    expect(calls).toHaveLength(2);
    expect(events.map((event) => [event.attempt, event.roundTrip, event.error instanceof Error])).toEqual([
      [1, 1, true],
      [2, 2, false],
    ]);
    expect((events[0]!.error as Error).message).toBe("D1_ERROR: Network connection lost.");
  });

  it("a batch of reads (a preload) is sent again whole; statements sent together share their round trip", async () => {
    const ada = await User.createOrThrow({ name: "Ada" });
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls, events } = flaky("before");
    const [users, counters] = await db.batch([User.where({ id: ada.id }).toSelect(), Counter.all().toSelect()] as const);
    expect([users.length, counters.length]).toEqual([1, 1]);
    expect(calls.map((call) => call.length)).toEqual([2, 2]);
    expect(events.map((event) => [event.roundTrip, event.attempt])).toEqual([
      [1, 1],
      [1, 1],
      [2, 2],
      [2, 2],
    ]);
  });

  it("a write that is not idempotent is never sent again: `n = n + 1` committed once, the error thrown", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("after");
    const increment = defineStatement({ sql: "UPDATE counters SET value = value + 1 WHERE id = ?", params: [1], result: "meta" });
    const error = await rejectionOf(db.run(increment));
    expect(error.message).toBe("D1_ERROR: Network connection lost.");
    expect(calls).toHaveLength(1);
    expect(await counterValue(1)).toBe(1);
  });

  it("a batch with one statement that is not idempotent is not sent again, even beside reads", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("before");
    const increment = defineStatement({ sql: "UPDATE counters SET value = value + 1 WHERE id = ?", params: [1], result: "meta" });
    await expect(db.batch([Counter.all().toSelect(), increment])).rejects.toThrow("Network connection lost");
    expect(calls).toHaveLength(1);
    expect(await counterValue(1)).toBe(0);
  });

  it("a statement defined idempotent is sent again after a try whose write committed, with the result of one", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("after");
    const set = defineStatement({ sql: "UPDATE counters SET value = ? WHERE id = ?", params: [7, 1], result: "meta", idempotent: true });
    const meta = (await db.run(set)) as unknown as { changes: number };
    expect(meta.changes).toBe(1);
    expect(calls).toHaveLength(2);
    expect(await counterValue(1)).toBe(7);
  });

  it("an error that is not transient is thrown at once, translated as usual", async () => {
    const { db, calls } = flaky("before", {}, () => new Error("D1_ERROR: no such column: nope"));
    await expect(db.run(defineStatement({ sql: "SELECT nope FROM users" }))).rejects.toThrow("no such column");
    expect(calls).toHaveLength(1);
  });

  it("tries stop at `attempts`; `retries: false` sends each round trip once", async () => {
    const always = failingFirstTries(env.DB, "before");
    let tries = 0;
    const failing = Object.assign(Object.create(always.binding) as D1Database, {
      prepare: (text: string) => {
        tries += 1;
        return Object.assign(Object.create(env.DB.prepare(text)) as D1PreparedStatement, { all: () => Promise.reject(transientError()) });
      },
    });
    await expect(connect(failing, { retries: { attempts: 4, delayMs: 0 } }).run(User.all().toSelect())).rejects.toThrow("Network connection lost");
    expect(tries).toBe(4);
    tries = 0;
    await expect(connect(failing, { retries: false }).run(User.all().toSelect())).rejects.toThrow("Network connection lost");
    expect(tries).toBe(1);
  });

  it("every try counts against maxQueries, as D1 bills it", async () => {
    const { db } = flaky("before", { maxQueries: 1 });
    const error = await rejectionOf(db.run(User.all().toSelect()));
    expect(error).toBeInstanceOf(QueryBudgetExceeded);
  });

  it("reads are told from writes by their SQL: a WITH that deletes, or a quoted keyword, is read as SQLite does", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("before");
    const deleting = defineStatement({ sql: "WITH gone AS (SELECT 1) DELETE FROM counters WHERE id = ?", params: [1], result: "meta" });
    await expect(db.run(deleting)).rejects.toThrow("Network connection lost");
    expect(calls).toHaveLength(1);
    const quoted = defineStatement({ sql: `SELECT "value" AS "update" FROM counters WHERE id = ?`, params: [1] });
    expect(await db.run(quoted)).toEqual([{ update: 0 }]);
    expect(calls).toHaveLength(3);
  });

  it("bad retry options and a non-boolean idempotent are refused naming the option", () => {
    expect(() => connect(env.DB, { retries: { attemps: 3 } as object })).toThrow("connect: retries: attemps is not an option; the options are attempts and delayMs");
    expect(() => connect(env.DB, { retries: { attempts: 0 } })).toThrow(/connect: retries: attempts takes a whole number from 1 to 10/);
    expect(() => connect(env.DB, { retries: { delayMs: -1 } })).toThrow(/connect: retries: delayMs takes milliseconds from 0 to 10000/);
    expect(() => defineStatement({ sql: "SELECT 1", idempotent: "yes" as never })).toThrow(/defineStatement: idempotent takes a boolean/);
  });
});
