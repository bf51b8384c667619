/**
 * Record lifecycle (SPEC.md "States and transitions", "Persistence", "Record" items 1 and 5-8,
 * "Change tracking", "Errors collection"). Every test runs on a fresh database.
 */
import { env } from "cloudflare:test";
import { inspect } from "node:util";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  abort,
  ActiveRecord,
  batch,
  defineApplicationRecord,
  Model,
  type QueryEvent,
  RecordDestroyed,
  RecordInvalid,
  RecordNotDestroyed,
  RecordNotFound,
  RecordNotSaved,
  RecordNotUnique,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { countRows, listen } from "./helpers/queries.js";
import { Counter, schema, User } from "./models/fixtures.js";
import { Account } from "./models/lifecycle-fixtures.js";

beforeEach(resetDatabase);

// ---- helpers ----------------------------------------------------------------------------------------

/** Only the writes among query events. */
function writes(events: readonly QueryEvent[]): QueryEvent[] {
  return events.filter((event) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(event.sql));
}

/** The column names an UPDATE sets, sorted. */
function setColumns(sql: string): string[] {
  const match = /\bSET\s+(.*?)\s+WHERE\b/is.exec(sql);
  if (!match) throw new Error(`not an UPDATE with SET ... WHERE: ${sql}`);
  return match[1]!
    .split(",")
    .map((assignment) => assignment.split("=")[0]!.trim().replaceAll('"', ""))
    .sort();
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

/** Runs `fn` so that a synchronous throw and a rejection both end up as a rejected promise. */
function attempt(fn: () => unknown): Promise<unknown> {
  return Promise.resolve().then(fn);
}

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

/** Blank name fails validation; a name starting with "Stop" aborts the save; "Keep" aborts a destroy. */
class GuardedUser extends User {
  static {
    this.hook("record:validate", ({ record }) => {
      if (record.name === "") record.errors.add("name", "blank", "can't be blank");
    });
    this.hook("record:beforeSave", ({ record }) => {
      if (typeof record.name === "string" && record.name.startsWith("Stop")) throw abort(`no saving ${record.name}`);
    });
    this.hook("record:afterSave", ({ record, operation }) => {
      callbackLog.push(`afterSave ${operation} ${record.name} persisted=${record.isPersisted()}`);
    });
    this.hook("record:beforeDestroy", ({ record }) => {
      if (record.name === "Keep") throw abort("kept on purpose");
    });
    this.hook("record:afterDestroy", ({ record }) => {
      callbackLog.push(`afterDestroy ${record.name} destroyed=${record.isDestroyed()}`);
    });
  }
}

/** Always invalid, with two failures, one on a camelCase attribute. */
class TwiceInvalidUser extends User {
  static {
    this.hook("record:validate", ({ record }) => {
      record.errors.add("name", "too_short", "is too short");
      record.errors.add("bornAt", "blank", "can't be blank");
    });
  }
}

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

// ---- New -> Persisted -----------------------------------------------------------------------------

describe("New -> Persisted", () => {
  it("build() makes a New record with its generated key, and nothing is written", async () => {
    const { db, events } = listen();
    const user = db.model(User).build({ name: "Ada" });
    expectState(user, "new");
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
  });

  it("save() inserts the row, returns true, sets timestamps and runs after-callbacks", async () => {
    const { db, events } = listen();
    const user = db.model(GuardedUser).build({ name: "Ada", age: 36 });
    const id = user.id;
    expect(await user.save()).toBe(true);
    expectState(user, "persisted");
    expect(user.id).toBe(id);
    expect(user.createdAt).toBeInstanceOf(Date);
    expect(user.updatedAt).toBeInstanceOf(Date);
    expect(writes(events)).toHaveLength(1);
    expect(writes(events)[0]!.sql).toMatch(/^INSERT INTO "users"/);
    const row = await rowOf("users", id);
    expect(row).toMatchObject({ id, name: "Ada", age: 36 });
    expect(row!["created_at"]).toBe(user.createdAt.toISOString());
    expect(callbackLog).toEqual(["afterSave create Ada persisted=true"]);
    expect(user.isChanged()).toBe(false);
  });

  it("create() returns a persisted record", async () => {
    const user = await GuardedUser.create({ name: "Grace" });
    expect(user).toBeInstanceOf(GuardedUser);
    expectState(user, "persisted");
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Grace" });
    expect(callbackLog).toEqual(["afterSave create Grace persisted=true"]);
  });

  it("update() on a New record inserts it", async () => {
    const user = GuardedUser.build({ name: "Ada" });
    expect(await user.update({ name: "Lin", age: 3 })).toBe(true);
    expectState(user, "persisted");
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Lin", age: 3 });
  });

  it("validation failure leaves the record New: save() is false, reasons in errors, nothing written", async () => {
    const { db, events } = listen();
    const user = db.model(GuardedUser).build({ name: "" });
    expect(await user.save()).toBe(false);
    expectState(user, "new");
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(user.abortReason).toBeUndefined();
    expect(events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
    expect(callbackLog).toEqual([]);
  });

  it("create() with a validation failure returns the New record with its errors", async () => {
    const user = await GuardedUser.create({ name: "" });
    expect(user).toBeInstanceOf(GuardedUser);
    expectState(user, "new");
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(await countRows("users")).toBe(0);
  });

  it("an aborting callback leaves the record New: save() is false, the reason in abortReason", async () => {
    const { db, events } = listen();
    const user = db.model(GuardedUser).build({ name: "Stop here" });
    expect(await user.save()).toBe(false);
    expectState(user, "new");
    expect(user.abortReason).toBe("no saving Stop here");
    expect(events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
    expect(callbackLog).toEqual([]);
  });

  it("create() aborted by a callback returns the New record with abortReason", async () => {
    const user = await GuardedUser.create({ name: "Stop now" });
    expectState(user, "new");
    expect(user.abortReason).toBe("no saving Stop now");
    expect(await countRows("users")).toBe(0);
  });

  it("a record refused once saves after the problem is fixed, with errors cleared", async () => {
    const user = GuardedUser.build({ name: "" });
    expect(await user.save()).toBe(false);
    user.name = "Fixed";
    expect(await user.save()).toBe(true);
    expectState(user, "persisted");
    expect(user.errors.fullMessages()).toEqual([]);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Fixed" });
  });
});

// ---- Persisted -> Persisted -------------------------------------------------------------------------

describe("Persisted save and update", () => {
  it("writes only the changed attributes (and updatedAt)", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", email: "ada@example.com", age: 36, score: 1.5 });
    events.length = 0;
    user.age = 37;
    expect(await user.save()).toBe(true);
    expectState(user, "persisted");
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^UPDATE "users" SET /);
    expect(setColumns(events[0]!.sql)).toEqual(["age", "updated_at"]);
    expect(events[0]!.params).toContain(37);
    expect(events[0]!.params).toContain(user.id);
    expect(events[0]!.params).not.toContain("Ada");
    expect(events[0]!.params).not.toContain(1.5);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada", age: 37, score: 1.5 });
  });

  it("update(attrs) writes only the attributes that differ", async () => {
    // The clock is fixed: a create and an update in the same millisecond would leave updatedAt unchanged.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-01-01T00:00:00.000Z") });
    try {
      const { db, events } = listen();
      const user = await db.model(User).create({ name: "Ada", age: 36 });
      events.length = 0;
      vi.setSystemTime(new Date("2030-01-01T00:00:01.000Z"));
      expect(await user.update({ name: "Ada", score: 2.5 })).toBe(true);
      expect(events).toHaveLength(1);
      expect(setColumns(events[0]!.sql)).toEqual(["score", "updated_at"]);
      expect(user.updatedAt).toEqual(new Date("2030-01-01T00:00:01.000Z"));
      expect(user.createdAt).toEqual(new Date("2030-01-01T00:00:00.000Z"));
      expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada", age: 36, score: 2.5 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("records the saved changes and becomes clean", async () => {
    const user = await User.create({ name: "Ada", age: 36 });
    user.age = 40;
    expect(user.isChanged()).toBe(true);
    await user.save();
    expect(user.isChanged()).toBe(false);
    expect(user.changed()).toEqual([]);
    expect(user.savedChanges()["age"]).toEqual([36, 40]);
  });

  it("reload forgets the saved changes, as Rails does", async () => {
    const user = await User.create({ name: "Ada", age: 36 });
    await user.update({ age: 40 });
    await user.reload();
    expect(user.savedChanges()).toEqual({});
    expect(user.hasSavedChangeTo("age")).toBe(false);
    expect(user.attributeBeforeLastSave("age")).toBe(40);
  });

  it("a save with no change sends no query and returns true", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", age: 36, settings: { a: [1] }, bornAt: "2000-01-02" });
    events.length = 0;
    expect(await user.save()).toBe(true);
    user.name = "Ada";
    user.age = 36;
    user.settings = { a: [1] };
    user.bornAt = new Date("2000-01-02T00:00:00.000Z");
    expect(user.isChanged()).toBe(false);
    expect(await user.save()).toBe(true);
    expect(await user.update({ age: "36" })).toBe(true);
    expect(events).toHaveLength(0);
    expectState(user, "persisted");
  });

  it("validation failure leaves a Persisted record Persisted and its row untouched", async () => {
    const { db, events } = listen();
    const user = await db.model(GuardedUser).create({ name: "Ada" });
    events.length = 0;
    expect(await user.update({ name: "" })).toBe(false);
    expectState(user, "persisted");
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(events).toHaveLength(0);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada" });
  });

  it("an aborting callback leaves a Persisted record Persisted, with abortReason", async () => {
    const { db, events } = listen();
    const user = await db.model(GuardedUser).create({ name: "Ada" });
    events.length = 0;
    expect(await user.update({ name: "Stop please" })).toBe(false);
    expectState(user, "persisted");
    expect(user.abortReason).toBe("no saving Stop please");
    expect(events).toHaveLength(0);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada" });
  });
});

// ---- destroy -------------------------------------------------------------------------------------------

describe("destroy", () => {
  it("Persisted -> Destroyed: deletes the row, resolves to the record, runs after-callbacks", async () => {
    const { db, events } = listen();
    const user = await db.model(GuardedUser).create({ name: "Ada" });
    events.length = 0;
    const result = await user.destroy();
    expect(result).toBe(user);
    expectState(user, "destroyed");
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^DELETE FROM "users" WHERE/);
    expect(events[0]!.params).toEqual([user.id]);
    expect(await rowOf("users", user.id)).toBeNull();
    expect(callbackLog).toContain("afterDestroy Ada destroyed=true");
  });

  it("succeeds when another request already deleted the row", async () => {
    const user = await User.create({ name: "Ada" });
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(user.id).run();
    expect(await user.destroy()).toBe(user);
    expectState(user, "destroyed");
  });

  it("an aborting callback keeps the record Persisted: false, the row kept, abortReason set", async () => {
    const { db, events } = listen();
    const user = await db.model(GuardedUser).create({ name: "Keep" });
    events.length = 0;
    expect(await user.destroy()).toBe(false);
    expectState(user, "persisted");
    expect(user.abortReason).toBe("kept on purpose");
    expect(events).toHaveLength(0);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Keep" });
    expect(callbackLog.filter((line) => line.startsWith("afterDestroy"))).toEqual([]);
  });
});

// ---- reload --------------------------------------------------------------------------------------------

describe("reload", () => {
  it("discards unsaved changes and reads the row as stored now", async () => {
    const user = await User.create({ name: "Ada", age: 36 });
    await env.DB.prepare("UPDATE users SET age = 50 WHERE id = ?").bind(user.id).run();
    user.name = "Unsaved";
    const result = await user.reload();
    expect(result).toBe(user);
    expect(user.name).toBe("Ada");
    expect(user.age).toBe(50);
    expect(user.isChanged()).toBe(false);
    expectState(user, "persisted");
  });

  it("throws RecordNotFound when the row is gone, and the record stays Persisted", async () => {
    const user = await User.create({ name: "Ada" });
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(user.id).run();
    await expect(user.reload()).rejects.toBeInstanceOf(RecordNotFound);
    expectState(user, "persisted");
  });

  it("throws RecordNotFound for a record never saved, which stays New", async () => {
    const { db, events } = listen();
    const user = db.model(User).build({ name: "Ada" });
    await expect(user.reload()).rejects.toBeInstanceOf(RecordNotFound);
    expectState(user, "new");
    expect(user.name).toBe("Ada");
    expect(events).toHaveLength(0);
  });
});

// ---- Destroyed ---------------------------------------------------------------------------------------

describe("Destroyed record", () => {
  async function destroyedUser() {
    const user = await User.create({ name: "Ada", age: 36 });
    await user.destroy();
    return user;
  }

  it("refuses any attribute assignment with RecordDestroyed, keeping the value", async () => {
    const user = await destroyedUser();
    expect(() => {
      user.name = "Other";
    }).toThrow(RecordDestroyed);
    expect(() => user.writeAttribute("age", 1)).toThrow(RecordDestroyed);
    expect(() => user.assign({ name: "Other" })).toThrow(RecordDestroyed);
    expect(user.name).toBe("Ada");
    expect(user.age).toBe(36);
  });

  it("refuses save, update, destroy and reload (and their OrThrow forms) with RecordDestroyed, sending nothing", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", age: 36 });
    await user.destroy();
    events.length = 0;
    await expect(attempt(() => user.save())).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.saveOrThrow())).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.update({ age: 1 }))).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.updateOrThrow({ age: 1 }))).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.destroy())).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.destroyOrThrow())).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(attempt(() => user.reload())).rejects.toBeInstanceOf(RecordDestroyed);
    expect(events).toHaveLength(0);
    expectState(user, "destroyed");
    expect(user.age).toBe(36);
  });

  it("update() and updateOrThrow() report RecordDestroyed as a rejected promise (database operations return promises)", async () => {
    const user = await destroyedUser();
    let update: Promise<unknown> | undefined;
    let updateOrThrow: Promise<unknown> | undefined;
    expect(() => {
      update = user.update({ age: 1 });
    }).not.toThrow();
    expect(() => {
      updateOrThrow = user.updateOrThrow({ age: 1 });
    }).not.toThrow();
    await expect(update).rejects.toBeInstanceOf(RecordDestroyed);
    await expect(updateOrThrow).rejects.toBeInstanceOf(RecordDestroyed);
  });

  it("keeps its attributes readable", async () => {
    const user = await destroyedUser();
    expect(user.name).toBe("Ada");
    expect(user.readAttribute("age")).toBe(36);
    expect(user.attributes()).toMatchObject({ name: "Ada", age: 36 });
    expect(user.toJSON()).toMatchObject({ name: "Ada", age: 36 });
    expect(user.createdAt).toBeInstanceOf(Date);
  });
});

// ---- OrThrow forms ------------------------------------------------------------------------------------

describe("OrThrow forms", () => {
  it("saveOrThrow resolves to true when saved", async () => {
    const user = GuardedUser.build({ name: "Ada" });
    await expect(user.saveOrThrow()).resolves.toBe(true);
    expectState(user, "persisted");
  });

  it("saveOrThrow throws RecordInvalid with the record on error.record", async () => {
    const user = GuardedUser.build({ name: "" });
    const error = await rejectionOf(user.saveOrThrow());
    expect(error).toBeInstanceOf(RecordInvalid);
    expect((error as RecordInvalid).record).toBe(user);
    expectState(user, "new");
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
  });

  it("saveOrThrow throws RecordNotSaved whose message is the abort reason", async () => {
    const user = GuardedUser.build({ name: "Stop it" });
    const error = await rejectionOf(user.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("no saving Stop it");
    expectState(user, "new");
  });

  it("updateOrThrow throws RecordInvalid / RecordNotSaved on a Persisted record and resolves true otherwise", async () => {
    const user = await GuardedUser.create({ name: "Ada" });
    await expect(user.updateOrThrow({ name: "" })).rejects.toBeInstanceOf(RecordInvalid);
    await expect(user.updateOrThrow({ name: "Stop that" })).rejects.toThrow(new RecordNotSaved("no saving Stop that"));
    await expect(user.updateOrThrow({ name: "Lin" })).resolves.toBe(true);
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Lin" });
  });

  it("destroyOrThrow resolves to the destroyed record, or throws RecordNotDestroyed on abort", async () => {
    const kept = await GuardedUser.create({ name: "Keep" });
    const error = await rejectionOf(kept.destroyOrThrow());
    expect(error).toBeInstanceOf(RecordNotDestroyed);
    expect((error as Error).message).toContain("kept on purpose");
    expectState(kept, "persisted");
    expect(await rowOf("users", kept.id)).not.toBeNull();

    const gone = await GuardedUser.create({ name: "Gone" });
    await expect(gone.destroyOrThrow()).resolves.toBe(gone);
    expectState(gone, "destroyed");
    expect(await rowOf("users", gone.id)).toBeNull();
  });

  it("createOrThrow returns a persisted record, or throws RecordInvalid / RecordNotSaved", async () => {
    const user = await GuardedUser.createOrThrow({ name: "Ada" });
    expect(user).toBeInstanceOf(GuardedUser);
    expectState(user, "persisted");
    expect(await rowOf("users", user.id)).toMatchObject({ name: "Ada" });

    const invalid = await rejectionOf(GuardedUser.createOrThrow({ name: "" }));
    expect(invalid).toBeInstanceOf(RecordInvalid);
    const refused = (invalid as RecordInvalid).record as InstanceType<typeof GuardedUser>;
    expect(refused).toBeInstanceOf(GuardedUser);
    expectState(refused, "new");
    expect(refused.errors.fullMessages()).toEqual(["Name can't be blank"]);

    await expect(GuardedUser.createOrThrow({ name: "Stop there" })).rejects.toThrow(new RecordNotSaved("no saving Stop there"));
    expect(await countRows("users")).toBe(1);
  });
});

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

// ---- Record item 6: in-place edits ---------------------------------------------------------------------

describe("in-place edits (Record 6)", () => {
  it("editing a json value in place counts as a change and is written", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", settings: { theme: "dark", tags: ["a"] } });
    events.length = 0;
    const settings = user.settings as { theme: string; tags: string[] };
    settings.theme = "light";
    expect(user.isChanged()).toBe(true);
    expect(user.changed()).toEqual(["settings"]);
    expect(user.changes()["settings"]).toEqual([
      { theme: "dark", tags: ["a"] },
      { theme: "light", tags: ["a"] },
    ]);
    expect(user.attributeWas("settings")).toEqual({ theme: "dark", tags: ["a"] });
    expect(await user.save()).toBe(true);
    expect(setColumns(events[0]!.sql)).toEqual(["settings", "updated_at"]);
    const row = await rowOf("users", user.id);
    expect(JSON.parse(row!["settings"] as string)).toEqual({ theme: "light", tags: ["a"] });

    events.length = 0;
    (user.settings as { tags: string[] }).tags.push("b");
    expect(user.isAttributeChanged("settings")).toBe(true);
    await user.save();
    expect(setColumns(events[0]!.sql)).toEqual(["settings", "updated_at"]);
    expect(JSON.parse((await rowOf("users", user.id))!["settings"] as string)).toEqual({ theme: "light", tags: ["a", "b"] });
  });

  it("isAttributeChanged casts from and to as conditions are cast", async () => {
    const user = await User.create({ name: "Ada", age: 36, admin: false, bornAt: "1990-05-01" });
    user.assign({ age: 37, admin: true, bornAt: "1991-01-01" });
    expect(user.isAttributeChanged("age", { from: "36", to: " 37 " })).toBe(true);
    expect(user.isAttributeChanged("admin", { from: "off", to: "on" })).toBe(true);
    expect(user.isAttributeChanged("bornAt", { from: "1990-05-01", to: new Date("1991-01-01T00:00:00Z") })).toBe(true);
    expect(user.isAttributeChanged("age", { from: "35" })).toBe(false);
    expect(user.isAttributeChanged("age", { from: "abc" })).toBe(false);
  });

  it("editing a Date in place counts as a change and is written", async () => {
    const { db, events } = listen();
    const user = await db.model(User).create({ name: "Ada", bornAt: "1990-05-01" });
    events.length = 0;
    user.bornAt!.setUTCFullYear(1991);
    expect(user.isChanged()).toBe(true);
    expect(user.changed()).toEqual(["bornAt"]);
    const [old, now] = user.changes()["bornAt"] as [Date, Date];
    expect(old.toISOString()).toBe("1990-05-01T00:00:00.000Z");
    expect(now.toISOString()).toBe("1991-05-01T00:00:00.000Z");
    await user.save();
    expect(setColumns(events[0]!.sql)).toEqual(["born_at", "updated_at"]);
    expect(await rowOf("users", user.id)).toMatchObject({ born_at: "1991-05-01T00:00:00.000Z" });
  });
});

// ---- Record item 7: toJSON and attributes() ------------------------------------------------------------

class HidingBase extends ActiveRecord {
  static override binding = "DB";
  static override hiddenAttributes = ["email", "passwordDigest"];
}
const HidingRecord = defineApplicationRecord(schema, HidingBase);
/** Inherits the base's hidden list (email hidden; passwordDigest, which users lack, ignored). */
class QuietUser extends HidingRecord("users") {}
/** Its own list replaces the base's: age hidden, email shown. */
class OwnListUser extends HidingRecord("users") {
  static override hiddenAttributes = ["age"];
}
/** Its own empty list replaces Account's. */
class OpenAccount extends Account {
  static override hiddenAttributes: string[] = [];
}

describe("toJSON and attributes() (Record 7)", () => {
  it("toJSON gives dates as ISO strings and every attribute", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", bornAt: "2000-01-02", settings: { a: 1 }, admin: true });
    const json = user.toJSON();
    expect(json).toEqual({
      id: user.id,
      name: "Ada",
      email: "ada@example.com",
      age: null,
      score: null,
      admin: true,
      bornAt: "2000-01-02T00:00:00.000Z",
      settings: { a: 1 },
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    });
    expect(JSON.parse(JSON.stringify(user))).toEqual(json);
  });

  it("attributes() gives Dates as Date and includes hidden attributes", async () => {
    const account = await Account.create({ name: "Ada", passwordDigest: "digest" });
    const attributes = account.attributes();
    expect(attributes["createdAt"]).toBeInstanceOf(Date);
    expect(attributes["passwordDigest"]).toBe("digest");
    expect(Object.keys(attributes).sort()).toEqual(["apiToken", "createdAt", "email", "id", "name", "passwordDigest", "role", "updatedAt"]);
  });

  it("toJSON omits hiddenAttributes", async () => {
    const account = await Account.create({ name: "Ada", passwordDigest: "digest", apiToken: "tok" });
    const json = account.toJSON();
    expect(json).not.toHaveProperty("passwordDigest");
    expect(json).toMatchObject({ name: "Ada", apiToken: "tok", role: "member" });
    expect(JSON.stringify(account)).not.toContain("digest");
  });

  it("hiddenAttributes is fixed at the Model's first use, like every declaration", () => {
    class LateHidden extends QuietUser {}
    const record = LateHidden.build({ name: "Ada", email: "ada@example.com" });
    LateHidden.hiddenAttributes = ["name"];
    expect(record.toJSON()).toMatchObject({ name: "Ada" });
    expect(record.toJSON()).not.toHaveProperty("email");
  });

  it("a Model's own hiddenAttributes replaces its base class's list", () => {
    const open = OpenAccount.build({ name: "Ada", passwordDigest: "digest" });
    expect(open.toJSON()).toMatchObject({ passwordDigest: "digest" });

    const quiet = QuietUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    expect(quiet.toJSON()).not.toHaveProperty("email");
    expect(quiet.toJSON()).toMatchObject({ name: "Ada", age: 3 });

    const own = OwnListUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    expect(own.toJSON()).not.toHaveProperty("age");
    expect(own.toJSON()).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(own.attributes()).toMatchObject({ age: 3, email: "ada@example.com" });
  });
});

// ---- Record item 8: printing ----------------------------------------------------------------------------

describe("printing (Record 8)", () => {
  it("shows the class and attributes, filtered ones as [FILTERED], and flags nothing when clean", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", age: 36 });
    for (const text of [String(user), inspect(user)]) {
      expect(text).toContain("User");
      expect(text).toContain("Ada");
      expect(text).toContain("36");
      expect(text).toContain(user.id);
      expect(text).toContain("[FILTERED]");
      expect(text).not.toContain("ada@example.com");
      expect(text).not.toContain("(was");
      expect(text).not.toContain("(changed)");
    }
  });

  it("a record of an anonymous Model class prints its table name in place of the class name", () => {
    const [Anonymous] = [class extends Model({ id: "string", name: "string" }) {
      static override tableName = "users";
    }];
    expect(Anonymous!.name).toBe("");
    const record = Anonymous!.build({ id: "u1", name: "Ada" });
    expect(String(record)).toBe('#<users id: "u1", name: "Ada">');
    expect(inspect(record)).toBe('#<users id: "u1", name: "Ada">');
    expect(String(Anonymous!.where({ name: "Ada" }))).toContain("users");
    const [Untabled] = [class extends Model({ id: "string" }) {}];
    expect(() => Untabled!.build()).toThrow(/^An anonymous Model has no table name/);
  });

  it("prints unsaved changes as the new value followed by (was <old>), a filtered one as (changed)", async () => {
    const user = await User.create({ name: "Ada", email: "ada@example.com", age: 36 });
    user.name = "Grace";
    user.age = 37;
    user.email = "grace@example.com";
    for (const text of [String(user), inspect(user)]) {
      expect(text).toMatch(/"?Grace"?\s*\(was "?Ada"?\)/);
      expect(text).toMatch(/37\s*\(was 36\)/);
      expect(text).toMatch(/\[FILTERED\]\s*\(changed\)/);
      expect(text).not.toContain("grace@example.com");
      expect(text).not.toContain("ada@example.com");
      expect(text.match(/\(was /g)).toHaveLength(2);
    }
  });

  it("flags nothing on a new record", () => {
    const user = GuardedUser.build({ name: "Ada", email: "ada@example.com", age: 3 });
    const text = String(user);
    expect(text).toContain("GuardedUser");
    expect(text).toContain("Ada");
    expect(text).toContain("[FILTERED]");
    expect(text).not.toContain("ada@example.com");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
  });

  it("still prints hidden attributes", () => {
    const user = OwnListUser.build({ name: "Ada", age: 41 });
    expect(String(user)).toContain("41");
  });
});

// ---- Change tracking --------------------------------------------------------------------------------------

type Snapshot = Record<string, unknown>;
const beforeSnapshots: Snapshot[] = [];
const afterSnapshots: Snapshot[] = [];

/** Records what the change-tracking methods answer in before-save and after-save hooks. */
class TrackedCounter extends Counter {
  static {
    this.hook("record:beforeSave", ({ record, operation }) => {
      beforeSnapshots.push({
        operation,
        isChanged: record.isChanged(),
        changed: record.changed(),
        changedAttributes: record.changedAttributes(),
        changes: record.changes(),
        labelWas: record.attributeWas("label"),
        labelChanged: record.isAttributeChanged("label"),
        labelChangedFromA: record.isAttributeChanged("label", { from: "a" }),
        labelChangedFromNull: record.isAttributeChanged("label", { from: null }),
        labelChangedFromZ: record.isAttributeChanged("label", { from: "zzz" }),
        willSaveLabel: record.willSaveChangeTo("label"),
        willSaveValue: record.willSaveChangeTo("value"),
      });
    });
    this.hook("record:afterSave", ({ record, operation }) => {
      afterSnapshots.push({
        operation,
        isChanged: record.isChanged(),
        changes: record.changes(),
        savedChanges: record.savedChanges(),
        savedChangeToLabel: record.savedChangeTo("label"),
        savedChangeToValue: record.savedChangeTo("value"),
        hasSavedChangeToLabel: record.hasSavedChangeTo("label"),
        hasSavedChangeToValue: record.hasSavedChangeTo("value"),
        labelBeforeLastSave: record.attributeBeforeLastSave("label"),
        valueBeforeLastSave: record.attributeBeforeLastSave("value"),
      });
    });
  }
}

describe("change tracking", () => {
  beforeEach(() => {
    beforeSnapshots.length = 0;
    afterSnapshots.length = 0;
  });

  it("on create: unsaved changes in before-save hooks, saved changes in after-save hooks", async () => {
    const counter = TrackedCounter.build({ label: "a" });
    expect(counter.isChanged()).toBe(true);
    await counter.save();
    expect(beforeSnapshots).toEqual([
      {
        operation: "create",
        isChanged: true,
        changed: ["label"],
        changedAttributes: { label: null },
        changes: { label: [null, "a"] },
        labelWas: null,
        labelChanged: true,
        labelChangedFromA: false,
        labelChangedFromNull: true,
        labelChangedFromZ: false,
        willSaveLabel: true,
        willSaveValue: false,
      },
    ]);
    expect(afterSnapshots).toHaveLength(1);
    expect(afterSnapshots[0]).toMatchObject({
      operation: "create",
      isChanged: false,
      changes: {},
      savedChangeToLabel: [null, "a"],
      hasSavedChangeToLabel: true,
      labelBeforeLastSave: null,
    });
    expect((afterSnapshots[0]!["savedChanges"] as Snapshot)["label"]).toEqual([null, "a"]);
  });

  it("on update: the methods answer for the changed attributes only", async () => {
    const counter = await TrackedCounter.create({ label: "a" });
    beforeSnapshots.length = 0;
    afterSnapshots.length = 0;

    counter.label = "b";
    counter.value = 8;
    await counter.save();
    expect(beforeSnapshots).toEqual([
      {
        operation: "update",
        isChanged: true,
        changed: ["label", "value"],
        changedAttributes: { label: "a", value: 7 },
        changes: { label: ["a", "b"], value: [7, 8] },
        labelWas: "a",
        labelChanged: true,
        labelChangedFromA: true,
        labelChangedFromNull: false,
        labelChangedFromZ: false,
        willSaveLabel: true,
        willSaveValue: true,
      },
    ]);
    expect(afterSnapshots).toEqual([
      {
        operation: "update",
        isChanged: false,
        changes: {},
        savedChanges: { label: ["a", "b"], value: [7, 8] },
        savedChangeToLabel: ["a", "b"],
        savedChangeToValue: [7, 8],
        hasSavedChangeToLabel: true,
        hasSavedChangeToValue: true,
        labelBeforeLastSave: "a",
        valueBeforeLastSave: 7,
      },
    ]);

    counter.label = "c";
    await counter.save();
    expect(beforeSnapshots[1]).toMatchObject({ changed: ["label"], labelChangedFromA: false, willSaveLabel: true, willSaveValue: false });
    expect(afterSnapshots[1]).toEqual({
      operation: "update",
      isChanged: false,
      changes: {},
      savedChanges: { label: ["b", "c"] },
      savedChangeToLabel: ["b", "c"],
      savedChangeToValue: undefined,
      hasSavedChangeToLabel: true,
      hasSavedChangeToValue: false,
      labelBeforeLastSave: "b",
      valueBeforeLastSave: 8,
    });
    // Outside hooks the saved changes stay until the next save.
    expect(counter.savedChanges()).toEqual({ label: ["b", "c"] });
    expect(counter.hasSavedChangeTo("label")).toBe(true);

    // A save that writes nothing leaves no saved changes.
    await counter.save();
    expect(counter.savedChanges()).toEqual({});
    expect(counter.hasSavedChangeTo("label")).toBe(false);
  });

  it("outside hooks the unsaved-change methods track assignments", async () => {
    const counter = await Counter.create({ label: "a" });
    expect(counter.isChanged()).toBe(false);
    expect(counter.changed()).toEqual([]);
    expect(counter.changes()).toEqual({});
    counter.label = "b";
    expect(counter.changed()).toEqual(["label"]);
    expect(counter.changedAttributes()).toEqual({ label: "a" });
    expect(counter.attributeWas("label")).toBe("a");
    expect(counter.attributeWas("value")).toBe(7);
    expect(counter.isAttributeChanged("label")).toBe(true);
    expect(counter.isAttributeChanged("value")).toBe(false);
    expect(counter.isAttributeChanged("label", { from: "a" })).toBe(true);
    expect(counter.isAttributeChanged("label", { from: "b" })).toBe(false);
    expect(counter.willSaveChangeTo("label")).toBe(true);
    counter.label = "a";
    expect(counter.isChanged()).toBe(false);
  });

  it("attributeBeforeLastSave of an attribute the last save left alone is its stored value, not an unsaved one", async () => {
    const counter = await Counter.create({ label: "a", value: 1 });
    await counter.update({ value: 2 });
    counter.label = "unsaved";
    expect(counter.attributeBeforeLastSave("value")).toBe(1);
    expect(counter.attributeBeforeLastSave("label")).toBe("a");
    expect(Counter.build({ label: "new" }).attributeBeforeLastSave("label")).toBeNull();
  });

  it("restoreAttributes(...names) undoes the named changes, restoreAttributes() all of them", async () => {
    const { db, events } = listen();
    const counter = await db.model(Counter).create({ label: "a" });
    events.length = 0;
    counter.label = "x";
    counter.value = 9;
    counter.restoreAttributes("label");
    expect(counter.label).toBe("a");
    expect(counter.value).toBe(9);
    expect(counter.changed()).toEqual(["value"]);
    counter.restoreAttributes();
    expect(counter.value).toBe(7);
    expect(counter.isChanged()).toBe(false);
    await counter.save();
    expect(events).toHaveLength(0);
  });

  it("restoreAttributes() on a new record undoes its assignments", () => {
    const counter = Counter.build({ label: "a" });
    counter.restoreAttributes();
    expect(counter.label).toBeNull();
    expect(counter.isChanged()).toBe(false);
  });

  it("restoreAttributes() on a new record keeps what build() gave it: defaults and the generated id", async () => {
    const user = User.build({ name: "Ada", admin: true });
    const id = user.id;
    user.restoreAttributes();
    expect([user.id, user.admin, user.name]).toEqual([id, false, null]);
    user.restoreAttributes("id");
    expect(user.id).toBe(id);
    user.name = "Ada";
    expect(await user.save()).toBe(true);
    expect((await User.find(id)).admin).toBe(false);
  });
});

// ---- Errors collection ----------------------------------------------------------------------------------

describe("errors collection", () => {
  it("each entry has attribute, type and message; fullMessages prefixes the readable attribute name", async () => {
    const user = TwiceInvalidUser.build({ name: "x" });
    expect(await user.save()).toBe(false);
    expect([...user.errors].map(({ attribute, type, message }) => ({ attribute, type, message }))).toEqual([
      { attribute: "name", type: "too_short", message: "is too short" },
      { attribute: "bornAt", type: "blank", message: "can't be blank" },
    ]);
    expect(user.errors.fullMessages()).toEqual(["Name is too short", "Born at can't be blank"]);
  });

  it("prints each failure", async () => {
    const user = TwiceInvalidUser.build({ name: "x" });
    await user.save();
    for (const text of [String(user.errors), inspect(user.errors)]) {
      expect(text).toContain("Name is too short");
      expect(text).toContain("Born at can't be blank");
    }
  });

  it("a validate hook adding a blank error gives \"Name can't be blank\"", async () => {
    const user = await GuardedUser.create({ name: "" });
    expect(user.errors.fullMessages()).toEqual(["Name can't be blank"]);
  });
});
