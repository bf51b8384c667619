/**
 * Databases and writes to them (SPEC.md "Connection", "Errors"): choosing the database, database errors, D1
 * sessions. Every test runs on a fresh database.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, connect, Model, NoDatabase, RecordNotUnique, withDatabase } from "../../src/index.js";
import { countStatement, Relation } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";
import { Item as OwnedItem, Owner as ItemOwner, seedOwnedItems } from "../models/owners-and-items.js";
import { Item } from "../models/typed-items.js";

beforeEach(resetDatabase);

async function rowOf(table: string, id: unknown, key = "id"): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).bind(id).first();
}

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

const I = OwnedItem as any;

const O = ItemOwner as any;

describe("Connection", () => {
  it("withDatabase routes queries, a bound Model keeps its own database inside it, and batch([]) of Statements runs there", async () => {
    await seedOwnedItems();
    const one = listen();
    const two = listen({ models: { Item: OwnedItem } }) as any;
    await withDatabase(one.db, async () => {
      await I.find("a");
      await two.Item.find("b");
      await batch([I.where({ id: "d" }).toDeleteAll()]);
    });
    expect(one.events).toHaveLength(2);
    expect(two.events).toHaveLength(1);
  });
});

describe("Connection: db.model(M) is the Model bound to db", () => {
  it("records found or built through it are instances of it, as of M", async () => {
    await seedOwnedItems();
    const { Item: B } = listen({ models: { Item: OwnedItem } }) as any;
    const found = await B.find("a");
    expect(found instanceof B).toBe(true);
    expect(found instanceof OwnedItem).toBe(true);
    expect(B.build() instanceof B).toBe(true);
    expect({} instanceof B).toBe(false);
    expect((await O.find("o1")) instanceof B).toBe(false);
  });
});

describe("Record 4: the database a record keeps", () => {
  it("build() inside withDatabase keeps that database; new <Model>() keeps none", async () => {
    const { withDatabase } = await import("../../src/index.js");
    const { db, events } = listen();
    const built = withDatabase(db, () => Item.build({ name: "a" }));
    const made = withDatabase(db, () => {
      const record = new Item();
      record.id = "made-1";
      return record;
    });
    await built.save();
    expect(events).toHaveLength(1);
    await made.save(); // outside withDatabase: the Model's binding, not db
    expect(events).toHaveLength(1);
    expect(made.isPersisted()).toBe(true);
    const loaded = await db.model(Item).find(built.id);
    events.length = 0;
    await loaded.update({ name: "b" });
    expect(events).toHaveLength(1);
  });
});

/** A Model with no binding: it reaches a database only through db.model() or withDatabase. */
class Unbound extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override tableName = "audit_q_owners";
}

// ---- Connection --------------------------------------------------------------------------------------

describe("Connection: db.model(M) starts queries on that database", () => {
  // SPEC Connection: "db.model(M) | start queries on that database | the Model bound to it", and
  // "batch([...]) | array of Statements ... | executes all atomically". A Statement made by the bound Model
  // runs on the bound database, also in a top-level batch().
  it("batch([db.model(M).toInsert(...)]) runs on db, outside withDatabase", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await batch([Owners.toInsert({ id: "o1", name: "a" }), Owners.toInsert({ id: "o2", name: "b" })]);
    expect(events).toHaveLength(2);
    expect(await countRows("audit_q_owners")).toBe(2);
  });

  it("batch([...]) runs a bound Model's select and count Statements on its database too", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await db.batch([Owners.toInsert({ id: "o1", name: "a" })]);
    events.length = 0;
    // toSelect() and countStatement() are the plugin API's Statements: typed Relations do not list them.
    const relation = Owners.where({ name: "a" }) as unknown as Relation;
    // The batch runs where its first item was made: each form must carry the bound database.
    const [count, records] = await batch([countStatement(relation), relation.toSelect()]);
    expect((records as { id: string }[]).map((record) => record.id)).toEqual(["o1"]);
    expect(count).toBe(1);
    expect(events).toHaveLength(2);
    expect((await batch([relation.toSelect()]))[0]).toHaveLength(1);
  });

  it("db.batch([db.model(M).toInsert(...)]) runs on db", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await db.batch([Owners.toInsert({ id: "o1", name: "a" })]);
    expect(events).toHaveLength(1);
  });

  // SPEC Connection: "db.model(M) | start queries on that database | the Model bound to it", also when M is a
  // view bound to another database.
  it("db2.model(db1.model(M)) queries db2", async () => {
    const first = listen();
    const second = listen();
    const rebound = second.db.model(first.db.model(User));
    expect(await rebound.count()).toBe(0);
    expect(second.events).toHaveLength(1);
    expect(first.events).toHaveLength(0);
  });
});

// ---- The database ---------------------------------------------------------------------------------------------

describe("guide: The database", () => {
  it("runs the example", async () => {
    const seen: string[] = [];
    const db = connect(env.DB, { onQuery: (event) => seen.push(event.sql) });
    const returned = await withDatabase(db, async () => {
      await User.create({ name: "Ada" });
      return 42;
    });
    expect(returned).toBe(42);
    expect(seen).toHaveLength(1);
    const users = db.model(User);
    const ada = await users.findBy({ name: "Ada" });
    await ada?.update({ age: 36 });
    expect(seen).toHaveLength(3);
    expect(await User.count()).toBe(1);
    expect(seen).toHaveLength(3);
    const remove = db.onQuery(() => seen.push("extra"));
    await users.count();
    remove();
    await users.count();
    expect(seen.filter((s) => s === "extra")).toHaveLength(1);
    expect(db.bookmark()).toBeNull();
  });

  it("NoDatabase without binding, and with a binding missing from env", async () => {
    class Loose extends Model({ id: "string" }) {
      static override tableName = "notes";
    }
    await expect(Loose.all().toArray()).rejects.toBeInstanceOf(NoDatabase);
    class Wrong extends Model({ id: "string" }) {
      static override tableName = "notes";
      static override binding = "NOPE";
    }
    await expect(Wrong.all().toArray()).rejects.toBeInstanceOf(NoDatabase);
  });

  it("Sessions", async () => {
    const db = connect(env.DB, { session: "first-unconstrained" });
    await db.model(User).count();
    expect(typeof db.bookmark()).toBe("string");
    const response = new Response("ok");
    response.headers.set("x-d1-bookmark", db.bookmark() ?? "");
    expect(response.headers.get("x-d1-bookmark")).not.toBe("");
  });
});

describe("guide: The database, prose claims", () => {
  it("db.model(User) is a cached view", () => {
    const db = connect(env.DB);
    expect(db.model(User)).toBe(db.model(User));
  });

  it("query events filter null of a filtered attribute in an update", async () => {
    const { db, events } = listen();
    const u = await db.model(User).createOrThrow({ name: "x", email: "a@b.c" });
    await u.update({ email: null });
    expect(events.at(-1)!.params[0]).toBe("[FILTERED]");
    await db.model(User).where({ email: ["a", "b"] }).toArray();
    expect(events.at(-1)!.params).toEqual(['["[FILTERED]","[FILTERED]"]']);
  });
});

it("connect({ session }) queries through a D1 session and exposes its bookmark", async () => {
  const db = connect(env.DB, { session: "first-primary" });
  const user = await db.model(User).create({ name: "Ada" });
  expect((await db.model(User).find(user.id)).name).toBe("Ada");
  const bookmark = db.bookmark();
  expect(typeof bookmark).toBe("string");
  const later = connect(env.DB, { session: bookmark! });
  expect(await later.model(User).count()).toBe(1);
});

it("a database without a session has no bookmark", () => {
  expect(connect(env.DB).bookmark()).toBeNull();
});
