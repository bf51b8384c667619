import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { RecordNotUnique } from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { countRows, listen } from "./helpers/queries.js";
import { Counter, User } from "./models/fixtures.js";

beforeEach(resetDatabase);

describe("insert and insertAll", () => {
  it("insert resolves to D1's meta and fills declared defaults, generated keys and timestamps", async () => {
    const meta = await User.insert({ name: "Ada", age: "36" });
    expect(meta["changes"]).toBe(1);
    const row = await env.DB.prepare("SELECT * FROM users").first<Record<string, unknown>>();
    expect(row!["id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(row!["age"]).toBe(36);
    expect(row!["admin"]).toBe(0);
    expect(row!["created_at"]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("insertAll binds every row as ONE parameter, so 500 rows fit D1's 100-parameter limit", async () => {
    const { db, events } = listen();
    const rows = Array.from({ length: 500 }, (_, index) => ({ name: `user ${index}`, age: index }));
    await db.model(User).insertAll(rows);
    expect(await countRows("users")).toBe(500);
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^INSERT INTO "users" \(.*\) SELECT json_extract\(value, .*\) FROM json_each\(\?\) WHERE true$/);
  });

  it("shows filtered attributes of each row as [FILTERED] in query events", async () => {
    const { db, events } = listen();
    await db.model(User).insertAll([{ name: "a", email: "a@x.io" }, { name: "b", email: "b@x.io" }]);
    const rows = JSON.parse(events[0]!.params[0] as string) as Record<string, unknown>[];
    expect(rows.map((row) => row["email"])).toEqual(["[FILTERED]", "[FILTERED]"]);
    expect(rows.map((row) => row["name"])).toEqual(["a", "b"]);
  });

  it("raises RecordNotUnique for duplicates unless onDuplicate: skip, and writes nothing on failure", async () => {
    await User.insert({ name: "a", email: "dup@x.io" });
    await expect(User.insertAll([{ name: "b", email: "new@x.io" }, { name: "c", email: "dup@x.io" }])).rejects.toThrow(RecordNotUnique);
    expect(await countRows("users")).toBe(1);
    const meta = await User.insertAll([{ name: "b", email: "new@x.io" }, { name: "c", email: "dup@x.io" }], { onDuplicate: "skip" });
    expect(meta["changes"]).toBe(1);
    expect(await countRows("users")).toBe(2);
  });

  it("casts values and refuses uncastable ones before sending anything", async () => {
    expect(() => User.insertAll([{ name: "a", age: "12abc" }])).toThrow(/User\.age/);
    expect(await countRows("users")).toBe(0);
  });

  it("skips validations and callbacks", async () => {
    let ran = 0;
    class Watched extends User {
      static {
        this.hook("record:beforeSave", () => void ran++);
        this.hook("record:validate", ({ record }) => record.errors.add("name", "invalid", "is invalid"));
      }
    }
    await Watched.insert({ name: "x" });
    expect(ran).toBe(0);
    expect(await countRows("users")).toBe(1);
  });
});

describe("upsert and upsertAll", () => {
  it("inserts new rows and updates existing ones by primary key, keeping createdAt", async () => {
    const user = await User.create({ name: "Ada", age: 1 });
    const createdAt = user.createdAt.getTime();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await User.upsertAll([
      { id: user.id, name: "Ada Lovelace", age: 36 },
      { name: "Grace", age: 85 },
    ]);
    await user.reload();
    expect([user.name, user.age]).toEqual(["Ada Lovelace", 36]);
    expect(await User.order({ name: "asc" }).pluck("name")).toEqual(["Ada Lovelace", "Grace"]);
    expect(user.createdAt.getTime()).toBe(createdAt);
    expect(user.updatedAt.getTime()).toBeGreaterThan(createdAt);
  });

  it("takes uniqueBy to decide conflicts on another unique key", async () => {
    await User.create({ name: "Old", email: "same@x.io" });
    await User.upsert({ name: "New", email: "same@x.io" }, { uniqueBy: ["email"] });
    expect(await User.pluck("name")).toEqual(["New"]);
  });
});

describe("updateAll and deleteAll", () => {
  it("updateAll sets attributes on matching rows, resolves to the number of rows, and casts", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    const { db, events } = listen();
    const changed = await db.model(Counter).where({ label: ["a", "b"] }).updateAll({ value: "42" });
    expect(changed).toBe(2);
    expect(events[0]!.sql).toBe(`UPDATE "counters" SET "value" = ? WHERE "label" IN (SELECT value FROM json_each(?))`);
    expect(await Counter.order({ id: "asc" }).pluck("value")).toEqual([42, 42, 7]);
    expect(() => Counter.all().updateAll({ value: "x" })).toThrow(TypeError);
  });

  it("deleteAll deletes matching rows and resolves to the number deleted", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(await Counter.where({ label: "a" }).deleteAll()).toBe(1);
    expect(await Counter.none().deleteAll()).toBe(0);
    expect(await countRows("counters")).toBe(2);
    expect(await Counter.deleteAll()).toBe(2);
  });

  it("a Relation with order and limit targets only its rows", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(await Counter.order({ id: "desc" }).limit(2).updateAll({ label: "z" })).toBe(2);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(["a", "z", "z"]);
  });

  it("filters attribute values in updateAll's query event", async () => {
    await User.create({ name: "a" });
    const { db, events } = listen();
    await db.model(User).updateAll({ email: "secret@x.io", name: "b" });
    expect(events[0]!.params).toEqual(["[FILTERED]", "b"]);
  });
});

describe("Statements in a batch", () => {
  it("toInsert, toUpdateAll and toDeleteAll run atomically in one batch", async () => {
    await Counter.insertAll([{ label: "keep" }, { label: "drop" }]);
    const { db, events } = listen();
    const C = db.model(Counter);
    const statements = [C.toInsert({ label: "new" }), C.where({ label: "keep" }).toUpdateAll({ value: 1 }), C.where({ label: "drop" }).toDeleteAll()];
    expect(statements[0]!.toSql().sql).toMatch(/^INSERT INTO "counters"/);
    const results = await db.batch(statements);
    expect(results[1]).toBe(1);
    expect(results[2]).toBe(1);
    expect(events.every((event) => event.batched)).toBe(true);
    expect(await Counter.order({ id: "asc" }).pluck("label", "value")).toEqual([["keep", 1], ["new", 7]]);
  });

  it("writes nothing when one Statement of the batch fails", async () => {
    await User.create({ name: "a", email: "dup@x.io" });
    const { db } = listen();
    await expect(db.batch([User.toInsert({ name: "b", email: "fresh@x.io" }), User.toInsert({ name: "c", email: "dup@x.io" })])).rejects.toThrow(RecordNotUnique);
    expect(await countRows("users")).toBe(1);
  });
});
