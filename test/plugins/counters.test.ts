import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  auditLog,
  batch,
  column,
  connect,
  defineApplicationRecord,
  Model,
  RecordNotFound,
  softDelete,
  sql,
  UnknownAttribute,
  withDatabase,
  withTenant,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { failingFirstTries } from "../helpers/transient-d1.js";
import { TenantList } from "../models/counted-comments.js";
import { Counter, schema, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

/** Posts that soft-delete, with a nullable counter (`repliesCount`), on the table of migration 0085. */
class Post extends Model({
  id: { type: "string", null: false },
  title: "string",
  commentsCount: { type: "integer", null: false },
  repliesCount: "integer",
  deletedAt: "datetime",
}) {
  static override binding = "DB";
  static override tableName = "cc_posts";
  static {
    this.use(softDelete);
  }
}

/** Counters whose every write is audited. */
class AuditedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(auditLog);
  }
}
class AuditedCounter extends defineApplicationRecord(schema, AuditedBase)("counters") {}

/** A counter's value as D1 holds it. */
const valueOf = async (id: number) => (await env.DB.prepare("SELECT value FROM counters WHERE id = ?").bind(id).first<{ value: number }>())!.value;

async function seedCounters(...values: number[]): Promise<void> {
  await env.DB.batch(values.map((value, index) => env.DB.prepare("INSERT INTO counters (id, label, value) VALUES (?, ?, ?)").bind(index + 1, `c${index + 1}`, value)));
}

describe("guide: Bulk writes, sql fragments in updateAll", () => {
  it("sets a column to what the database computes for each row, binding the fragment's values where they stand", async () => {
    await seedCounters(1, 2, 3);
    const { db, events } = listen({ models: { Counter } });
    const changed = await db.model(Counter).where({ label: ["c1", "c2"] }).updateAll({ value: sql`${column("value")} * ${10} + ${1}`, label: "x" });
    expect(changed).toBe(2);
    expect(events.map((event) => event.sql)).toEqual([
      `UPDATE "counters" SET "value" = ("value" * ?1 + ?2), "label" = ?3 WHERE "label" IN (SELECT value FROM json_each(?4))`,
    ]);
    expect(events[0]!.params).toEqual([10, 1, "x", `["c1","c2"]`]);
    expect([await valueOf(1), await valueOf(2), await valueOf(3)]).toEqual([11, 21, 3]);
  });

  it("does not cast a fragment's value: the database stores what the expression gives", async () => {
    const ada = await User.createOrThrow({ name: "Ada", age: 36 });
    // Cast, "thirty" would be refused for an integer attribute; as a fragment, SQLite keeps the text it is given.
    await expect(User.where({ id: ada.id }).updateAll({ age: "thirty" as never })).rejects.toThrow(/age/);
    await User.where({ id: ada.id }).updateAll({ age: sql`${"thirty"}` });
    expect(await env.DB.prepare("SELECT age FROM users").first("age")).toBe("thirty");
  });

  it("binds past D1's limit of 100 parameters: a fragment's values beyond the first 90 go in one JSON value", async () => {
    await seedCounters(0);
    const terms = Array.from({ length: 95 }, () => sql`${1}`);
    const sum = terms.slice(1).reduce((total, term) => sql`${total} + ${term}`, terms[0]!);
    const { db, events } = listen({ models: { Counter } });
    // The sum nests as deep as it is long: SQLite's expression depth is the app's to keep within 100.
    await db.model(Counter).where({ id: 1 }).updateAll({ value: sum });
    expect(events[0]!.params.length).toBeLessThanOrEqual(100);
    expect(await valueOf(1)).toBe(95);
  });

  it("keeps within the Relation's default scopes, and the write's plugins see it (an audit entry for each row)", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO cc_posts (id, title, comments_count, deleted_at) VALUES ('kept', 'k', 1, NULL)"),
      env.DB.prepare("INSERT INTO cc_posts (id, title, comments_count, deleted_at) VALUES ('gone', 'g', 1, '2024-01-01T00:00:00.000Z')"),
    ]);
    expect(await Post.all().updateAll({ commentsCount: sql`${column("commentsCount")} + 1` })).toBe(1);
    const { results } = await env.DB.prepare("SELECT id, comments_count AS n FROM cc_posts ORDER BY id").all();
    expect(results).toEqual([
      { id: "gone", n: 1 },
      { id: "kept", n: 2 },
    ]);
    await seedCounters(1, 2);
    expect(await AuditedCounter.all().updateAll({ value: sql`${column("value")} + 1` })).toBe(2);
    const entries = await env.DB.prepare("SELECT model, operation, record_key FROM audit_log_entries ORDER BY record_key").all();
    expect(entries.results).toEqual([
      { model: "AuditedCounter", operation: "updateAll", record_key: 1 },
      { model: "AuditedCounter", operation: "updateAll", record_key: 2 },
    ]);
  });

  it("reaches only the current tenant's rows, and refuses a fragment for the tenant attribute", async () => {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO cc_lists (id, tenant_id, name, tasks_count) VALUES ('a', 'acme', 'a', 0), ('b', 'other', 'b', 0)"),
    ]);
    await withTenant("acme", async () => {
      expect(await TenantList.all().updateAll({ tasksCount: sql`${column("tasksCount")} + 5` })).toBe(1);
      await expect(TenantList.all().updateAll({ tenantId: sql`'other'` })).rejects.toThrow(/TenantList\.updateAll: tenantId .* is not the current tenant/);
    });
    const { results } = await env.DB.prepare("SELECT id, tasks_count AS n FROM cc_lists ORDER BY id").all();
    expect(results).toEqual([
      { id: "a", n: 5 },
      { id: "b", n: 0 },
    ]);
  });
});

describe("guide: Counters, updateCounters", () => {
  it("adds to each counter in ONE statement and round trip, the keys bound as one list, NULL counting as 0", async () => {
    const ada = await User.createOrThrow({ name: "Ada" });
    const bob = await User.createOrThrow({ name: "Bob", age: 40 });
    const { db, events } = listen({ models: { User } });
    expect(await db.model(User).updateCounters([ada.id, bob.id], { age: 2 })).toBe(2);
    expect(events.map((event) => event.sql)).toEqual([
      `UPDATE "users" SET "age" = (COALESCE("age", 0) + ?1) WHERE "id" IN (SELECT value FROM json_each(?2))`,
    ]);
    expect(events.map((event) => event.roundTrip)).toEqual([1]);
    expect((await User.find(ada.id)).age).toBe(2);
    expect((await User.find(bob.id)).age).toBe(42);
  });

  it("takes away with a negative change, changes several counters at once, and resolves to the rows changed (0 for none)", async () => {
    await seedCounters(10, 10);
    const posts = [{ id: "p", title: "p", commentsCount: 5, repliesCount: null }];
    await Post.insertAll(posts);
    expect(await Counter.updateCounters(1, { value: -3 })).toBe(1);
    expect(await Post.updateCounters("p", { commentsCount: -2, repliesCount: 4 })).toBe(1);
    expect(await Counter.updateCounters([], { value: 1 })).toBe(0);
    expect(await Counter.updateCounters(99, { value: 1 })).toBe(0);
    expect([await valueOf(1), await valueOf(2)]).toEqual([7, 10]);
    expect(await env.DB.prepare("SELECT comments_count AS c, replies_count AS r FROM cc_posts").first()).toEqual({ c: 3, r: 4 });
  });

  it("binds any number of keys as one value: 500 keys, two parameters", async () => {
    await seedCounters(...Array.from({ length: 500 }, () => 0));
    const ids = Array.from({ length: 500 }, (_, index) => index + 1);
    const { db, events } = listen({ models: { Counter } });
    expect(await db.model(Counter).updateCounters(ids, { value: 1 })).toBe(500);
    expect(events[0]!.params).toHaveLength(2);
  });

  it("loses nothing under concurrent changes: in parallel, and several in one batch", async () => {
    await seedCounters(0);
    await Promise.all(Array.from({ length: 20 }, () => Counter.updateCounters(1, { value: 1 })));
    expect(await valueOf(1)).toBe(20);
    const { db, events } = listen({ models: { Counter } });
    const results = await db.batch(Array.from({ length: 5 }, () => db.model(Counter).toUpdateCounters(1, { value: 2 })));
    expect(results).toEqual([1, 1, 1, 1, 1]);
    expect(new Set(events.map((event) => event.roundTrip)).size).toBe(1);
    expect(await valueOf(1)).toBe(30);
  });

  it("goes in one atomic batch with other writes: when one fails, the counter keeps its value", async () => {
    await seedCounters(0);
    await batch([Counter.toUpdateCounters(1, { value: 1 }), Counter.toInsert({ id: 2, value: 0 })]);
    expect(await valueOf(1)).toBe(1);
    // A second row with key 2 breaks the primary key: the counter's UPDATE is rolled back with it.
    await expect(batch([Counter.toUpdateCounters(1, { value: 1 }), Counter.toInsert({ id: 2, value: 0 })])).rejects.toThrow();
    expect(await valueOf(1)).toBe(1);
  });

  it("reaches rows whatever the default scopes (a soft-deleted row too, as Rails' unscoped), but only the tenant's", async () => {
    await env.DB.prepare("INSERT INTO cc_posts (id, title, comments_count, deleted_at) VALUES ('gone', 'g', 1, '2024-01-01T00:00:00.000Z')").run();
    expect(await Post.updateCounters("gone", { commentsCount: 1 })).toBe(1);
    expect(await env.DB.prepare("SELECT comments_count AS n FROM cc_posts").first("n")).toBe(2);
    await env.DB.prepare("INSERT INTO cc_lists (id, tenant_id, name, tasks_count) VALUES ('a', 'acme', 'a', 0), ('b', 'other', 'b', 0)").run();
    expect(await withTenant("acme", () => TenantList.updateCounters(["a", "b"], { tasksCount: 1 }))).toBe(1);
    const { results } = await env.DB.prepare("SELECT id, tasks_count AS n FROM cc_lists ORDER BY id").all();
    expect(results).toEqual([
      { id: "a", n: 1 },
      { id: "b", n: 0 },
    ]);
  });

  it("touch: true also sets updatedAt, in the same statement", async () => {
    const ada = await User.createOrThrow({ name: "Ada", age: 1 });
    const before = ada.updatedAt;
    const { db, events } = listen({ models: { User } });
    await db.model(User).updateCounters(ada.id, { age: 1 }, { touch: true });
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^UPDATE "users" SET "age" = \(COALESCE\("age", 0\) \+ \?1\), "updated_at" = \?2 WHERE/);
    const reloaded = await User.find(ada.id);
    expect(reloaded.age).toBe(2);
    expect(reloaded.updatedAt.getTime()).toBeGreaterThan(before.getTime());
  });

  it("refuses bad input naming the Model and attribute, before any query", async () => {
    const { db, events } = listen({ models: { User, Counter } });
    const { User: U, Counter: C } = { User: db.model(User), Counter: db.model(Counter) };
    const error = await rejectionOf(U.updateCounters("x", { rank: 1 } as never));
    expect(error).toBeInstanceOf(UnknownAttribute);
    expect(error.message).toBe(`User.updateCounters: User has no attribute "rank"`);
    await expect(U.updateCounters("x", { score: 1 })).rejects.toThrow(new TypeError("User.updateCounters: User.score is a real attribute; a counter is an integer attribute"));
    await expect(U.updateCounters("x", { name: 1 } as never)).rejects.toThrow(/User\.name is a string attribute/);
    await expect(C.updateCounters(1, { value: 1.5 })).rejects.toThrow(new TypeError("Counter.updateCounters: the change of Counter.value is a whole number, not 1.5"));
    await expect(C.updateCounters(1, { value: "1" as never })).rejects.toThrow(/Counter\.value is a whole number, not "1"/);
    await expect(C.updateCounters(1, { value: Number.NaN })).rejects.toThrow(/whole number, not NaN/);
    await expect(C.updateCounters(1, {})).rejects.toThrow("Counter.updateCounters needs at least one counter to change");
    await expect(C.updateCounters(1, null as never)).rejects.toThrow(/Counter\.updateCounters takes an object of integer attributes/);
    await expect(C.updateCounters(undefined, { value: 1 })).rejects.toThrow("Counter.updateCounters takes a key or a list of keys, not undefined");
    // What is no key would change no row and resolve to 0, saying nothing: refused as undefined is.
    await expect(C.updateCounters(null as never, { value: 1 })).rejects.toThrow("Counter.updateCounters takes a key or a list of keys, not null");
    await expect(C.updateCounters([{}], { value: 1 })).rejects.toThrow("Counter.updateCounters takes a key or a list of keys, not [{…}]");
    await expect(C.updateCounters([[1]], { value: 1 })).rejects.toThrow("Counter.updateCounters takes a key or a list of keys, not [[…]]");
    await expect(C.updateCounters([1, null], { value: 1 })).rejects.toThrow(/takes a key or a list of keys, not \[1, null\]/);
    await expect(C.updateCounters(1, { value: 1 }, { nope: true } as never)).rejects.toThrow(`Counter.updateCounters: options: "nope" is not an option; the options are touch`);
    await expect(C.updateCounters(1, { value: 1 }, { touch: true })).rejects.toThrow("Counter.updateCounters: touch sets updatedAt, and Counter has no updatedAt timestamp");
    await expect(C.updateCounters(1, { value: 1 }, { touch: "yes" as never })).rejects.toThrow(/Counter\.updateCounters: touch takes true or false/);
    expect(() => C.toUpdateCounters(1, { value: 0.5 })).toThrow(/Counter\.toUpdateCounters: the change of Counter\.value/);
    expect(events).toHaveLength(0);
  });

  it("is never sent again after a transient error: a counter update is not idempotent", async () => {
    await seedCounters(0);
    expect(Counter.toUpdateCounters(1, { value: 1 }).idempotent).toBe(false);
    // A binding of its own for each call, whose first try of each SQL text fails after D1 committed it.
    const sent: string[][] = [];
    const flaky = () => {
      const { binding, calls } = failingFirstTries(env.DB, "after");
      return { db: connect(binding, { retries: { delayMs: 0 } }), calls };
    };
    const tried = async (work: (db: ReturnType<typeof connect>) => Promise<unknown>) => {
      const { db, calls } = flaky();
      await expect(withDatabase(db, () => work(db))).rejects.toThrow("Network connection lost");
      sent.push(...calls);
    };
    await tried(() => Counter.updateCounters(1, { value: 1 }));
    await tried((db) => db.batch([db.model(Counter).toUpdateCounters(1, { value: 1 }), db.model(Counter).all().toSelect()]));
    const counter = await Counter.find(1);
    await tried(() => counter.incrementAndSave("value"));
    expect(sent).toHaveLength(3);
    // Each failed after D1 committed it: added once each, never twice.
    expect(await valueOf(1)).toBe(3);
  });
});

describe("guide: Counters, on a record", () => {
  it("increment and decrement change the attribute in memory, a change to save; NULL counts as 0", async () => {
    const ada = User.build({ name: "Ada" });
    expect(ada.increment("age")).toBe(ada);
    expect(ada.age).toBe(1);
    ada.increment("age", 5).decrement("age", 2);
    expect(ada.age).toBe(4);
    expect(ada.isAttributeChanged("age")).toBe(true);
    expect(() => ada.increment("score" as never)).toThrow(new TypeError("User#increment: User.score is a real attribute; a counter is an integer attribute"));
    expect(() => ada.decrement("age", 0.5)).toThrow(new TypeError("User#decrement: the change of User.age is a whole number, not 0.5"));
    expect(() => ada.increment("rank" as never)).toThrow(UnknownAttribute);
  });

  it("refuse an argument past those they take: increment's touch option (incrementAndSave's) was ignored", async () => {
    const ada = await User.createOrThrow({ name: "Ada", age: 1 });
    const increment = ada.increment as (...args: unknown[]) => unknown;
    expect(() => increment.call(ada, "age", 1, { touch: true })).toThrow(new TypeError("User#increment takes 2 arguments, not 3; incrementAndSave writes the row"));
    expect(() => (ada.decrement as (...args: unknown[]) => unknown).call(ada, "age", 1, {})).toThrow(/^User#decrement takes 2 arguments, not 3/);
    const andSave = ada.incrementAndSave as (...args: unknown[]) => Promise<unknown>;
    await expect(andSave.call(ada, "age", 1, { touch: true }, 5)).rejects.toThrow(new TypeError("User#incrementAndSave takes 3 arguments, not 4"));
    expect(ada.age).toBe(1);
    expect((await User.find(ada.id)).age).toBe(1);
  });

  it("incrementAndSave adds in the database by the stored key, in one statement with no read, and holds the sum as saved", async () => {
    await seedCounters(5);
    const counter = await Counter.find(1);
    const other = await Counter.find(1);
    const { db, events } = listen({ models: { Counter } });
    await withDatabase(db, async () => {
      expect(await counter.incrementAndSave("value", 2)).toBe(counter);
      // A copy loaded before it adds to the row as it now stands: nothing is lost.
      await other.decrementAndSave("value");
    });
    expect(events.map((event) => event.sql)).toEqual([
      `UPDATE "counters" SET "value" = (COALESCE("value", 0) + ?1) WHERE "id" = ?2`,
      `UPDATE "counters" SET "value" = (COALESCE("value", 0) + ?1) WHERE "id" = ?2`,
    ]);
    expect(events.map((event) => event.params)).toEqual([
      [2, 1],
      [-1, 1],
    ]);
    expect([counter.value, other.value]).toEqual([7, 4]);
    expect(counter.isChanged()).toBe(false);
    expect(await valueOf(1)).toBe(6);
  });

  it("writes by the key as stored, writes an unsaved change of the counter too (Rails' increment!), and keeps other changes", async () => {
    await seedCounters(5, 0);
    const counter = await Counter.find(1);
    counter.id = 2;
    counter.value = 10;
    counter.label = "renamed";
    await counter.incrementAndSave("value");
    expect(counter.value).toBe(11);
    expect(counter.isAttributeChanged("value")).toBe(false);
    expect(counter.changed().sort()).toEqual(["id", "label"]);
    expect([await valueOf(1), await valueOf(2)]).toEqual([11, 0]);
  });

  it("runs no validations or callbacks, touches updatedAt when asked, and refuses a new record or a row that is gone", async () => {
    const calls: string[] = [];
    class Member extends defineApplicationRecord(schema, class extends ActiveRecord {
      static override binding = "DB";
    })("users") {
      static {
        this.validates("email", { presence: true });
        this.beforeSave(() => void calls.push("beforeSave"));
      }
    }
    const id = (await User.createOrThrow({ name: "Ada" })).id;
    const member = await Member.find(id);
    const stamped = member.updatedAt;
    await expect(member.incrementAndSave("age", 3, { touch: true, nope: 1 } as never)).rejects.toThrow(
      `Member#incrementAndSave: options: "nope" is not an option; the options are touch`,
    );
    expect(member.age).toBeNull();
    await member.incrementAndSave("age", 3, { touch: true });
    expect(calls).toEqual([]);
    expect(member.age).toBe(3);
    expect(member.updatedAt.getTime()).toBeGreaterThan(stamped.getTime());
    expect(member.isChanged()).toBe(false);
    expect((await Member.find(id)).updatedAt).toEqual(member.updatedAt);
    await expect(Member.build({ name: "new" }).incrementAndSave("age")).rejects.toThrow(
      new TypeError("Member#incrementAndSave: the record is new and has no row to change; save it first"),
    );
    await User.where({ id }).deleteAll();
    const error = await rejectionOf(member.decrementAndSave("age"));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).toMatch(/^Member#decrementAndSave: Member with id ".*" has no row to change/);
    expect(member.age).toBe(3);
  });

  it("refuses another tenant's row: nothing changes, RecordNotFound", async () => {
    await env.DB.prepare("INSERT INTO cc_lists (id, tenant_id, name, tasks_count) VALUES ('b', 'other', 'b', 0)").run();
    const list = await withTenant("other", () => TenantList.find("b"));
    await expect(withTenant("acme", () => list.incrementAndSave("tasksCount"))).rejects.toThrow(RecordNotFound);
    expect(await env.DB.prepare("SELECT tasks_count AS n FROM cc_lists").first("n")).toBe(0);
  });
});
