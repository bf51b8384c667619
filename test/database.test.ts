/**
 * Databases and writes to them (SPEC.md "Connection", "Events" item 1, "Errors", "Building and creating"
 * permit rules, batches under "States and transitions"). Every test runs on a fresh database.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { batch, column, connect, gt, Model, NoDatabase, type QueryEvent, RecordNotFound, RecordNotUnique, type D1DatabaseLike, sql, UnknownAttribute, withDatabase } from "../src/index.js";
import { countStatement, type Relation } from "../src/plugin.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { countRows, listen } from "./helpers/queries.js";
import { Counter, User } from "./models/fixtures.js";
import { Account, Session } from "./models/lifecycle-fixtures.js";

beforeEach(resetDatabase);

// ---- helpers ----------------------------------------------------------------------------------------

const FILTERED = "[FILTERED]";

/** Everything an event's params show, as text, to look for leaked values. */
function shown(event: QueryEvent): string {
  return JSON.stringify(event.params);
}

async function rowOf(table: string, id: unknown, key = "id"): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).bind(id).first();
}

/**
 * A D1 binding that forwards everything to the real one and counts round trips: each `batch` call, and each
 * statement run on its own (`run`, `all`, `first`, `raw`).
 */
function countingBinding(d1: D1Database) {
  const calls = { batch: 0, single: 0 };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["run", "all", "first", "raw"]) {
      const original = target[method]!;
      target[method] = (...args: unknown[]) => {
        calls.single++;
        return original.apply(statement, args);
      };
    }
    const bind = target["bind"]!;
    target["bind"] = (...args: unknown[]) => wrap(bind.apply(statement, args) as D1PreparedStatement);
    return statement;
  };
  const binding: D1DatabaseLike = {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: (statements) => {
      calls.batch++;
      return d1.batch(statements as D1PreparedStatement[]) as never;
    },
  };
  return { calls, binding };
}

/**
 * A D1 binding that forwards everything to the real one but reports its own `meta.duration` for each result (local
 * D1 reports 0): 1.5 ms for the first result, 2.5 for the second, and so on, in `durations` as reported.
 */
function timingBinding(d1: D1Database) {
  const durations: number[] = [];
  const report = <T extends D1Result>(result: T): T => {
    const duration = 1.5 + durations.length;
    durations.push(duration);
    return { ...result, meta: { ...result.meta, duration } };
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const target = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const method of ["run", "all"]) {
      const original = target[method]!;
      target[method] = async (...args: unknown[]) => report((await original.apply(statement, args)) as D1Result);
    }
    const bind = target["bind"]!;
    target["bind"] = (...args: unknown[]) => wrap(bind.apply(statement, args) as D1PreparedStatement);
    return statement;
  };
  const binding: D1DatabaseLike = {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: async (statements) => (await d1.batch(statements as D1PreparedStatement[])).map(report) as never,
  };
  return { durations, binding };
}

// ---- connect and query events -------------------------------------------------------------------------

describe("connect and query events", () => {
  it("sends one event per query, with sql, params, durationMs, rowsRead and rowsWritten", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", age: 36 });
    expect(events).toHaveLength(1);
    const insert = events[0]!;
    expect(insert.sql).toMatch(/^INSERT INTO "users"/);
    expect(insert.params).toContain("Ada");
    expect(insert.params).toContain(36);
    expect(insert.params).toContain(user.id);
    expect(typeof insert.durationMs).toBe("number");
    expect(Number.isFinite(insert.durationMs)).toBe(true);
    expect(insert.durationMs).toBeGreaterThanOrEqual(0);
    expect(insert.rowsWritten).toBeGreaterThan(0);
    expect(typeof insert.rowsRead).toBe("number");

    await db.model(User).find(user.id);
    expect(events).toHaveLength(2);
    const select = events[1]!;
    expect(select.sql).toMatch(/^SELECT .* FROM "users"/);
    expect(select.params).toEqual([user.id]);
    expect(select.rowsRead).toBeGreaterThanOrEqual(1);
    expect(select.rowsWritten).toBe(0);
    expect(typeof select.durationMs).toBe("number");
  });

  it("durationMs is the duration D1 reports for each query, alone or in a batch", async () => {
    const { durations, binding } = timingBinding(env.DB);
    const events: QueryEvent[] = [];
    const db = connect(binding, { onQuery: (event) => events.push(event) });
    const user = await db.model(User).create({ name: "Ada" });
    await db.model(User).find(user.id);
    await db.batch([db.model(Counter).toInsert({ label: "a" }), db.model(User).where({ name: "Ada" }).toUpdateAll({ age: 3 })]);
    expect(durations).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect(events.map((event) => event.durationMs)).toEqual(durations);
    expect(events.map((event) => event.batched)).toEqual([false, false, true, true]);
  });

  it("a database with no listener still works, and another database's listener hears nothing of it", async () => {
    const { events } = listen();
    const quiet = connect(env.DB);
    const user = await quiet.model(User).create({ name: "Ada" });
    expect(await quiet.model(User).count()).toBe(1);
    expect(user.isPersisted()).toBe(true);
    expect(events).toHaveLength(0);
  });
});

// ---- filtered attributes in query events --------------------------------------------------------------

describe("filtered attributes in query events", () => {
  it("inserts show filtered values (email, password, token) as [FILTERED] and others as they are", async () => {
    const { db, events } = listen();
    await db.model(User).create({ name: "Ada", email: "ada@example.com" });
    await db.model(Account).create({ name: "Bob", email: "bob@example.com", passwordDigest: "pw-digest-123", apiToken: "tok-456" });
    const [userInsert, accountInsert] = events;
    expect(userInsert!.params).toContain("Ada");
    expect(userInsert!.params).toContain(FILTERED);
    expect(shown(userInsert!)).not.toContain("ada@example.com");
    expect(accountInsert!.params).toContain("Bob");
    expect(accountInsert!.params.filter((value) => value === FILTERED)).toHaveLength(3);
    for (const secret of ["bob@example.com", "pw-digest-123", "tok-456"]) expect(shown(accountInsert!)).not.toContain(secret);
    // The real values were written.
    expect(await env.DB.prepare("SELECT email, password_digest, api_token FROM accounts").first()).toEqual({
      email: "bob@example.com",
      password_digest: "pw-digest-123",
      api_token: "tok-456",
    });
  });

  it("updates show filtered values as [FILTERED]", async () => {
    const { db, events } = listen();
    const account = await db.model(Account).create({ name: "Bob", email: "bob@example.com" });
    events.length = 0;
    await account.update({ name: "Robert", email: "robert@example.com", passwordDigest: "new-digest" });
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^UPDATE "accounts"/);
    expect(events[0]!.params).toContain("Robert");
    expect(events[0]!.params.filter((value) => value === FILTERED)).toHaveLength(2);
    expect(shown(events[0]!)).not.toContain("robert@example.com");
    expect(shown(events[0]!)).not.toContain("new-digest");
    expect(await rowOf("accounts", account.id)).toMatchObject({ email: "robert@example.com", password_digest: "new-digest" });
  });

  it("a filtered attribute set to null shows [FILTERED] too, as in a multi-row insert: null is a value it hides", async () => {
    const { db, events } = listen();
    const account = await db.model(Account).create({ name: "Bob", email: "bob@example.com" });
    events.length = 0;
    await account.update({ email: null });
    expect(events[0]!.sql).toMatch(/^UPDATE "accounts" SET "email" = \?/);
    expect(events[0]!.params[0]).toBe(FILTERED);
    expect(events[0]!.params).not.toContain(null);
    await db.model(Account).where({ email: null }).count();
    expect(events[1]!.params).toEqual([]);
  });

  it("conditions, lists and comparisons on a filtered attribute show [FILTERED], and still match", async () => {
    const { db, events } = listen();
    const Users = db.model(User);
    await Users.create({ name: "Ada", email: "ada@example.com" });
    await Users.create({ name: "Bob", email: "bob@example.com" });
    await Users.create({ name: "Cy", email: "cy@example.com" });
    events.length = 0;

    const found = await Users.findBy({ email: "ada@example.com" });
    expect(found?.name).toBe("Ada");
    expect(events[0]!.params).toEqual([FILTERED]);

    const both = await Users.where({ name: "Ada", email: "ada@example.com" }).toArray();
    expect(both).toHaveLength(1);
    expect(events[1]!.params).toContain("Ada");
    expect(events[1]!.params).toContain(FILTERED);
    expect(shown(events[1]!)).not.toContain("ada@example.com");

    const listed = await Users.where({ email: ["ada@example.com", "bob@example.com"] }).toArray();
    expect(listed.map((user) => user.name).sort()).toEqual(["Ada", "Bob"]);
    expect(shown(events[2]!)).toContain(FILTERED);
    expect(shown(events[2]!)).not.toContain("ada@example.com");
    expect(shown(events[2]!)).not.toContain("bob@example.com");

    const excluded = await Users.whereNot({ email: ["ada@example.com"] }).toArray();
    expect(excluded.map((user) => user.name).sort()).toEqual(["Bob", "Cy"]);
    expect(shown(events[3]!)).toContain(FILTERED);
    expect(shown(events[3]!)).not.toContain("ada@example.com");

    const later = await Users.where({ email: gt("bob@example.com") }).toArray();
    expect(later.map((user) => user.name)).toEqual(["Cy"]);
    expect(shown(events[4]!)).toContain(FILTERED);
    expect(shown(events[4]!)).not.toContain("bob@example.com");
  });

  it("a filtered primary key shows [FILTERED] in the INSERT, lookups, UPDATE and DELETE", async () => {
    const { db, events } = listen();
    const session = await db.model(Session).create({ token: "tok-secret-1", userName: "Ada" });
    expect(shown(events[0]!)).not.toContain("tok-secret-1");
    expect(events[0]!.params).toContain("Ada");

    events.length = 0;
    await session.update({ userName: "Bob" });
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^UPDATE "sessions" SET .* WHERE "token" = \?/);
    expect(events[0]!.params).toEqual(["Bob", FILTERED]);

    const found = await db.model(Session).find("tok-secret-1");
    expect(found.userName).toBe("Bob");
    expect(events[1]!.params).toEqual([FILTERED]);

    events.length = 0;
    await session.destroy();
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^DELETE FROM "sessions" WHERE "token" = \?/);
    expect(events[0]!.params).toEqual([FILTERED]);
    expect(await rowOf("sessions", "tok-secret-1", "token")).toBeNull();
  });

  it("a filtered primary key is hidden in RecordNotFound messages", async () => {
    const error = await rejectionOf(Session.find("tok-missing-42"));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).not.toContain("tok-missing-42");
  });

  it("a filtered primary key is hidden in RecordNotFound messages of find([ids]) and find(a, b)", async () => {
    await Session.create({ token: "tok-present-7", userName: "Ada" });
    const listed = await rejectionOf(Session.find(["tok-present-7", "tok-missing-42"]));
    expect(listed).toBeInstanceOf(RecordNotFound);
    expect(listed.message).toContain(FILTERED);
    expect(listed.message).not.toContain("tok-missing-42");
    expect(listed.message).not.toContain("tok-present-7");

    const several = await rejectionOf(Session.find("tok-missing-42", "tok-missing-43"));
    expect(several).toBeInstanceOf(RecordNotFound);
    expect(several.message).toContain(FILTERED);
    expect(several.message).not.toMatch(/tok-missing/);

    // The same lookup on a Model that filters nothing names the missing key.
    class OpenSession extends Session {
      static override filterAttributes: (string | RegExp)[] = [];
    }
    const open = await rejectionOf(OpenSession.find(["tok-present-7", "tok-missing-42"]));
    expect(open).toBeInstanceOf(RecordNotFound);
    expect(open.message).toContain("tok-missing-42");
  });

  it("a filtered primary key is hidden in the RecordNotFound message of reload()", async () => {
    const session = await Session.create({ token: "tok-reload-9", userName: "Ada" });
    await env.DB.prepare("DELETE FROM sessions").run();
    const error = await rejectionOf(session.reload());
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).toContain(FILTERED);
    expect(error.message).not.toContain("tok-reload-9");

    class OpenSession extends Session {
      static override filterAttributes: (string | RegExp)[] = [];
    }
    const open = await OpenSession.create({ token: "tok-open-3", userName: "Bob" });
    await env.DB.prepare("DELETE FROM sessions").run();
    const openError = await rejectionOf(open.reload());
    expect(openError).toBeInstanceOf(RecordNotFound);
    expect(openError.message).toContain("tok-open-3");
  });

  it("values inside sql fragments are not filtered, while plain values of filtered attributes are", async () => {
    const { db, events } = listen();
    const Users = db.model(User);
    await Users.create({ name: "Ada", email: "ada@example.com" });
    await Users.create({ name: "Bob", email: "bob@example.com" });
    events.length = 0;

    const viaFragment = await Users.where(sql`${column("email")} = ${"ada@example.com"}`).toArray();
    expect(viaFragment.map((user) => user.name)).toEqual(["Ada"]);
    expect(events[0]!.params).toEqual(["ada@example.com"]);

    const mixed = await Users.where(sql`${column("email")} <> ${"bob@example.com"}`).where({ email: "ada@example.com" }).toArray();
    expect(mixed.map((user) => user.name)).toEqual(["Ada"]);
    expect(events[1]!.params).toHaveLength(2);
    expect(events[1]!.params).toContain("bob@example.com");
    expect(events[1]!.params).toContain(FILTERED);
    expect(shown(events[1]!)).not.toContain("ada@example.com");
  });

  it("filterAttributes = [] filters nothing", async () => {
    class OpenUser extends User {
      static override filterAttributes: (string | RegExp)[] = [];
    }
    const { db, events } = listen();
    await db.model(OpenUser).create({ name: "Ada", email: "ada@example.com" });
    expect(events[0]!.params).toContain("ada@example.com");
    expect(events[0]!.params).not.toContain(FILTERED);
  });
});

// ---- which database a query runs on -----------------------------------------------------------------

describe("choosing the database", () => {
  it("withDatabase routes Model queries to its database and returns what fn returns", async () => {
    const a = listen();
    const b = listen();
    const id = await withDatabase(a.db, async () => (await User.create({ name: "Ada" })).id);
    expect(typeof id).toBe("string");
    expect(a.events.map((event) => event.sql)).toEqual([expect.stringMatching(/^INSERT INTO "users"/)]);
    expect(b.events).toHaveLength(0);

    expect(await withDatabase(b.db, () => User.where({ name: "Ada" }).count())).toBe(1);
    expect(a.events).toHaveLength(1);
    expect(b.events).toHaveLength(1);

    // The innermost withDatabase wins.
    await withDatabase(a.db, () => withDatabase(b.db, () => User.find(id)));
    expect(a.events).toHaveLength(1);
    expect(b.events).toHaveLength(2);

    // Outside withDatabase, the Model's binding is used: neither listener hears it.
    expect(await User.count()).toBe(1);
    expect(a.events).toHaveLength(1);
    expect(b.events).toHaveLength(2);
  });

  it("concurrent withDatabase calls each keep their own database", async () => {
    const a = listen();
    const b = listen();
    await Promise.all([
      withDatabase(a.db, async () => {
        await User.count();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await User.count();
      }),
      withDatabase(b.db, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await User.where({ name: "x" }).toArray();
      }),
    ]);
    expect(a.events.map((event) => event.sql)).toEqual([expect.stringMatching(/COUNT/), expect.stringMatching(/COUNT/)]);
    expect(b.events).toHaveLength(1);
    expect(b.events[0]!.sql).not.toMatch(/COUNT/);
  });

  it("db.model(M) binds the Model to that database", async () => {
    const a = listen();
    const Users = a.db.model(User);
    const built = Users.build({ name: "Ada" });
    expect(built).toBeInstanceOf(User);
    await built.save();
    const loaded = await Users.where({ name: "Ada" }).toArray();
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toBeInstanceOf(User);
    expect(await Users.count()).toBe(1);
    expect(a.events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "SELECT", "SELECT"]);
    // The Model itself is not changed: outside, it still uses its binding.
    await User.count();
    expect(a.events).toHaveLength(3);
  });

  it("a record keeps the database it was loaded through for later saves, reloads and destroys", async () => {
    const a = listen();
    const b = listen();
    const loaded = await withDatabase(a.db, async () => {
      await User.create({ name: "Ada" });
      return User.findByOrThrow({ name: "Ada" });
    });
    a.events.length = 0;

    await loaded.update({ age: 5 });
    expect(a.events.map((event) => event.sql)).toEqual([expect.stringMatching(/^UPDATE "users"/)]);

    await withDatabase(b.db, () => loaded.update({ age: 6 }));
    expect(a.events).toHaveLength(2);
    expect(a.events[1]!.sql).toMatch(/^UPDATE "users"/);
    expect(b.events).toHaveLength(0);

    await loaded.reload();
    await loaded.destroy();
    expect(a.events.map((event) => event.sql.split(" ")[0])).toEqual(["UPDATE", "UPDATE", "SELECT", "DELETE"]);
    expect(b.events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
  });

  it("a record keeps the database it was built through", async () => {
    const a = listen();
    const viaModel = a.db.model(User).build({ name: "Ada" });
    const viaContext = withDatabase(a.db, () => User.build({ name: "Bob" }));
    await viaModel.save();
    await viaContext.save();
    expect(a.events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "INSERT"]);
    expect(await countRows("users")).toBe(2);
  });

  it("a Model with binding = \"DB\" works with no withDatabase", async () => {
    const user = await User.create({ name: "Ada" });
    expect(user.isPersisted()).toBe(true);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada" });
    expect((await User.find(user.id)).name).toBe("Ada");
  });

  it("a Model with no binding and no withDatabase throws NoDatabase with a clear message", async () => {
    class Loose extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    const error = await rejectionOf(Loose.all().toArray());
    expect(error).toBeInstanceOf(NoDatabase);
    expect(error.message).toContain("Loose");
    expect(error.message).toMatch(/withDatabase/);
    expect(error.message).toMatch(/binding/);
    expect(await rejectionOf(Loose.create({ body: "x" }))).toBeInstanceOf(NoDatabase);
    expect(await countRows("notes")).toBe(0);

    // With a database it works.
    const note = await withDatabase(connect(env.DB), () => Loose.create({ body: "x" }));
    expect(note.isPersisted()).toBe(true);
    expect(await countRows("notes")).toBe(1);
  });
});

// ---- database errors ----------------------------------------------------------------------------------

describe("database errors", () => {
  it("a duplicate on a unique column throws RecordNotUnique naming Model and attribute, with the D1 error as cause", async () => {
    await User.create({ name: "Ada", email: "dup@example.com" });
    const duplicate = User.build({ name: "Other", email: "dup@example.com" });
    const error = await rejectionOf(duplicate.save());
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(error.message).toContain("User");
    expect(error.message).toContain("email");
    expect(error.message).not.toContain("dup@example.com");
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).message).toMatch(/UNIQUE/);
    expect(duplicate.isNewRecord()).toBe(true);
    expect(await countRows("users")).toBe(1);
  });

  it("create() and an update hitting a unique constraint throw too, never returning false", async () => {
    await User.create({ name: "Ada", email: "dup@example.com" });
    expect(await rejectionOf(User.create({ name: "Other", email: "dup@example.com" }))).toBeInstanceOf(RecordNotUnique);
    const bob = await User.create({ name: "Bob", email: "bob@example.com" });
    expect(await rejectionOf(bob.update({ email: "dup@example.com" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rowOf("users", bob.id)).toMatchObject({ email: "bob@example.com" });
  });

  it("a duplicate in a batch names the Model of the statement that failed, not the batch's first", async () => {
    const counter = await Counter.create({ label: "taken" });
    const error = await rejectionOf(batch([User.toInsert({ name: "Ada" }), Counter.toInsert({ id: counter.id, label: "again" })]));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(error.message).toMatch(/^Counter\.id has already been taken/);
    expect(await countRows("users")).toBe(0);
  });

  it("other database errors are not swallowed: a NOT NULL violation throws", async () => {
    const nameless = User.build({ age: 3 });
    const error = await rejectionOf(nameless.save());
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RecordNotUnique);
    expect(error.message).toMatch(/NOT NULL/);
    expect(nameless.isNewRecord()).toBe(true);
    expect(await countRows("users")).toBe(0);
  });
});

// ---- batch --------------------------------------------------------------------------------------------

describe("batch", () => {
  it("runs record saves, destroys and Statements in one round trip", async () => {
    const spy = countingBinding(env.DB);
    const { db, events } = listen({ binding: spy.binding });
    const existing = await db.model(User).create({ name: "Old" });
    const doomed = await db.model(Counter).create({ label: "doomed" });
    // The spy sees statements run on their own: the two creates.
    expect(spy.calls).toEqual({ batch: 0, single: 2 });
    spy.calls.batch = 0;
    spy.calls.single = 0;
    events.length = 0;

    const fresh = db.model(User).build({ name: "New" });
    existing.name = "Old renamed";
    // A read Statement (the plugin API's count Statement) rides in the same batch.
    const count = countStatement(User.where({ name: "New" }) as unknown as Relation);
    await db.batch([fresh.toSave(), existing.toSave(), doomed.toDestroy(), count]);

    expect(spy.calls).toEqual({ batch: 1, single: 0 });
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "UPDATE", "DELETE", "SELECT"]);
    expect(fresh.isPersisted()).toBe(true);
    expect(existing.isChanged()).toBe(false);
    expect(doomed.isDestroyed()).toBe(true);
    expect(await rowOf("users", fresh.id)).toMatchObject({ name: "New" });
    expect(await rowOf("users", existing.id)).toMatchObject({ name: "Old renamed" });
    expect(await rowOf("counters", doomed.id)).toBeNull();
  });

  it("is atomic: when one item fails, nothing of the batch is written", async () => {
    await User.create({ name: "Taken", email: "taken@example.com" });
    const victim = await User.create({ name: "Victim" });
    const first = User.build({ name: "First" });
    const second = User.build({ name: "Second", email: "taken@example.com" });
    const { db } = listen();

    const error = await rejectionOf(db.batch([first.toSave(), victim.toDestroy(), second.toSave()]));
    expect(error).toBeInstanceOf(RecordNotUnique);

    expect(await rowOf("users", first.id)).toBeNull();
    expect(await rowOf("users", victim.id)).not.toBeNull();
    expect(await countRows("users")).toBe(2);
    expect(first.isNewRecord()).toBe(true);
    expect(second.isNewRecord()).toBe(true);
    expect(victim.isPersisted()).toBe(true);
  });

  it("runs every before-callback before any write and every after-callback after all writes, in record order", async () => {
    const log: string[] = [];
    const names = async () =>
      ((await env.DB.prepare("SELECT name FROM users ORDER BY name").all<{ name: string }>()).results ?? []).map((row) => row.name).join(",");
    class OrderedUser extends User {
      static {
        this.hook("record:beforeSave", async ({ record }) => {
          log.push(`before ${record.name} sees [${await names()}]`);
        });
        this.hook("record:afterSave", async ({ record }) => {
          log.push(`after ${record.name} sees [${await names()}]`);
        });
        this.hook("record:beforeDestroy", async ({ record }) => {
          log.push(`beforeDestroy ${record.name} sees [${await names()}]`);
        });
        this.hook("record:afterDestroy", async ({ record }) => {
          log.push(`afterDestroy ${record.name} sees [${await names()}]`);
        });
      }
    }
    const db = connect(env.DB, { onQuery: (event) => log.push(`query ${event.sql.split(" ")[0]}`) });
    const doomed = await db.model(OrderedUser).create({ name: "Doomed" });
    log.length = 0;
    const a = db.model(OrderedUser).build({ name: "A" });
    const b = db.model(OrderedUser).build({ name: "B" });

    await db.batch([a.toSave(), doomed.toDestroy(), b.toSave()]);

    expect(log).toEqual([
      "before A sees [Doomed]",
      "beforeDestroy Doomed sees [Doomed]",
      "before B sees [Doomed]",
      "query INSERT",
      "query DELETE",
      "query INSERT",
      "after A sees [A,B]",
      "afterDestroy Doomed sees [A,B]",
      "after B sees [A,B]",
    ]);
    expect(a.isPersisted()).toBe(true);
    expect(b.isPersisted()).toBe(true);
    expect(doomed.isDestroyed()).toBe(true);
  });

  it("takes write Statements (toInsert, toUpdateAll, toDeleteAll) beside records, atomically", async () => {
    await Counter.create({ label: "old" });
    await Counter.create({ label: "gone" });
    const { db, events } = listen();
    const fresh = User.build({ name: "Fresh" });
    const Counters = Counter as unknown as {
      toInsert(attributes: object): never;
      where(conditions: object): { toUpdateAll(attributes: object): never; toDeleteAll(): never };
    };
    await db.batch([
      fresh.toSave(),
      Counters.toInsert({ label: "inserted" }),
      Counters.where({ label: "old" }).toUpdateAll({ label: "updated" }),
      Counters.where({ label: "gone" }).toDeleteAll(),
    ]);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "INSERT", "UPDATE", "DELETE"]);
    expect(fresh.isPersisted()).toBe(true);
    const labels = (await env.DB.prepare("SELECT label FROM counters ORDER BY label").all<{ label: string }>()).results.map((row) => row.label);
    expect(labels).toEqual(["inserted", "updated"]);
  });

  it("record.toSave() and record.toDestroy() have no toSql(), unlike Statements", async () => {
    const existing = await User.create({ name: "Old" });
    const fresh = User.build({ name: "New" });
    const save = fresh.toSave();
    const destroy = existing.toDestroy();
    expect("toSql" in save).toBe(false);
    expect("toSql" in destroy).toBe(false);
    expectTypeOf(save).not.toHaveProperty("toSql");
    expectTypeOf(destroy).not.toHaveProperty("toSql");
    // A Statement does have it.
    expect(Counter.toInsert({ label: "x" }).toSql().sql).toMatch(/^INSERT INTO "counters"/);
    // They still batch.
    const { db } = listen();
    await db.batch([save, destroy]);
    expect(fresh.isPersisted()).toBe(true);
    expect(existing.isDestroyed()).toBe(true);
  });

  it("batch([...]) runs on the database withDatabase opened", async () => {
    const a = listen();
    const first = User.build({ name: "One" });
    const second = User.build({ name: "Two" });
    await withDatabase(a.db, () => batch([first.toSave(), second.toSave()]));
    expect(a.events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "INSERT"]);
    expect(await countRows("users")).toBe(2);
  });
});

// ---- permit -------------------------------------------------------------------------------------------

describe("permit", () => {
  it("picks the named attributes of a plain object, cast, ready for create", async () => {
    const permitted = User.permit(
      { name: "Ada", age: "36", admin: "on", bornAt: "2000-01-02", score: "1.5", role: "boss" },
      "name",
      "age",
      "admin",
      "bornAt",
      "score",
    );
    expect(permitted).toEqual({ name: "Ada", age: 36, admin: true, bornAt: new Date("2000-01-02T00:00:00.000Z"), score: 1.5 });
    const user = await User.create(permitted);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada", age: 36, admin: 1, score: 1.5 });
  });

  it("drops keys not named", () => {
    const permitted = User.permit({ name: "Ada", admin: true, id: "forced-id" }, "name");
    expect(permitted).toEqual({ name: "Ada" });
  });

  it("leaves out a named key absent from the input, and keeps null", () => {
    const permitted = User.permit({ name: "Ada", age: null }, "name", "age", "email");
    expect(permitted).toEqual({ name: "Ada", age: null });
    expect(Object.keys(permitted).sort()).toEqual(["age", "name"]);
  });

  it("reads a plain object by own keys only", () => {
    Object.defineProperty(Object.prototype, "admin", { value: "1", configurable: true, writable: true });
    try {
      const input = { name: "Ada" };
      expect((input as Record<string, unknown>)["admin"]).toBe("1");
      expect(User.permit(input, "name", "admin")).toEqual({ name: "Ada" });
    } finally {
      delete (Object.prototype as Record<string, unknown>)["admin"];
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { name: "Ada", age: "2" });
    expect(User.permit(bare, "name", "age")).toEqual({ name: "Ada", age: 2 });
  });

  it("takes the last value of a repeated FormData or URLSearchParams key", () => {
    const form = new FormData();
    form.append("name", "First");
    form.append("name", "Last");
    form.append("age", "7");
    form.append("admin", "true");
    expect(User.permit(form, "name", "age")).toEqual({ name: "Last", age: 7 });

    const query = new URLSearchParams("age=1&age=2&name=Ada&admin=1&email=");
    expect(User.permit(query, "age", "name", "score", "email")).toEqual({ age: 2, name: "Ada", email: "" });
  });

  it("throws UnknownAttribute for a name that is not an attribute", () => {
    // @ts-expect-error nope is not an attribute of User
    expect(() => User.permit({ nope: 1 }, "nope")).toThrow(UnknownAttribute);
    // @ts-expect-error nope is not an attribute of User
    expect(() => User.permit({ name: "Ada" }, "name", "nope")).toThrow(UnknownAttribute);
    // @ts-expect-error password is not an attribute of User
    expect(() => User.permit(new URLSearchParams("password=x"), "password")).toThrow(UnknownAttribute);
  });

  it("throws TypeError for an uncastable value", () => {
    expect(() => User.permit({ age: "12abc" }, "age")).toThrow(TypeError);
    expect(() => User.permit(new URLSearchParams("age="), "age")).toThrow(TypeError);
    expect(() => User.permit(new URLSearchParams("admin=maybe"), "admin")).toThrow(TypeError);
    expect(() => User.permit({ name: 5 }, "name")).toThrow(TypeError);
  });

  it("throws TypeError for a file from a form", () => {
    const form = new FormData();
    form.append("name", new File(["hello"], "name.txt", { type: "text/plain" }));
    expect(() => User.permit(form, "name")).toThrow(TypeError);
    const last = new FormData();
    last.append("name", "Ada");
    last.append("name", new Blob(["x"]), "upload.bin");
    expect(() => User.permit(last, "name")).toThrow(TypeError);
  });

  it("throws TypeError for other input: array, Map, Headers, class instance, null, string", () => {
    class Params {
      name = "Ada";
    }
    const inputs: unknown[] = [
      [["name", "Ada"]],
      new Map([["name", "Ada"]]),
      new Headers({ name: "Ada" }),
      new Params(),
      null,
      "name=Ada",
    ];
    for (const input of inputs) {
      expect(() => User.permit(input, "name"), `input ${Object.prototype.toString.call(input)}`).toThrow(TypeError);
    }
  });
});
