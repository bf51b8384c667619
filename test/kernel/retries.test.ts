import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, connect, type QueryEvent, QueryBudgetExceeded, RecordNotUnique, sql, StaleObject, UnconfirmedWrite, withDatabase, withTenant } from "../../src/index.js";
import { defineStatement, markGeneratedKey } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { failingFirstTries, transientError } from "../helpers/transient-d1.js";
import { Counter, Note, User } from "../models/fixtures.js";
import { ArchivableNote, PurgedBoard } from "../models/archivable-notes.js";
import { countedComments } from "../models/counted-comments.js";
import { LockedDocument } from "../models/locked-documents.js";
import { TenantTask } from "../models/tenant-tasks.js";

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

  it("leading comments, EXPLAIN and a PRAGMA that only reads are reads; a WITH ... INSERT and a PRAGMA that sets are not", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const { db, calls } = flaky("before");
    const reads = [
      "-- the counter to update\n/* one row */ SELECT value FROM counters WHERE id = 1",
      "EXPLAIN QUERY PLAN DELETE FROM counters WHERE id = 1",
      "PRAGMA table_info(counters)",
      "SELECT replace('a', 'a', 'b') AS b",
    ];
    for (const text of reads) await db.run(defineStatement({ sql: text }));
    expect(calls).toHaveLength(2 * reads.length);
    const inserting = defineStatement({ sql: "/* copy */ WITH one AS (SELECT 2 AS id, 0 AS value) INSERT INTO counters SELECT * FROM one", result: "meta" });
    await expect(db.run(inserting)).rejects.toThrow(UnconfirmedWrite);
    await expect(db.run(defineStatement({ sql: "PRAGMA defer_foreign_keys = ON", result: "meta" }))).rejects.toThrow(UnconfirmedWrite);
    expect(calls).toHaveLength(2 * reads.length + 2);
  });

  it("bad retry options and a non-boolean idempotent are refused naming the option", () => {
    expect(() => connect(env.DB, { retries: { attemps: 3 } as object })).toThrow(`connect: retries: "attemps" is not an option; the options are attempts, delayMs`);
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

/** What a write sent once leaves: UnconfirmedWrite naming the Model, D1's error its cause, one try. */
function expectSentOnce({ calls, events, outcome }: { calls: string[][]; events: readonly QueryEvent[]; outcome: unknown }, model: string) {
  expect(outcome).toBeInstanceOf(UnconfirmedWrite);
  expect((outcome as Error).message).toMatch(new RegExp(`^${model}: D1 failed with a transient error \\(D1_ERROR: Network connection lost\\.\\)`));
  expect(((outcome as Error).cause as Error).message).toBe("D1_ERROR: Network connection lost.");
  expect(calls).toHaveLength(1);
  expect(tries(events)).toEqual([1]);
}

describe.each(["before", "after"] as const)("the library's own writes, failing once %s D1 ran them", (timing) => {
  const committed = timing === "after";

  it("a create of a key id generation made is sent again with ON CONFLICT (key) DO UPDATE: one row, the record loaded from it", async () => {
    const { calls, events, outcome } = await onFlaky(timing, async () => undefined, async () => {
      const user = await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
      expect(user.isPersisted()).toBe(true);
      const [row] = await rowsOf("SELECT id, name, email, created_at FROM users");
      expect(row).toEqual({ id: user.id, name: "Ada", email: "ada@example.com", created_at: user.createdAt!.toISOString() });
    });
    expect(outcome).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[0]![0]).not.toContain("ON CONFLICT");
    expect(calls[1]![0]).toMatch(/ VALUES \(.*\) ON CONFLICT \("id"\) DO UPDATE SET "id" = excluded\."id" WHERE \("id", .*\) IS \(excluded\."id", .*\) RETURNING \*$/);
    expect(tries(events)).toEqual([1, 2]);
  });

  it("a planned create (a tenant's) of a generated key is sent again too", async () => {
    await env.DB.prepare("INSERT INTO guide_projects (id, tenant_id, name, created_at, updated_at) VALUES ('p', 'acme', 'P', 'x', 'x')").run();
    const { calls, events, outcome } = await onFlaky(timing, async () => undefined, () =>
      withTenant("acme", () => TenantTask.createOrThrow({ projectId: "p", title: "t" })),
    );
    expect(outcome).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(tries(events)).toEqual([1, 2]);
    expect(await rowsOf("SELECT tenant_id, title FROM guide_tasks")).toEqual([{ tenant_id: "acme", title: "t" }]);
  });

  it("a generated key that repeats another tenant's row: the retry neither takes nor reads that row; RecordNotUnique, nothing written", async () => {
    await env.DB.prepare("INSERT INTO guide_projects (id, tenant_id, name, created_at, updated_at) VALUES ('p', 'acme', 'P', 'x', 'x')").run();
    await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('b1', 'globex', 'p', 'Globex secret')").run();
    // An app's generateId that repeats keys (a short random one, a slug): here always globex's.
    class RepeatingTask extends TenantTask {
      static override generateId = () => "b1";
    }
    const task = withTenant("acme", () => RepeatingTask.build({ projectId: "p", title: "mine" }));
    const { events, outcome } = await onFlaky(timing, async () => undefined, () => withTenant("acme", () => task.saveOrThrow()));
    expect(outcome).toBeInstanceOf(RecordNotUnique);
    expect((outcome as Error).message).toMatch(/^RepeatingTask\.id has already been taken/);
    expect([task.isNewRecord(), task.title, task.tenantId]).toEqual([true, "mine", "acme"]);
    expect(events.every((event) => !JSON.stringify(event).includes("Globex secret"))).toBe(true);
    expect(await rowsOf("SELECT id, tenant_id, title FROM guide_tasks")).toEqual([{ id: "b1", tenant_id: "globex", title: "Globex secret" }]);
  });

  it("a batch whose retried INSERT finds another tenant's row under its generated key: that record alone is put back, the others are written", async () => {
    await env.DB.prepare("INSERT INTO guide_projects (id, tenant_id, name, created_at, updated_at) VALUES ('p', 'acme', 'P', 'x', 'x')").run();
    await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('b1', 'globex', 'p', 'Globex secret')").run();
    class RepeatingTask extends TenantTask {
      static override generateId = () => "b1";
    }
    const [other, task] = withTenant("acme", () => [TenantTask.build({ projectId: "p", title: "other" }), RepeatingTask.build({ projectId: "p", title: "mine" })]);
    const { outcome } = await onFlaky(timing, async () => undefined, () => withTenant("acme", () => batch([other.toSave(), task.toSave()])));
    expect(outcome).toBeInstanceOf(RecordNotUnique);
    expect([task.isNewRecord(), task.title, task.tenantId]).toEqual([true, "mine", "acme"]);
    // Sent again only when D1 had not run the first try; the first try D1 ran failed whole on the repeated key.
    const written = !committed;
    expect(other.isPersisted()).toBe(written);
    expect(await rowsOf("SELECT id, tenant_id, title FROM guide_tasks ORDER BY title")).toEqual([
      { id: "b1", tenant_id: "globex", title: "Globex secret" },
      ...(written ? [{ id: other.id, tenant_id: "acme", title: "other" }] : []),
    ]);
  });

  it("a create of a key the app assigned is sent once: the row may be another's, which a retry would take for its own", async () => {
    const given = await onFlaky(timing, async () => undefined, () => Note.createOrThrow({ id: "n1", body: "mine" }));
    expectSentOnce(given, "Note");
    expect(await rowsOf("SELECT id, body FROM notes")).toEqual(committed ? [{ id: "n1", body: "mine" }] : []);
  });

  it("a generated key the app replaced before saving is the app's: sent once", async () => {
    const replaced = await onFlaky(timing, async () => undefined, () => {
      const note = Note.build({ body: "mine" });
      note.id = "n2";
      return note.saveOrThrow();
    });
    expectSentOnce(replaced, "Note");
    expect(await rowsOf("SELECT id FROM notes")).toEqual(committed ? [{ id: "n2" }] : []);
  });

  it("a create whose key the database numbers is sent once", async () => {
    const numbered = await onFlaky(timing, async () => undefined, () => Counter.createOrThrow({ label: "a", value: 1 }));
    expectSentOnce(numbered, "Counter");
    expect(await rowsOf("SELECT label FROM counters")).toEqual(committed ? [{ label: "a" }] : []);
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
    const { calls, events, outcome } = await onFlaky(timing, () => User.find(id), async (user) => {
      await user.destroyOrThrow();
      expect(user.isDestroyed()).toBe(true);
    });
    expect(outcome).toBeUndefined();
    expect(calls.map((call) => call[0]!.split(" ")[0])).toEqual(["DELETE", "DELETE"]);
    expect(tries(events)).toEqual([1, 2]);
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
    for (const { calls, events, outcome } of [updated, deleted]) {
      expect(outcome).toBeUndefined();
      expect(calls).toHaveLength(2);
      expect(tries(events)).toEqual([1, 2]);
    }
    expect(await rowsOf("SELECT id FROM archivable_notes")).toEqual([{ id: 3 }]);
    await env.DB.prepare("INSERT INTO archivable_notes (id, title) VALUES (4, 'd'), (5, 'e')").run();
    const paged = await onFlaky(timing, async () => undefined, () => ArchivableNote.order({ id: "asc" }).limit(1).deleteAll());
    const fragment = await onFlaky(timing, async () => undefined, () => ArchivableNote.where(sql`id = 4`).updateAll({ title: "x" }));
    for (const once of [paged, fragment]) expectSentOnce(once, "ArchivableNote");
    expect(await rowsOf("SELECT id, title FROM archivable_notes ORDER BY id")).toEqual([
      ...(committed ? [] : [{ id: 3, title: "c" }]),
      { id: 4, title: committed ? "x" : "d" },
      { id: 5, title: "e" },
    ]);
  });

  it("an sql fragment among updateAll's values (`n = n + 1`) is sent once: added to once at most", async () => {
    await Counter.createOrThrow({ id: 1, value: 0 });
    const incremented = await onFlaky(timing, async () => undefined, () => Counter.where({ id: 1 }).updateAll({ value: sql`value + 1` }));
    expectSentOnce(incremented, "Counter");
    expect(await counterValue(1)).toBe(committed ? 1 : 0);
  });

  it("a create with counter caches (`n = n + 1`) is sent once: each counter added to once at most", async () => {
    const { User: Author, Post, Comment } = countedComments();
    const ada = await Author.createOrThrow({ name: "ada" });
    const post = await Post.createOrThrow({ ccUserId: ada.id, title: "a" });
    const counted = await onFlaky(timing, async () => undefined, () => Comment.createOrThrow({ ccPostId: post.id, ccUserId: ada.id, body: "hi" }));
    expectSentOnce(counted, "Comment");
    const count = committed ? 1 : 0;
    expect(await rowsOf("SELECT comments_count AS n FROM cc_posts")).toEqual([{ n: count }]);
    expect(await rowsOf("SELECT count(*) AS n FROM cc_comments")).toEqual([{ n: count }]);
  });

  it("an optimistic-locking UPDATE is sent once: no StaleObject for its own committed try, and the record's next save cannot write over the row", async () => {
    const { id } = await LockedDocument.createOrThrow({ title: "a" });
    let document!: LockedDocument;
    const locked = await onFlaky(timing, async () => (document = (await LockedDocument.find(id))!), (loaded) => loaded.updateOrThrow({ title: "b" }));
    expectSentOnce(locked, "LockedDocument");
    expect(document.lockVersion).toBe(0);
    // The record still holds the lock it read: saving it again writes only if the first try did not commit.
    const again = await document.updateOrThrow({ title: "c" }).then(() => undefined, (error: unknown) => error);
    if (committed) expect(again).toBeInstanceOf(StaleObject);
    else expect(again).toBeUndefined();
    expect(await rowsOf(`SELECT title, lock_version FROM locked_documents WHERE id = ${id}`)).toEqual([{ title: committed ? "b" : "c", lock_version: 1 }]);
  });

  it("a batch is sent again only when every write in it is: a generated key's create with an UPDATE by key, not with an app key's create", async () => {
    const { id } = await User.createOrThrow({ name: "Ada" });
    const safe = await onFlaky(timing, () => User.find(id), async (user) => {
      user.name = "Grace";
      await batch([Note.build({ body: "generated" }).toSave(), user.toSave()]);
    });
    expect(safe.outcome).toBeUndefined();
    expect(safe.calls.map((call) => call.length)).toEqual([2, 2]);
    expect(tries(safe.events)).toEqual([1, 2]);
    expect(await rowsOf("SELECT body FROM notes")).toEqual([{ body: "generated" }]);
    expect(await rowsOf("SELECT name FROM users")).toEqual([{ name: "Grace" }]);
    const mixed = await onFlaky(timing, async () => undefined, () => batch([Note.build({ body: "generated too" }).toSave(), Note.build({ id: "n1", body: "given" }).toSave()]));
    expectSentOnce(mixed, "Note");
    expect(await rowsOf("SELECT body FROM notes ORDER BY body")).toEqual([{ body: "generated" }, ...(committed ? [{ body: "generated too" }, { body: "given" }] : [])]);
  });
});

describe("markGeneratedKey", () => {
  it("refuses a saved record and a NULL key, naming the Model", async () => {
    const note = await Note.createOrThrow({ body: "b" });
    expect(() => markGeneratedKey(note)).toThrow(new TypeError("Note: markGeneratedKey marks the key of a new record; this one was saved"));
    const counter = Counter.build({ label: "a", value: 1 });
    expect(() => markGeneratedKey(counter)).toThrow(new TypeError("Counter: markGeneratedKey marks a generated id; it is NULL"));
  });
});
