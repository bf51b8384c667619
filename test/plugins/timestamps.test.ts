/** The timestamps plugin: createdAt and updatedAt, when they are set and when not. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  batch,
  Model,
  RecordNotUnique,
  MissingAttribute,
  withDatabase,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { User, Post } from "../models/fixtures.js";
import { thrown } from "../helpers/errors.js";
import { RowApplicationRecord, Row } from "../models/noted-rows.js";

beforeEach(resetDatabase);

/** The row of a table by id, read straight from D1. */
async function rowOf(table: string, id: unknown): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first();
}

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

beforeEach(() => {
  callbackLog.length = 0;
});

// ---- Record item 5: timestamps ----------------------------------------------------------------------

describe("timestamps (Record 5)", () => {
  it("sets createdAt and updatedAt on creation", async () => {
    const before = Date.now();
    const user = await User.create({ name: "Ada" });
    const after = Date.now();
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user.updatedAt).toBeInstanceOf(Date);
    expect(user.updatedAt.getTime()).toBe(user.createdAt.getTime());
    expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(user.createdAt.getTime()).toBeLessThanOrEqual(after);
    const row = await rowOf("users", user.id);
    expect(row).toMatchObject({ created_at: user.createdAt.toISOString(), updated_at: user.updatedAt.toISOString() });
  });

  it("a write that is not made takes back the timestamps it set, so the next save stamps anew", async () => {
    await User.create({ name: "Ada", email: "taken@x.io" });
    const bob = await User.create({ name: "Bob", email: "bob@x.io" });
    const stored = bob.updatedAt.toISOString();
    bob.email = "taken@x.io";
    await expect(bob.save()).rejects.toThrow(RecordNotUnique);
    expect(bob.changed()).toEqual(["email"]);
    expect(bob.updatedAt.toISOString()).toBe(stored);

    const eve = User.build({ name: "Eve", email: "taken@x.io" });
    const changedBefore = eve.changed();
    await expect(eve.save()).rejects.toThrow(RecordNotUnique);
    expect([eve.createdAt, eve.updatedAt]).toEqual([null, null]);
    expect(eve.changed()).toEqual(changedBefore);
  });

  it("a failed batch takes back every prepared record's timestamps", async () => {
    await User.create({ name: "Ada", email: "taken@x.io" });
    const bob = await User.create({ name: "Bob" });
    bob.age = 40;
    const eve = User.build({ name: "Eve", email: "taken@x.io" });
    await expect(batch([bob.toSave(), eve.toSave()])).rejects.toThrow(RecordNotUnique);
    expect(bob.changed()).toEqual(["age"]);
    expect(eve.createdAt).toBeNull();
  });

  it("keeps timestamps the caller assigned on creation", async () => {
    const both = await User.create({ name: "Ada", createdAt: "2020-01-01T00:00:00Z", updatedAt: "2020-06-01T00:00:00Z" });
    expect(both.createdAt.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(both.updatedAt.toISOString()).toBe("2020-06-01T00:00:00.000Z");
    expect(await rowOf("users", both.id)).toMatchObject({ created_at: "2020-01-01T00:00:00.000Z", updated_at: "2020-06-01T00:00:00.000Z" });

    const before = Date.now();
    const onlyCreated = await User.create({ name: "Bob", createdAt: new Date("2019-03-04T05:06:07.000Z") });
    expect(onlyCreated.createdAt.toISOString()).toBe("2019-03-04T05:06:07.000Z");
    expect(onlyCreated.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("sets updatedAt when a save changes something, leaving createdAt alone", async () => {
    const user = await User.create({ name: "Ada", createdAt: "2020-01-01T00:00:00Z", updatedAt: "2020-01-01T00:00:00Z" });
    const before = Date.now();
    expect(await user.update({ age: 1 })).toBe(true);
    expect(user.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(user.createdAt.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(await rowOf("users", user.id)).toMatchObject({
      created_at: "2020-01-01T00:00:00.000Z",
      updated_at: user.updatedAt.toISOString(),
    });
  });

  it("leaves updatedAt alone when a save has nothing to change", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", age: 5, updatedAt: "2020-01-01T00:00:00Z" });
    events.length = 0;
    user.age = 5;
    expect(await user.save()).toBe(true);
    expect(user.updatedAt.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(events).toHaveLength(0);
    expect(await rowOf("users", user.id)).toMatchObject({ updated_at: "2020-01-01T00:00:00.000Z" });
  });

  it("stamps only timestamps declared as datetime: a createdAt or updatedAt of another type is the caller's", async () => {
    class Stamped extends Model({ id: "string", name: "string", createdAt: "string", updatedAt: "datetime" }) {
      static override tableName = "audit_r_items";
      static override binding = "DB";
    }
    class Unstamped extends Model({ id: "string", name: "string", createdAt: "integer", updatedAt: "string" }) {
      static override tableName = "audit_r_items";
      static override binding = "DB";
    }
    const stamped = await Stamped.create({ name: "a" });
    expect(stamped.createdAt).toBeNull();
    expect(stamped.updatedAt).toBeInstanceOf(Date);
    const unstamped = await Unstamped.create({ name: "b" });
    await unstamped.update({ name: "c" });
    expect([unstamped.createdAt, unstamped.updatedAt]).toEqual([null, null]);
    const rows = await env.DB.prepare("SELECT name, created_at, updated_at FROM audit_r_items ORDER BY name").all();
    expect(rows.results).toEqual([
      { name: "a", created_at: null, updated_at: stamped.updatedAt!.toISOString() },
      { name: "c", created_at: null, updated_at: null },
    ]);
  });

  it("keeps an updatedAt the caller assigned on update", async () => {
    const user = await User.create({ name: "Ada", updatedAt: "2020-01-01T00:00:00Z" });
    expect(await user.update({ age: 2, updatedAt: "2021-02-03T04:05:06Z" })).toBe(true);
    expect(user.updatedAt.toISOString()).toBe("2021-02-03T04:05:06.000Z");
    expect(await rowOf("users", user.id)).toMatchObject({ age: 2, updated_at: "2021-02-03T04:05:06.000Z" });
  });
});

describe("Timestamps: 'both are set on creation and updatedAt is set whenever a save changes something'", () => {
  it("create stamps both with the same instant; a caller's createdAt is kept and updatedAt still set", async () => {
    const row = await Row.create({ label: "a" });
    expect(row.createdAt!.getTime()).toBe(row.updatedAt!.getTime());
    const given = new Date("2001-01-01T00:00:00Z");
    const kept = await Row.create({ createdAt: given });
    expect(kept.createdAt!.getTime()).toBe(given.getTime());
    expect(kept.updatedAt).toBeInstanceOf(Date);
  });

  it("'both are set on creation': an assigned null is no timestamp, so create, save and insertAll stamp it (as Rails does)", async () => {
    const created = await Row.create({ label: "a", createdAt: null, updatedAt: null });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.updatedAt!.getTime()).toBe(created.createdAt!.getTime());
    const built = Row.build({ label: "b" });
    built.createdAt = null;
    await built.save();
    expect((await Row.find(built.id)).createdAt).toBeInstanceOf(Date);
    await Row.insertAll([{ id: "bulk", createdAt: null }]);
    expect((await Row.find("bulk")).createdAt).toBeInstanceOf(Date);
    // On an update, an assigned null is the caller's change and is kept.
    await created.update({ updatedAt: null });
    expect((await Row.find(created.id)).updatedAt).toBeNull();
  });

  it("update(attrs) with the same values sends nothing and leaves updatedAt; a batch toSave with no change too", async () => {
    const row = await Row.create({ label: "a" });
    const stamp = row.updatedAt!.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await row.update({ label: "a" })).toBe(true);
    expect(row.updatedAt!.getTime()).toBe(stamp);
    await batch([row.toSave()]);
    expect(row.updatedAt!.getTime()).toBe(stamp);
    expect((await Row.find(row.id)).updatedAt!.getTime()).toBe(stamp);
    await row.update({ label: "b" });
    expect(row.updatedAt!.getTime()).toBeGreaterThan(stamp);
    expect(row.createdAt!.getTime()).toBe(stamp);
  });

  it("a caller's updatedAt on a changing update is kept", async () => {
    const row = await Row.create({ label: "a" });
    const given = new Date("2002-02-02T00:00:00Z");
    await row.update({ label: "b", updatedAt: given });
    expect(row.updatedAt!.getTime()).toBe(given.getTime());
    expect((await Row.find(row.id)).updatedAt!.getTime()).toBe(given.getTime());
  });

  it("'updatedAt is set whenever a save changes something', even on a record a partial select loaded without it (as in Rails)", async () => {
    const row = await Row.create({ label: "a" });
    const stamp = row.updatedAt!.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const partial = (await Row.select("label").toArray())[0]!;
    partial.label = "b";
    expect(await partial.save()).toBe(true);
    const stored = await Row.find(row.id);
    expect(stored.label).toBe("b");
    expect(stored.updatedAt!.getTime()).toBeGreaterThan(stamp);
    expect(partial.updatedAt!.getTime()).toBe(stored.updatedAt!.getTime());
    expect(partial.savedChanges()).toEqual({ label: ["a", "b"], updatedAt: [null, stored.updatedAt] });
    expect(partial.isChanged()).toBe(false);
    // A save with nothing to change still sends nothing.
    await partial.save();
    expect((await Row.find(row.id)).updatedAt!.getTime()).toBe(stored.updatedAt!.getTime());
  });

  it("a partial record's stamp is taken back with the write when a batch fails, and it stays unreadable", async () => {
    await Row.create({ code: "taken" });
    const row = await Row.create({ label: "a" });
    const partial = (await Row.select("label").where({ id: row.id }).toArray())[0]!;
    partial.label = "b";
    const doomed = Row.build({ code: "taken" });
    expect(await thrown(() => batch([partial.toSave(), doomed.toSave()]))).toBeInstanceOf(RecordNotUnique);
    expect(partial.changes()).toEqual({ label: ["a", "b"] });
    expect(() => partial.updatedAt).toThrow(MissingAttribute);
    expect((await Row.find(row.id)).updatedAt!.getTime()).toBe(row.updatedAt!.getTime());
  });

  it("a New record whose create failed gets stamped anew by the next save", async () => {
    class Strict extends RowApplicationRecord("sar2_rows") {
      static {
        this.validates("label", { presence: true });
      }
    }
    const row = await Strict.create({});
    expect(row.isNewRecord()).toBe(true);
    expect(row.createdAt).toBeNull();
    row.label = "x";
    expect(await row.save()).toBe(true);
    expect(row.createdAt).toBeInstanceOf(Date);
  });
});

describe("guide: Timestamps", () => {
  it("a save with nothing changed sends nothing; update writes title and updatedAt", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const post = await Post.create({ userId: user.id, title: "Hello" });
      expect(post.createdAt).toBeInstanceOf(Date);
      const before = sqls().length;
      await post.save();
      expect(sqls().length).toBe(before);
      await post.update({ title: "Hello again" });
      expect(sqls().at(-1)).toBe(`UPDATE "posts" SET "title" = ?1, "updated_at" = ?2 WHERE "id" = ?3`);
    });
  });
});
