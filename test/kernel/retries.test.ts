import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, type QueryEvent, QueryBudgetExceeded, RecordNotUnique, sql, UnconfirmedWrite, withDatabase } from "../../src/index.js";
import { defineStatement } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { failingFirstTries, transientError } from "../helpers/transient-d1.js";
import { Counter, Note, User } from "../models/fixtures.js";
import { ArchivableNote, PurgedBoard } from "../models/archivable-notes.js";
import { countedComments } from "../models/counted-comments.js";
import { LockedDocument } from "../models/locked-documents.js";

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

  it("a write that is not idempotent is never sent again: `n = n + 1` committed once, UnconfirmedWrite with D1's error as cause", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("after");
    const increment = defineStatement({ sql: "UPDATE counters SET value = value + 1 WHERE id = ?", params: [1], result: "meta" });
    const error = await rejectionOf(db.run(increment));
    expect(error).toBeInstanceOf(UnconfirmedWrite);
    expect(error.message).toBe(
      "D1 failed with a transient error (D1_ERROR: Network connection lost.) on a write that is not safe to send twice, so it was not sent again; D1 may or may not have committed it",
    );
    expect((error.cause as Error).message).toBe("D1_ERROR: Network connection lost.");
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

/** The rows of a table as D1 holds them, ordered by key. */
const rowsOf = async (sqlText: string) => (await env.DB.prepare(sqlText).all()).results;

/** The try each round trip the events report was: 1, or more for a retry. */
const tries = (events: readonly QueryEvent[]) => [...new Map(events.map((event) => [event.roundTrip, event.attempt])).values()];

/** Runs `work` on a flaky connection, once the records it needs are loaded through it; the calls and events are then only `work`'s. */
async function onFlaky<T>(timing: "before" | "after", load: () => Promise<T>, work: (loaded: T) => Promise<unknown>) {
  const { db, calls, events } = flaky(timing);
  return withDatabase(db, async () => {
    const loaded = await load();
    calls.length = 0;
    events.length = 0;
    const outcome = await work(loaded).then(() => undefined, (error: unknown) => error);
    return { calls, events, outcome };
  });
}

describe.each(["before", "after"] as const)("the library's own writes, failing once %s D1 ran them", (timing) => {
  it("a create of a key made in code is sent again with the clause that finds its own row: one row, the record loaded from it", async () => {
    const { calls, events, outcome } = await onFlaky(timing, async () => undefined, async () => {
      const user = await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
      expect(user.isPersisted()).toBe(true);
      expect(await rowsOf("SELECT id, name, email FROM users")).toEqual([{ id: user.id, name: "Ada", email: "ada@example.com" }]);
    });
    expect(outcome).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[0]![0]).not.toContain("ON CONFLICT");
    expect(calls[1]![0]).toContain('ON CONFLICT ("id") DO UPDATE SET "id" = CASE WHEN');
    expect(tries(events)).toEqual([1, 2]);
  });

  it("a create whose key the database numbers is sent once: UnconfirmedWrite naming the Model, D1's error its cause", async () => {
    const { calls, outcome } = await onFlaky(timing, async () => undefined, () => Counter.createOrThrow({ label: "a", value: 1 }));
    expect(outcome).toBeInstanceOf(UnconfirmedWrite);
    expect((outcome as Error).message).toMatch(/^Counter: D1 failed with a transient error \(D1_ERROR: Network connection lost\.\)/);
    expect(((outcome as Error).cause as Error).message).toBe("D1_ERROR: Network connection lost.");
    expect(calls).toHaveLength(1);
    expect(await rowsOf("SELECT label FROM counters")).toEqual(timing === "after" ? [{ label: "a" }] : []);
  });

  it("an UPDATE by key that sets values is sent again as it is", async () => {
    const { id } = await User.createOrThrow({ name: "Ada" });
    const { calls, events, outcome } = await onFlaky(timing, () => User.find(id), (user) => user.updateOrThrow({ name: "Grace" }));
    expect(outcome).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(tries(events)).toEqual([1, 2]);
    expect(await rowsOf("SELECT name FROM users")).toEqual([{ name: "Grace" }]);
  });

  it("a destroy's DELETE by key is sent again; finding no row the second time is no error", async () => {
    const { id } = await User.createOrThrow({ name: "Ada" });
    const { calls, outcome } = await onFlaky(timing, () => User.find(id), async (user) => {
      await user.destroyOrThrow();
      expect(user.isDestroyed()).toBe(true);
    });
    expect(outcome).toBeUndefined();
    expect(calls.map((call) => call[0]!.split(" ")[0])).toEqual(["DELETE", "DELETE"]);
    expect(await rowsOf("SELECT id FROM users")).toEqual([]);
  });

  it("a destroy with dependents' set-based DELETE is sent again whole", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO archivable_boards (id, name) VALUES (1, 'b')"),
      env.DB.prepare("INSERT INTO archivable_notes (id, archivable_board_id, title) VALUES (1, 1, 'n'), (2, 1, 'm'), (3, NULL, 'o')"),
    ]);
    const { calls, outcome } = await onFlaky(timing, () => PurgedBoard.find(1), (board) => board.destroyOrThrow());
    expect(outcome).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(calls[0]!.map((text) => text.split(" ").slice(0, 3).join(" "))).toEqual(['DELETE FROM "archivable_notes"', 'DELETE FROM "archivable_boards"']);
    expect(await rowsOf("SELECT id FROM archivable_notes")).toEqual([{ id: 3 }]);
    expect(await rowsOf("SELECT id FROM archivable_boards")).toEqual([]);
  });

  it("updateAll of values and deleteAll are sent again; a page of rows, or an sql fragment, is sent once", async () => {
    await env.DB.prepare("INSERT INTO archivable_notes (id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c')").run();
    const updated = await onFlaky(timing, async () => undefined, () => ArchivableNote.where({ title: ["a", "b"] }).updateAll({ pinned: true }));
    const deleted = await onFlaky(timing, async () => undefined, () => ArchivableNote.where({ pinned: true }).deleteAll());
    for (const { calls, outcome } of [updated, deleted]) {
      expect(outcome).toBeUndefined();
      expect(calls).toHaveLength(2);
    }
    expect(await rowsOf("SELECT id FROM archivable_notes")).toEqual([{ id: 3 }]);
    await env.DB.prepare("INSERT INTO archivable_notes (id, title) VALUES (4, 'd'), (5, 'e')").run();
    const paged = await onFlaky(timing, async () => undefined, () => ArchivableNote.order({ id: "asc" }).limit(1).deleteAll());
    const fragment = await onFlaky(timing, async () => undefined, () => ArchivableNote.where(sql`id = 4`).updateAll({ title: "x" }));
    for (const { calls, outcome } of [paged, fragment]) {
      expect(outcome).toBeInstanceOf(UnconfirmedWrite);
      expect((outcome as Error).message).toMatch(/^ArchivableNote: /);
      expect(calls).toHaveLength(1);
    }
    const committed = timing === "after";
    expect(await rowsOf("SELECT id, title FROM archivable_notes ORDER BY id")).toEqual([
      ...(committed ? [] : [{ id: 3, title: "c" }]),
      { id: 4, title: committed ? "x" : "d" },
      { id: 5, title: "e" },
    ]);
  });

  it("a create with counter caches (`n = n + 1`) is sent once: each counter added to once at most", async () => {
    const { User: Author, Post, Comment } = countedComments();
    const ada = await Author.createOrThrow({ name: "ada" });
    const post = await Post.createOrThrow({ ccUserId: ada.id, title: "a" });
    const { calls, outcome } = await onFlaky(timing, async () => undefined, () => Comment.createOrThrow({ ccPostId: post.id, ccUserId: ada.id, body: "hi" }));
    expect(outcome).toBeInstanceOf(UnconfirmedWrite);
    expect(calls).toHaveLength(1);
    const count = timing === "after" ? 1 : 0;
    expect(await rowsOf("SELECT comments_count AS n FROM cc_posts")).toEqual([{ n: count }]);
    expect(await rowsOf("SELECT count(*) AS n FROM cc_comments")).toEqual([{ n: count }]);
  });

  it("an optimistic-locking UPDATE is sent once: a second try would find the lock moved on and fail as stale", async () => {
    const { id } = await LockedDocument.createOrThrow({ title: "a" });
    const { calls, outcome } = await onFlaky(timing, () => LockedDocument.find(id), (document) => document.updateOrThrow({ title: "b" }));
    expect(outcome).toBeInstanceOf(UnconfirmedWrite);
    expect(calls).toHaveLength(1);
    expect(await rowsOf(`SELECT title, lock_version FROM locked_documents WHERE id = ${id}`)).toEqual([
      timing === "after" ? { title: "b", lock_version: 1 } : { title: "a", lock_version: 0 },
    ]);
  });
});

describe("a retried create that finds another row under its key", () => {
  it("raises RecordNotUnique as a first try would, and rolls back the batch that holds it", async () => {
    await env.DB.prepare("INSERT INTO notes (id, body) VALUES ('n1', 'theirs')").run();
    const { db } = flaky("before");
    const error = await rejectionOf(withDatabase(db, () => Note.createOrThrow({ id: "n1", body: "mine" })));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(error.message).toBe("Note.id has already been taken (notes.id must be unique)");
    const batched = await rejectionOf(withDatabase(db, () => db.batch([User.build({ name: "Bo" }).toSave(), Note.build({ id: "n1", body: "mine too" }).toSave()])));
    expect(batched).toBeInstanceOf(RecordNotUnique);
    expect(await rowsOf("SELECT id, body FROM notes")).toEqual([{ id: "n1", body: "theirs" }]);
    expect(await rowsOf("SELECT id FROM users")).toEqual([]);
  });

  it("takes a row equal in every column written as its own, and compares as many columns as a table has", async () => {
    await env.DB.prepare("INSERT INTO notes (id, body) VALUES ('n1', 'same')").run();
    const { db, calls } = flaky("before");
    const note = await withDatabase(db, () => Note.createOrThrow({ id: "n1", body: "same" }));
    expect(note.body).toBe("same");
    expect(calls).toHaveLength(2);
    expect(await rowsOf("SELECT id, body FROM notes")).toEqual([{ id: "n1", body: "same" }]);
  });
});
