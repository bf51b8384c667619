import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { column, InvalidModel, Model, RecordNotUnique, UnknownAttribute, batch, IncompatibleRelation, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { Counter, User, Post, Counter as CounterRow } from "../models/fixtures.js";
import { rejectionOf } from "../helpers/errors.js";
import { Item as OwnedItem, seedOwnedItems } from "../models/owners-and-items.js";
import { Item } from "../models/runtime-items.js";
import { BlobUser, bytes, storedBlobs } from "../models/blob-users.js";

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
    expect(events[0]!.sql).toMatch(/^INSERT INTO "users" \(.*\) SELECT json_extract\(value, .*\) FROM json_each\(\?1\) WHERE true$/);
  });

  it("shows filtered attributes of each row as [FILTERED] in query events", async () => {
    const { db, events } = listen();
    await db.model(User).insertAll([{ name: "a", email: "a@x.io" }, { name: "b", email: "b@x.io" }]);
    const sent = events[0]!.params[0] as string;
    expect(sent).not.toMatch(/@x\.io/);
    const rows = JSON.parse(sent) as unknown[][];
    expect(rows.map((row) => row.filter((value) => value === "[FILTERED]"))).toEqual([["[FILTERED]"], ["[FILTERED]"]]);
    expect(rows.map((row) => row.filter((value) => value === "a" || value === "b"))).toEqual([["a"], ["b"]]);
  });

  it("raises RecordNotUnique for duplicates unless onDuplicate: skip, and writes nothing on failure", async () => {
    await User.insert({ name: "a", email: "dup@x.io" });
    await expect(User.insertAll([{ name: "b", email: "new@x.io" }, { name: "c", email: "dup@x.io" }])).rejects.toThrow(RecordNotUnique);
    expect(await countRows("users")).toBe(1);
    const meta = await User.insertAll([{ name: "b", email: "new@x.io" }, { name: "c", email: "dup@x.io" }], { onDuplicate: "skip" });
    expect(meta["changes"]).toBe(1);
    expect(await countRows("users")).toBe(2);
  });

  it("casts values and rejects uncastable ones before sending anything", async () => {
    const { db, events } = listen();
    await expect(db.model(User).insertAll([{ name: "a", age: "12abc" }])).rejects.toThrow(/User\.age/);
    expect(events).toHaveLength(0);
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

describe("rows that give no value (every column has a default)", () => {
  it("insert({}) and create({}) send DEFAULT VALUES", async () => {
    const { db, sqls } = listen();
    const C = db.model(Counter);
    expect((await C.insert({}))["changes"]).toBe(1);
    await C.insertAll([{}]);
    await C.create({});
    expect(sqls()).toEqual([`INSERT INTO "counters" DEFAULT VALUES`, `INSERT INTO "counters" DEFAULT VALUES`, `INSERT INTO "counters" DEFAULT VALUES RETURNING *`]);
    expect(await Counter.order({ id: "asc" }).pluck("id", "label", "value")).toEqual([[1, null, 7], [2, null, 7], [3, null, 7]]);
  });

  it("several rows, onDuplicate and upsert give the integer key NULL in one statement, so SQLite numbers the rows", async () => {
    const { db, sqls } = listen();
    const C = db.model(Counter);
    expect((await C.insertAll([{}, {}, {}]))["changes"]).toBe(3);
    expect((await C.insert({}, { onDuplicate: "skip" }))["changes"]).toBe(1);
    expect((await C.upsert({}))["changes"]).toBe(1);
    expect((await C.upsertAll([{}, {}]))["changes"]).toBe(2);
    expect(sqls()).toEqual([
      `INSERT INTO "counters" ("id") SELECT json_extract(value, '$[0]') FROM json_each(?1) WHERE true`,
      `INSERT INTO "counters" ("id") SELECT json_extract(value, '$[0]') FROM json_each(?1) WHERE true ON CONFLICT DO NOTHING`,
      `INSERT INTO "counters" ("id") SELECT json_extract(value, '$[0]') FROM json_each(?1) WHERE true ON CONFLICT ("id") DO NOTHING`,
      `INSERT INTO "counters" ("id") SELECT json_extract(value, '$[0]') FROM json_each(?1) WHERE true ON CONFLICT ("id") DO NOTHING`,
    ]);
    expect(await Counter.order({ id: "asc" }).pluck("id")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await Counter.distinct().pluck("value")).toEqual([7]);
  });
  it("with another key, only one row at a time without a conflict clause, else TypeError before sending", async () => {
    class RealKeyed extends Model({ id: "real", label: "string" }) {
      static override tableName = "counters";
    }
    const { db, events } = listen();
    const R = db.model(RealKeyed);
    await expect(R.insertAll([{}, {}])).rejects.toThrow(/^RealKeyed\.insertAll: rows that give no value .* unless the primary key is an integer$/);
    await expect(R.upsert({})).rejects.toThrow(TypeError);
    expect(events).toHaveLength(0);
    await R.insert({});
    expect(await countRows("counters")).toBe(1);
  });
});

describe("bad input", () => {
  // "All database-touching operations return promises": a caller's `.catch` or `await` must see every failure.
  it("every running bulk write rejects (never throws) on bad input, and sends nothing", async () => {
    const { db, events } = listen();
    const U = db.model(User);
    const calls: [() => Promise<unknown>, RegExp | Function][] = [
      [() => U.insert({ name: "a", age: "12abc" }), TypeError],
      [() => U.insert({ name: "a", nope: 1 } as never), UnknownAttribute],
      [() => U.insertAll([]), /non-empty array/],
      [() => U.upsert({ name: "a", nope: 1 } as never), UnknownAttribute],
      [() => U.upsertAll([]), /upsertAll takes a non-empty array/],
      // An undefined row or a hole of a sparse array threw JavaScript's own TypeError at the JSON of the rows.
      [() => U.insertAll([undefined as never]), /^User\.insertAll takes attribute objects, not undefined$/],
      [() => U.insertAll([{ name: "a" }, , { name: "b" }] as never), /^User\.insertAll takes attribute objects, not undefined$/],
      [() => U.upsertAll([{ name: "a" }, undefined as never]), /^User\.upsertAll takes attribute objects, not undefined$/],
      [() => U.updateAll({ nope: 1 } as never), UnknownAttribute],
      [() => U.where({ name: "a" }).updateAll({ age: "12abc" }), TypeError],
      [() => U.distinct().deleteAll(), /distinct/],
    ];
    for (const [call, error] of calls) {
      let result: Promise<unknown> | undefined;
      expect(() => (result = call())).not.toThrow();
      await expect(result).rejects.toThrow(error as RegExp);
    }
    expect(events).toHaveLength(0);
  });

  it("insert and upsert statics reject with InvalidModel when the Model fails its first-use checks", async () => {
    class Clashing extends User {}
    Object.defineProperty(Clashing, "exists", { value: Clashing.scope((q) => q) });
    await expect(Clashing.insert({ name: "x" })).rejects.toThrow(InvalidModel);
    await expect(Clashing.insertAll([{ name: "x" }])).rejects.toThrow(InvalidModel);
    await expect(Clashing.upsert({ name: "x" })).rejects.toThrow(InvalidModel);
    await expect(Clashing.upsertAll([{ name: "x" }])).rejects.toThrow(InvalidModel);
  });

  it("the to... forms still throw synchronously, since they return a Statement", () => {
    expect(() => User.toInsert({ name: "a", age: "12abc" })).toThrow(/User\.age/);
    expect(() => User.toInsertAll([])).toThrow(/non-empty array/);
    expect(() => User.toUpsert({ name: "a", nope: 1 } as never)).toThrow(UnknownAttribute);
    expect(() => User.toUpsertAll([{ name: "a", age: "12abc" }])).toThrow(TypeError);
    expect(() => User.where({ name: "a" }).toUpdateAll({ age: "12abc" })).toThrow(TypeError);
    expect(() => User.distinct().toDeleteAll()).toThrow(/distinct/);
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

  it("a uniqueBy that no unique index covers throws TypeError naming the Model, and writes nothing", async () => {
    await User.create({ name: "Old", email: "old@x.io" });
    const expected = new TypeError("User: uniqueBy names no unique index of the table");
    await expect(User.upsert({ name: "Old", age: 3 }, { uniqueBy: ["name"] })).rejects.toThrow(expected);
    await expect(User.upsertAll([{ name: "A", email: "a@x.io" }], { uniqueBy: ["name", "email"] })).rejects.toThrow(expected);
    await expect(batch([User.toInsert({ name: "B" }), User.toUpsert({ name: "Old" }, { uniqueBy: ["name"] })])).rejects.toThrow(expected);
    expect(await User.pluck("name")).toEqual(["Old"]);
  });

  it("casts values on insert and on update, and rejects uncastable ones naming Model and attribute", async () => {
    const user = await User.create({ name: "Ada", age: 1 });
    await User.upsertAll([{ id: user.id, name: "Ada", age: "36" }, { name: "Grace", age: "85" }]);
    expect(await User.order({ name: "asc" }).pluck("age")).toEqual([36, 85]);
    const { db, events } = listen();
    await expect(db.model(User).upsert({ id: user.id, name: "Ada", age: "12abc" })).rejects.toThrow(/^User\.age: .* is not a valid integer/);
    await expect(db.model(User).upsertAll([{ name: "x", age: "12abc" }])).rejects.toThrow(TypeError);
    expect(events).toHaveLength(0);
  });

  it("skips validations and callbacks, on new rows and existing ones", async () => {
    const existing = await User.create({ name: "Ada" });
    let ran = 0;
    class Watched extends User {
      static {
        this.hook("record:beforeSave", () => void ran++);
        this.hook("record:afterSave", () => void ran++);
        this.hook("record:validate", ({ record }) => record.errors.add("name", "invalid", "is invalid"));
      }
    }
    await Watched.upsert({ id: existing.id, name: "Ada Lovelace" });
    await Watched.upsertAll([{ name: "Grace" }, { name: "Edsger" }]);
    expect(ran).toBe(0);
    expect(await User.order({ name: "asc" }).pluck("name")).toEqual(["Ada Lovelace", "Edsger", "Grace"]);
  });
});

describe("conditions given to a set-based write", () => {
  // Rails 5.1+ raises ArgumentError for delete_all(conditions): read as none, they would write every row.
  it("deleteAll, updateAll and their Statements refuse them, naming what to write instead, and write nothing", async () => {
    await Counter.insertAll([{ label: "keep" }, { label: "x" }, { label: "keep" }]);
    const { db, events } = listen();
    const C = db.model(Counter) as any;
    await expect(C.deleteAll({ label: "x" })).rejects.toThrow(
      "Counter.deleteAll takes no argument; narrow with where(...) first: Counter.where({ ... }).deleteAll()",
    );
    await expect(C.where({ label: "x" }).deleteAll({ id: 1 })).rejects.toThrow("Counter.deleteAll takes no argument");
    await expect(C.none().deleteAll({ label: "x" })).rejects.toThrow("Counter.deleteAll takes no argument");
    await expect(C.updateAll({ value: 1 }, { label: "x" })).rejects.toThrow(
      "Counter.updateAll takes one argument, not 2; narrow with where(...) first: Counter.where({ ... }).updateAll({ ... })",
    );
    expect(() => C.toDeleteAll({ label: "x" })).toThrow("Counter.toDeleteAll takes no argument");
    expect(() => C.toUpdateAll({ value: 1 }, { label: "x" })).toThrow("Counter.toUpdateAll takes one argument, not 2");
    expect(events).toHaveLength(0);
    expect(await countRows("counters")).toBe(3);
    expect(await Counter.order({ id: "asc" }).pluck("value")).toEqual([7, 7, 7]);
  });
});

describe("options of inserts and upserts", () => {
  it("an unknown option is refused, naming the options, before anything is sent", async () => {
    const { db, events } = listen();
    const U = db.model(User) as any;
    await expect(U.insert({ name: "a" }, { nope: 1 })).rejects.toThrow(`User.insertAll: "nope" is not an option; the options are onDuplicate`);
    await expect(U.insertAll([{ name: "a" }], { uniqueBy: ["name"] })).rejects.toThrow(`"uniqueBy" is not an option`);
    await expect(U.upsert({ name: "a" }, { onDuplicate: "skip" })).rejects.toThrow(`User.upsertAll: "onDuplicate" is not an option; the options are uniqueBy`);
    await expect(U.upsertAll([{ name: "a" }], { nope: 1 })).rejects.toThrow(`"nope" is not an option`);
    expect(() => U.toInsertAll([{ name: "a" }], { nope: 1 })).toThrow(`"nope" is not an option`);
    expect(events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
  });
});

describe("updateAll and deleteAll", () => {
  it("updateAll sets attributes on matching rows, resolves to the number of rows, and casts", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    const { db, events } = listen();
    const changed = await db.model(Counter).where({ label: ["a", "b"] }).updateAll({ value: "42" });
    expect(changed).toBe(2);
    expect(events[0]!.sql).toBe(`UPDATE "counters" SET "value" = ?1 WHERE "label" IN (SELECT value FROM json_each(?2))`);
    expect(await Counter.order({ id: "asc" }).pluck("value")).toEqual([42, 42, 7]);
    await expect(Counter.all().updateAll({ value: "x" })).rejects.toThrow(TypeError);
  });

  it("deleteAll deletes matching rows and resolves to the number deleted", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(await Counter.where({ label: "a" }).deleteAll()).toBe(1);
    expect(await countRows("counters")).toBe(2);
    expect(await Counter.deleteAll()).toBe(2);
  });

  it("none() resolves updateAll and deleteAll to 0 without sending a query, however it is chained", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }]);
    const { db, events } = listen();
    const C = db.model(Counter);
    expect(await C.none().updateAll({ value: 1 })).toBe(0);
    expect(await C.none().deleteAll()).toBe(0);
    expect(await C.where({ label: "a" }).none().order({ id: "desc" }).limit(1).updateAll({ value: 1 })).toBe(0);
    expect(await C.none().where({ label: "b" }).deleteAll()).toBe(0);
    expect(await C.all().merge(C.none()).deleteAll()).toBe(0);
    expect(events).toHaveLength(0);
    expect(await Counter.order({ id: "asc" }).pluck("label", "value")).toEqual([["a", 7], ["b", 7]]);
  });

  it("none() still checks updateAll's input, rejecting what it would reject on any Relation", async () => {
    const { db, events } = listen();
    await expect(db.model(Counter).none().updateAll({ value: "x" })).rejects.toThrow(TypeError);
    expect(events).toHaveLength(0);
  });

  it("a Relation with order and limit targets only its rows", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(await Counter.order({ id: "desc" }).limit(2).updateAll({ label: "z" })).toBe(2);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(["a", "z", "z"]);
  });

  it("an order without limit or offset chooses no row: the write is by the conditions, whatever the number of terms", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    const { db, sqls } = listen();
    const ordered = Array.from({ length: 120 }, (_, index) => index).reduce((relation, index) => relation.order(sql`${column("id")} * ${index}`), db.model(Counter).where({ label: ["a", "b"] }));
    expect(await ordered.updateAll({ value: 1 })).toBe(2);
    expect(await ordered.deleteAll()).toBe(2);
    expect(sqls()).toEqual([
      `UPDATE "counters" SET "value" = ?1 WHERE "label" IN (SELECT value FROM json_each(?2))`,
      `DELETE FROM "counters" WHERE "label" IN (SELECT value FROM json_each(?1))`,
    ]);
    expect(await Counter.pluck("label")).toEqual(["c"]);
  });

  // SQLite has no LIMIT on UPDATE or DELETE: a limit that the statement dropped would change every row.
  it("limit or offset without order changes exactly the rows they keep, in updateAll and deleteAll", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }, { label: "d" }]);
    expect(await Counter.limit(1).deleteAll()).toBe(1);
    expect(await countRows("counters")).toBe(3);
    expect(await Counter.where({ label: ["b", "c", "d"] }).limit(2).updateAll({ value: 1 })).toBe(2);
    expect((await Counter.pluck("value")).sort()).toEqual([1, 1, 7]);
    expect(await Counter.limit(0).updateAll({ value: 2 })).toBe(0);
    expect(await Counter.limit(0).deleteAll()).toBe(0);
    expect(await countRows("counters")).toBe(3);
    expect(await Counter.offset(2).deleteAll()).toBe(1);
    expect(await countRows("counters")).toBe(2);
  });

  it("offset skips rows in updateAll and deleteAll, with or without a limit", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }, { label: "d" }]);
    expect(await Counter.order({ id: "asc" }).offset(1).limit(2).updateAll({ label: "z" })).toBe(2);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(["a", "z", "z", "d"]);
    expect(await Counter.order({ id: "asc" }).offset(3).deleteAll()).toBe(1);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(["a", "z", "z"]);
  });

  it("order alone targets every matching row, and the order decides which rows a limit takes", async () => {
    await Counter.insertAll([{ label: "a" }, { label: "b" }, { label: "c" }]);
    expect(await Counter.where({ label: ["a", "b"] }).order({ label: "desc" }).updateAll({ value: 3 })).toBe(2);
    expect(await Counter.order({ id: "asc" }).pluck("value")).toEqual([3, 3, 7]);
    expect(await Counter.order({ label: "desc" }).limit(1).deleteAll()).toBe(1);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(["a", "b"]);
  });

  it("filters attribute values in updateAll's query event", async () => {
    await User.create({ name: "a" });
    const { db, events } = listen();
    await db.model(User).updateAll({ email: "secret@x.io", name: "b" });
    expect(events[0]!.params).toEqual(["[FILTERED]", "b"]);
  });
});

describe("deleteBy", () => {
  it("is where(conditions).deleteAll(): one DELETE, on a Model and on a Relation, resolving to the rows deleted", async () => {
    await Counter.insertAll([{ label: "a", value: 2 }, { label: "b", value: 1 }, { label: "c", value: 1 }]);
    const { db, events } = listen();
    const C = db.model(Counter);
    expect(await C.deleteBy({ label: "a" })).toBe(1);
    expect(await C.where({ value: 1 }).deleteBy({ label: ["c", "a"] })).toBe(1);
    expect(events.map((event) => event.sql)).toEqual([
      `DELETE FROM "counters" WHERE "label" = ?1`,
      `DELETE FROM "counters" WHERE "value" = ?1 AND "label" IN (SELECT value FROM json_each(?2))`,
    ]);
    expect(await Counter.pluck("label")).toEqual(["b"]);
  });

  it("refuses wrong arguments with TypeError naming deleteBy, before sending anything", async () => {
    await Counter.insertAll([{ label: "a" }]);
    const { db, events } = listen();
    const C = db.model(Counter) as any;
    for (const call of [() => C.deleteBy(), () => C.deleteBy({ label: "a" }, { id: 1 }), () => C.all().deleteBy("label = 'a'")]) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^Counter\.deleteBy/);
    }
    expect(await rejectionOf(C.deleteBy({ labl: "a" }))).toBeInstanceOf(UnknownAttribute);
    expect(events).toHaveLength(0);
    expect(await countRows("counters")).toBe(1);
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

  it("toUpdateAll and toDeleteAll on none() give Statements that match no row, for batch", async () => {
    await Counter.insertAll([{ label: "a" }]);
    const { db, events } = listen();
    const C = db.model(Counter);
    const statements = [C.none().toUpdateAll({ value: 1 }), C.none().toDeleteAll()];
    expect(statements.map((statement) => statement.toSql().sql)).toEqual([
      `UPDATE "counters" SET "value" = ?1 WHERE 1 = 0`,
      `DELETE FROM "counters" WHERE 1 = 0`,
    ]);
    expect(await db.batch(statements)).toEqual([0, 0]);
    expect(events).toHaveLength(2);
    expect(await Counter.pluck("value")).toEqual([7]);
  });

  it("writes nothing when one Statement of the batch fails", async () => {
    await User.create({ name: "a", email: "dup@x.io" });
    const { db } = listen();
    await expect(db.batch([User.toInsert({ name: "b", email: "fresh@x.io" }), User.toInsert({ name: "c", email: "dup@x.io" })])).rejects.toThrow(RecordNotUnique);
    expect(await countRows("users")).toBe(1);
  });
});

const I = OwnedItem as any;

describe("Bulk writes", () => {
  it("insert and insertAll fill declared defaults and generated keys, and skip callbacks; insert resolves to meta", async () => {
    const meta = await I.insert({ name: "q" });
    expect(meta).toMatchObject({ changes: 1 });
    await I.insertAll([{ name: "r" }, { name: "s" }]);
    const rows = await I.order({ name: "asc" }).toArray();
    expect(rows.map((r: any) => r.kind)).toEqual(["model", "model", "model"]);
    expect(rows.every((r: any) => typeof r.id === "string" && r.id.length > 10)).toBe(true);
  });

  it("insert and insertAll raise RecordNotUnique for a duplicate, and skip it with onDuplicate: skip", async () => {
    await seedOwnedItems();
    expect(await rejectionOf(I.insert({ id: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(I.insertAll([{ id: "z1", code: "z" }, { id: "z2", code: "A" }]))).toBeInstanceOf(RecordNotUnique);
    expect(await I.count()).toBe(4);
    expect((await I.insert({ id: "a" }, { onDuplicate: "skip" })).changes).toBe(0);
    expect((await I.insertAll([{ id: "z1", code: "z" }, { id: "z2", code: "A" }], { onDuplicate: "skip" })).changes).toBe(1);
  });

  it("updateAll with undefined rejects with TypeError, sending nothing", async () => {
    const { events, Item: B } = listen({ models: { Item: OwnedItem } }) as any;
    expect(await rejectionOf(B.updateAll({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await rejectionOf(B.insert({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(events).toHaveLength(0);
  });
});

describe("Bulk writes skip validations and callbacks declared with the public API", () => {
  it("insert, insertAll, upsert, upsertAll, updateAll and deleteAll (and their Statements in batch)", async () => {
    let ran = 0;
    class Guarded extends OwnedItem {
      static {
        this.validates("name", { presence: true, length: { minimum: 5 } });
        this.beforeSave(() => {
          ran++;
          throw new Error("beforeSave must not run");
        });
        this.beforeDestroy(() => {
          ran++;
          throw new Error("beforeDestroy must not run");
        });
      }
    }
    const G = Guarded as any;
    await G.insert({ id: "g1", name: "" });
    await G.insertAll([{ id: "g2", name: null }]);
    await G.upsert({ id: "g1", name: "x" });
    await G.upsertAll([{ id: "g3", name: "y" }]);
    expect(await G.where({ id: ["g1", "g2"] }).updateAll({ name: "" })).toBe(2);
    await batch([G.toInsert({ id: "g4" }), G.where({ id: "g4" }).toUpdateAll({ name: "" })]);
    expect(await G.count()).toBe(4);
    expect(await G.deleteAll()).toBe(4);
    expect(ran).toBe(0);
  });
});

const AnyContact = Item as any;

// ---- Bulk writes and Other values ------------------------------------------------------------------------

describe("Bulk writes", () => {
  it("'All bulk writes run when called': insert, updateAll and deleteAll are sent without being awaited", async () => {
    const { db, events } = listen();
    const bound = db.model(Item as any) as any;
    const pending = [bound.insert({ id: "r", name: "a" }), bound.where({ id: "r" }).updateAll({ name: "b" })];
    await bound.count();
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "UPDATE", "SELECT"]);
    await Promise.all(pending);
  });

  it("insertAll: rows giving the same attributes are accepted, whether a value is null or not", async () => {
    await AnyContact.insertAll([{ name: "a", age: null }, { name: "b", age: 2 }]);
    expect(await AnyContact.order({ name: "asc" }).pluck("age")).toEqual([null, 2]);
  });

  it("upsert: an existing row is updated with the given attributes and a new updatedAt, keeping createdAt", async () => {
    await AnyContact.insert({ id: "u", name: "a", createdAt: new Date("2020-01-01T00:00:00Z"), updatedAt: new Date("2020-01-01T00:00:00Z") });
    await AnyContact.upsert({ id: "u", name: "b" });
    const row = await AnyContact.find("u");
    expect(row.name).toBe("b");
    expect(row.createdAt.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(row.updatedAt.getTime()).toBeGreaterThan(Date.parse("2020-01-02"));
  });

  it("upsert of the values a row already holds leaves its updatedAt alone, as a save with nothing to change does (Rails' upsert_all)", async () => {
    const stamp = new Date("2020-01-01T00:00:00Z");
    await AnyContact.insertAll([
      { id: "same", name: "a", age: 1, createdAt: stamp, updatedAt: stamp },
      { id: "other", name: "b", age: 1, createdAt: stamp, updatedAt: stamp },
    ]);
    await AnyContact.upsertAll([
      { id: "same", name: "a", age: 1 },
      { id: "other", name: "b", age: 2 },
    ]);
    expect((await AnyContact.find("same")).updatedAt.toISOString()).toBe(stamp.toISOString());
    expect((await AnyContact.find("other")).updatedAt.getTime()).toBeGreaterThan(stamp.getTime());
  });
});

describe("Other values", () => {
  it("'insert(...) resolves to the database's meta result object'; 'updateAll and deleteAll resolve to the number of rows affected'", async () => {
    const meta = await AnyContact.insertAll([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(meta).toMatchObject({ changes: 3 });
    expect(await AnyContact.where({ name: ["a", "b"] }).updateAll({ age: 5 })).toBe(2);
    expect(await AnyContact.where({ age: 5 }).deleteAll()).toBe(2);
    expect(await AnyContact.where({ age: 5 }).deleteAll()).toBe(0);
  });
});

// ---- Bulk writes ----------------------------------------------------------------------------------------------

describe("guide: Bulk writes", () => {
  it("runs the example", async () => {
    await env.DB.prepare(`INSERT INTO users (id, name, created_at, updated_at) VALUES ('u1', 'U', 'x', 'x')`).run();
    await Post.insert({ userId: "u1", title: "Hello" });
    const meta = await Post.insertAll([
      { userId: "u1", title: "One" },
      { userId: "u1", title: "Two" },
    ]);
    expect(meta["changes"]).toBe(2);

    await User.upsert({ id: "019a0000-0000-7000-8000-000000000000", name: "Ada", admin: false });
    expect((await User.find("019a0000-0000-7000-8000-000000000000")).name).toBe("Ada");
    await User.insertAll([{ name: "Grace", email: "grace@example.com" }], { onDuplicate: "skip" });
    const skipped = await User.insertAll([{ name: "Grace", email: "grace@example.com" }], { onDuplicate: "skip" });
    expect(skipped["changes"]).toBe(0);
    await expect(User.insertAll([{ name: "Grace", email: "grace@example.com" }])).rejects.toBeInstanceOf(RecordNotUnique);

    const published = await Post.where({ userId: "u1" }).updateAll({ published: true });
    expect(published).toBe(3);
    const removed = await Post.where({ published: true }).order({ createdAt: "asc" }).limit(2).deleteAll();
    expect(removed).toBe(2);
    expect(await Post.count()).toBe(1);

    await User.upsertAll(
      [
        { email: "grace@example.com", name: "Grace Hopper" },
        { email: "alan@example.com", name: "Alan" },
      ],
      { uniqueBy: ["email"] },
    );
    expect((await User.where({ email: ["grace@example.com", "alan@example.com"] }).order({ name: "asc" }).pluck("name"))).toEqual(["Alan", "Grace Hopper"]);
    await batch([Post.where({ userId: "u1" }).toDeleteAll(), User.where({ email: "alan@example.com" }).toUpdateAll({ admin: true })]);
    expect(await Post.count()).toBe(0);
    expect((await User.findByOrThrow({ email: "alan@example.com" })).admin).toBe(true);
  });

  it("rules: upsert keeps createdAt; updateAll leaves updatedAt; empty insertAll TypeError; none(); distinct()", async () => {
    const user = await User.createOrThrow({ name: "Ada", age: 1 });
    const before = (await User.find(user.id)).updatedAt.getTime();
    await User.upsert({ id: user.id, name: "Ada 2" });
    const after = await User.find(user.id);
    expect(after.createdAt.getTime()).toBe(user.createdAt.getTime());
    expect(after.age).toBe(1);
    await User.updateAll({ age: 2 });
    expect((await User.find(user.id)).updatedAt.getTime()).toBe(after.updatedAt.getTime());
    expect(before).toBeLessThanOrEqual(after.updatedAt.getTime());
    await expect(User.insertAll([])).rejects.toBeInstanceOf(TypeError);
    await expect(User.insertAll([{ name: "a" }, { name: "b", age: 1 }])).rejects.toBeInstanceOf(TypeError);
    const { db, sqls } = listen();
    expect(await db.model(User).none().updateAll({ age: 3 })).toBe(0);
    expect(await db.model(User).none().deleteAll()).toBe(0);
    expect(sqls()).toEqual([]);
    expect(User.none().toUpdateAll({ age: 3 }).toSql().sql).toContain("WHERE 1 = 0");
    expect(User.none().toDeleteAll().toSql().sql).toContain("WHERE 1 = 0");
    await expect(User.distinct().updateAll({ age: 1 })).rejects.toBeInstanceOf(IncompatibleRelation);
    expect(() => User.distinct().toDeleteAll()).toThrow(IncompatibleRelation);
    await expect(User.updateAll({ age: "x" })).rejects.toBeInstanceOf(TypeError);
    expect(() => User.toUpdateAll({ age: "x" })).toThrow(TypeError);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("updateAll and upsert hitting a unique constraint throw RecordNotUnique", async () => {
    await User.create({ name: "a", email: "a@x" });
    const b = await User.create({ name: "b", email: "b@x" });
    expect(await rejectionOf(User.where({ id: b.id }).updateAll({ email: "a@x" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(User.upsert({ id: b.id, name: "b", email: "a@x" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(User.insertAll([{ name: "c", email: "c@x" }, { name: "d", email: "c@x" }]))).toBeInstanceOf(RecordNotUnique);
    expect(await countRows("users")).toBe(2);
  });

  it("insertAll with onDuplicate: skip skips duplicates within the list too; meta.changes counts inserted rows", async () => {
    const meta = await User.insertAll([{ name: "c", email: "c@x" }, { name: "d", email: "c@x" }, { name: "e", email: "e@x" }], { onDuplicate: "skip" });
    expect(meta["changes"]).toBe(2);
  });

  it("updateAll and deleteAll resolve to the number of rows affected, with order/limit/offset", async () => {
    await CounterRow.insertAll(Array.from({ length: 10 }, (_, index) => ({ label: `l${index}` })));
    expect(await CounterRow.order({ id: "desc" }).offset(8).updateAll({ value: 1 })).toBe(2);
    expect(await CounterRow.where({ value: 1 }).order({ id: "asc" }).pluck("id")).toEqual([1, 2]);
    expect(await CounterRow.order({ id: "asc" }).limit(3).offset(1).deleteAll()).toBe(3);
    expect(await CounterRow.order({ id: "asc" }).pluck("id")).toEqual([1, 5, 6, 7, 8, 9, 10]);
  });
});

describe("binary values in bulk writes", () => {
  it("insertAll, upsertAll and upsert write each blob's bytes as they are, read back from the database", async () => {
    const view = new Uint8Array([9, 0xab, 0xcd, 9]).subarray(1, 3);
    await BlobUser.insertAll([
      { id: bytes(1), name: "a", email: bytes(0, 255) },
      { id: bytes(2), name: "b", email: view },
      { id: bytes(3), name: "c", email: bytes() },
      { id: bytes(4), name: "d", email: null },
    ]);
    expect(await storedBlobs(env.DB)).toEqual([
      { id: "01", email: "00FF", type: "blob,blob" },
      { id: "02", email: "ABCD", type: "blob,blob" },
      { id: "03", email: "", type: "blob,blob" },
      { id: "04", email: "", type: "blob,null" },
    ]);
    expect(await BlobUser.upsertAll([{ id: bytes(1), name: "a", email: bytes(7) }, { id: bytes(5), name: "e", email: bytes(8) }])).toMatchObject({ changes: 2 });
    expect(await BlobUser.upsert({ id: bytes(2), name: "b", email: bytes(6, 6) }, { uniqueBy: ["id"] })).toMatchObject({ changes: 1 });
    expect((await storedBlobs(env.DB)).map(({ id, email }) => `${id}:${email}`)).toEqual(["01:07", "02:0606", "03:", "04:", "05:08"]);
    expect(Array.from((await BlobUser.find(bytes(5))).email!)).toEqual([8]);
  });

  it("an upsert by a unique blob finds the row that holds those bytes", async () => {
    await BlobUser.createOrThrow({ id: bytes(1), name: "a", email: bytes(0, 255) });
    await BlobUser.upsertAll([{ id: bytes(9), name: "renamed", email: bytes(0, 255) }], { uniqueBy: ["email"] });
    expect(await BlobUser.pluck("name")).toEqual(["renamed"]);
  });
});
