/** Attributes that were never assigned or loaded: reading, saving and printing them. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { type QueryEvent, column, InvalidModel, Model, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Counter, User, ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { Account } from "../models/lifecycle-fixtures.js";

beforeEach(resetDatabase);

// ---- helpers ----------------------------------------------------------------------------------------

/** Only the writes among query events. */
function writes(events: readonly QueryEvent[]): QueryEvent[] {
  return events.filter((event) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(event.sql));
}

/** The column names an INSERT writes, sorted (empty for DEFAULT VALUES). */
function insertColumns(sql: string): string[] {
  if (/DEFAULT VALUES/i.test(sql)) return [];
  const match = /^\s*INSERT\s+INTO\s+\S+\s*\(([^)]*)\)/i.exec(sql);
  if (!match) throw new Error(`not an INSERT with a column list: ${sql}`);
  return match[1]!
    .split(",")
    .map((name) => name.trim().replaceAll('"', ""))
    .filter((name) => name !== "")
    .sort();
}

/** The row of a table by id, read straight from D1. */
async function rowOf(table: string, id: unknown): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first();
}

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

beforeEach(() => {
  callbackLog.length = 0;
});

function expectState(record: { isNewRecord(): boolean; isPersisted(): boolean; isDestroyed(): boolean }, state: "new" | "persisted" | "destroyed") {
  expect({ isNewRecord: record.isNewRecord(), isPersisted: record.isPersisted(), isDestroyed: record.isDestroyed() }).toEqual({
    isNewRecord: state === "new",
    isPersisted: state === "persisted",
    isDestroyed: state === "destroyed",
  });
}

// ---- Record item 1: unassigned attributes ------------------------------------------------------------

describe("unassigned attributes (Record 1)", () => {
  it("read as null, are not written on insert, and the database default applies", async () => {
    const { db, events } = listen();
    const counter = db.model(Counter).build({ label: "a" });
    expect(counter.value).toBeNull();
    expect(await counter.save()).toBe(true);
    expect(writes(events)).toHaveLength(1);
    expect(insertColumns(writes(events)[0]!.sql)).toEqual(["label"]);
    expect(counter.value).toBe(7);
    expect(typeof counter.id).toBe("number");
    expect(await rowOf("counters", counter.id)).toEqual({ id: counter.id, label: "a", value: 7 });
    expect(counter.isChanged()).toBe(false);
  });

  it("a record with nothing assigned is inserted with every column's default", async () => {
    const { db, events } = listen();
    const counter = await db.model(Counter).create();
    expectState(counter, "persisted");
    expect(insertColumns(writes(events)[0]!.sql)).toEqual([]);
    expect(counter.value).toBe(7);
    expect(counter.label).toBeNull();
    expect(typeof counter.id).toBe("number");
  });

  it("after insert the record holds what the database stored (text default too)", async () => {
    const { db, events } = listen();
    const account = db.model(Account).build({ name: "Ada" });
    expect(account.role).toBeNull();
    await account.save();
    expect(insertColumns(writes(events)[0]!.sql)).not.toContain("role");
    expect(account.role).toBe("member");
    expect(account.attributeWas("role")).toBe("member");
    expect(account.isChanged()).toBe(false);
  });

  it("a User insert leaves out the attributes nobody assigned", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada" });
    const columns = insertColumns(writes(events)[0]!.sql);
    for (const column of ["email", "age", "score", "born_at", "settings"]) expect(columns).not.toContain(column);
    expect(columns).toEqual(expect.arrayContaining(["id", "name", "created_at", "updated_at"]));
    expect(user.age).toBeNull();
    expect(user.settings).toBeNull();
  });
});

describe("guide: Unassigned attributes", () => {
  class Counter extends FixtureApplicationRecord({ id: "integer", label: "string", value: { type: "integer", null: false } }) {}

  it("gets the id and the column default back from RETURNING", async () => {
    const counter = await Counter.create({ label: "visits" });
    expect(counter.id).toBe(1);
    expect(counter.value).toBe(7);
  });

  it("a key the database leaves NULL (INT PRIMARY KEY is not SQLite's row id) throws InvalidModel naming the key, never a record no write can reach", async () => {
    await env.DB.exec("CREATE TABLE gadgets (id INT PRIMARY KEY, name TEXT); CREATE TABLE tokens (id TEXT PRIMARY KEY, name TEXT)");
    class Gadget extends Model({ id: "integer", name: "string" }) {
      static override binding = "DB";
    }
    class Token extends Model({ id: "string", name: "string" }) {
      static override binding = "DB";
    }
    const message = "Gadget.id: the new row was stored with a NULL key, which no write can reach; SQLite numbers only an INTEGER PRIMARY KEY";
    await expect(Gadget.create({ name: "a" })).rejects.toThrow(message);
    await expect(Gadget.build({ name: "b" }).save()).rejects.toThrow(InvalidModel);
    await expect(Token.create({ id: null, name: "c" })).rejects.toThrow(/^Token\.id: the new row was stored with a NULL key/);
    // A key given, or numbered by an INTEGER PRIMARY KEY, is read back as ever.
    expect((await Gadget.create({ id: 5, name: "d" })).id).toBe(5);
    expect((await Counter.create({ label: "e" })).id).toEqual(expect.any(Number));
  });
});
