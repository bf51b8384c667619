import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, column, connect, Model, NoDatabase, RecordNotUnique, sql, withDatabase } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";

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
