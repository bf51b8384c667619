/**
 * Record lifecycle (SPEC.md "States and transitions", "Persistence"): New, Persisted and Destroyed records, save,
 * update, destroy, reload and the OrThrow forms. Every test runs on a fresh database.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it, vi, expectTypeOf } from "vitest";
import {
  abort,
  type QueryEvent,
  RecordDestroyed,
  RecordInvalid,
  RecordNotDestroyed,
  RecordNotFound,
  RecordNotSaved,
  InvalidModel,
  batch,
  connect,
  hasMany,
  MissingAttribute,
  RecordNotUnique,
  withDatabase,
  WriteInProgress,
  Model,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import { User, ApplicationRecord as FixtureApplicationRecord, Post } from "../models/fixtures.js";
import { AuditItem } from "../models/audit-items.js";
import { ApplicationRecord } from "../models/items-and-counters.js";

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

class Item extends ApplicationRecord("sal_items") {}

describe("more lifecycle probes", () => {
  // SPEC (States): "New | save(), create() | a callback aborts | New | returns false; reason in `abortReason`"; Errors:
  // "`RecordNotSaved` | an `OrThrow` save is aborted by a callback; message is the reason". A callback may add to
  // `errors` before it aborts (a Rails idiom: errors.add then throw :abort); the abort is still the callback's.
  it("a callback that adds an error and aborts: false, the reason in abortReason, RecordNotSaved for OrThrow", async () => {
    class Quota extends Item {
      static {
        this.beforeSave((record) => {
          record.errors.add("base", "quota", "quota exceeded");
          throw abort("over quota");
        });
      }
    }
    const record = Quota.build({ name: "Ada" });
    expect(await record.save()).toBe(false);
    expect(record.abortReason).toBe("over quota");
    expect(record.errors.fullMessages()).toEqual(["quota exceeded"]);
    const error = await thrown(() => record.saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("over quota");
    expect(await countRows("sal_items")).toBe(0);
  });

  // Rails' uniqueness leaves out the record's own row by its key as stored (`id_in_database`): a record whose key is
  // being changed is not "taken" by its own row.
  it("uniqueness ignores the record's own row even while its primary key is being changed", async () => {
    class Loose extends Item {
      static {
        this.validates("email", { uniqueness: { caseSensitive: false } });
      }
    }
    const record = await Loose.createOrThrow({ email: "ada@example.com" });
    record.id = "renamed-key";
    record.email = "ADA@example.com";
    expect(await record.save()).toBe(true);
    expect(record.errors.toArray()).toEqual([]);
    expect(await Item.pluck("id", "email")).toEqual([["renamed-key", "ADA@example.com"]]);
  });

  // SPEC (Record 10): "After that, declarations are fixed." Callbacks are declarations too.
  it("a callback declared after the Model's first use throws InvalidModel", () => {
    class Late extends Item {}
    Late.build({});
    expect(() => Late.beforeSave(() => {})).toThrow(InvalidModel);
    expect(() => Late.beforeDestroy(() => {})).toThrow(InvalidModel);
  });
});

describe("guide: One write of a record at a time", () => {
  it("a save or destroy while a save of the record is in progress is refused with WriteInProgress; nothing of it runs", async () => {
    const user = User.build({ name: "Ada" });
    const [first, second] = await Promise.allSettled([user.save(), user.save()]);
    expect(first).toEqual({ status: "fulfilled", value: true });
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(WriteInProgress);
    expect((second as PromiseRejectedResult).reason.message).toBe("User is being saved or destroyed: await that before saving or destroying it again");
    expectState(user, "persisted");
    expect(await User.pluck("id")).toEqual([user.id]);
    user.name = "Ada L.";
    const saving = user.save();
    await expect(user.destroy()).rejects.toThrow(WriteInProgress);
    await expect(user.updateOrThrow({ name: "Grace" })).rejects.toThrow(WriteInProgress);
    await expect(batch([user.toSave()])).rejects.toThrow(WriteInProgress);
    expect(await saving).toBe(true);
    expect(await User.pluck("name")).toEqual(["Ada L."]);
    // Once it is over, the record is written again as usual.
    expect(await user.update({ name: "Grace" })).toBe(true);
    await expect(batch([user.toSave(), user.toDestroy()])).rejects.toThrow(WriteInProgress);
    // Two saves of one record in one batch would write it twice from one state: refused, nothing sent.
    user.name = "Grace H.";
    await expect(batch([user.toSave(), user.toSave()])).rejects.toThrow(WriteInProgress);
    expect(await User.pluck("name")).toEqual(["Grace"]);
    expect(user.changed()).toEqual(["name"]);
    expect(await user.destroy()).toBe(user);
  });

  it("an assignment made while a save is sent stays a change to save, whether the save succeeds or fails", async () => {
    const user = User.build({ name: "Ada" });
    const creating = user.save();
    user.name = "Grace";
    user.age = 36;
    expect(await creating).toBe(true);
    expect([user.name, user.age, user.changed()]).toEqual(["Grace", 36, ["name", "age"]]);
    expect(await User.pluck("name", "age")).toEqual([["Ada", null]]);
    const updating = user.save();
    user.name = "Ada";
    expect(await updating).toBe(true);
    expect([user.name, user.changed()]).toEqual(["Ada", ["name"]]);
    expect(await User.pluck("name", "age")).toEqual([["Grace", 36]]);
    await User.createOrThrow({ name: "Taken", email: "taken@example.com" });
    user.email = "taken@example.com";
    const failing = user.save();
    user.age = 37;
    await expect(failing).rejects.toThrow(RecordNotUnique);
    expect([user.name, user.email, user.age, user.changed()]).toEqual(["Ada", "taken@example.com", 37, ["name", "email", "age"]]);
    user.email = null;
    expect(await user.save()).toBe(true);
    expect(await User.where({ id: user.id }).pluck("name", "age")).toEqual([["Ada", 37]]);
  });

  it("an after-save callback may save the record again", async () => {
    class Numbered extends Item {
      static {
        this.afterSave(async (record) => {
          if (record.qty === null) await record.updateOrThrow({ qty: 1 });
        });
      }
    }
    const record = await Numbered.createOrThrow({ name: "Ada" });
    expect([record.qty, record.changed()]).toEqual([1, []]);
    expect(await Item.pluck("qty")).toEqual([1]);
    await record.updateOrThrow({ qty: null });
    expect(record.qty).toBe(1);
  });

  it("a child checked with a parent that another child's refusal refused is written with it once it is fixed", async () => {
    class Part extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string" }) {
      static override binding = "DB";
      static override tableName = "saq_items";
      static {
        this.validates("name", { presence: true });
      }
    }
    class Kit extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "saq_owners";
      parts = hasMany(Part, { foreignKey: "ownerId" });
    }
    const kit = Kit.build({ id: "k", name: "Kit" });
    const valid = kit.parts().build({ id: "p1", name: "Bolt" });
    const invalid = kit.parts().build({ id: "p2", name: "" });
    expect(await kit.save()).toBe(false);
    invalid.name = "Nut";
    expect(await kit.save()).toBe(true);
    expect(valid.isPersisted()).toBe(true);
  });
});

// ---- Choices --------------------------------------------------------------------------------------------------

describe("guide: Choices made where the specification leaves it open", () => {
  it("no batch splitting: an insertAll of 150 rows is one statement with one bound value; a batch is one round trip", async () => {
    const { db, events } = listen();
    await db.model(User).insertAll(Array.from({ length: 150 }, (_, index) => ({ name: `u${index}` })));
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    expect(await User.where({ name: Array.from({ length: 150 }, (_, index) => `u${index}`) }).count()).toBe(150);
    const { binding, roundTrips } = recordingRoundTrips();
    const users = Array.from({ length: 120 }, (_, index) => connect(binding).model(User).build({ name: `b${index}` }));
    await batch(users.map((user) => user.toSave()));
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(120);
  });

  it("insert resolves to D1's meta unchanged: changes, last_row_id, rows_read, rows_written, duration", async () => {
    const meta = await User.insert({ name: "Ada" });
    expectTypeOf(meta).toEqualTypeOf<Record<string, unknown>>();
    expect(meta).toMatchObject({ changes: 1 });
    for (const key of ["last_row_id", "rows_read", "rows_written", "duration"]) expect(meta).toHaveProperty(key);
    const ada = (await User.first())!;
    const skipped = await User.insertAll([{ id: ada.id, name: "Ada" }], { onDuplicate: "skip" });
    expect(skipped["changes"]).toBe(0);
  });

  it("ids are UUID v7 in creation order; first/last give oldest and newest", async () => {
    const ids = Array.from({ length: 5 }, () => User.build({ name: "x" }).id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it("a save with no change still runs validation and save callbacks", async () => {
    const ran: string[] = [];
    class Cb extends FixtureApplicationRecord("users") {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => void ran.push("before"));
        this.afterSave(() => void ran.push("after"));
      }
    }
    const c = await Cb.createOrThrow({ name: "x" });
    ran.length = 0;
    await c.save();
    expect(ran).toEqual(["before", "after"]);
  });

  it("restrictWithError + destroyOrThrow throws RecordNotDestroyed", async () => {
    class Owner extends FixtureApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "restrictWithError", foreignKey: "userId" });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: o.id, title: "t" });
    await expect(o.destroyOrThrow()).rejects.toBeInstanceOf(RecordNotDestroyed);
    expect(await o.destroy()).toBe(false);
    expect(o.errors.on("base")).toHaveLength(1);
  });
});

describe("guide: Records, prose claims", () => {
  it("destroy() succeeds even if the row is already gone", async () => {
    const user = await User.createOrThrow({ name: "x" });
    await env.DB.prepare("DELETE FROM users").run();
    expect(await user.destroy()).toBe(user);
    await expect(user.reload()).rejects.toBeInstanceOf(RecordDestroyed);
  });

  it("reload of a deleted row throws RecordNotFound and discards unsaved changes otherwise", async () => {
    const user = await User.createOrThrow({ name: "x" });
    user.name = "y";
    await user.reload();
    expect(user.name).toBe("x");
    await env.DB.prepare("DELETE FROM users").run();
    await expect(user.reload()).rejects.toBeInstanceOf(RecordNotFound);
  });

  it("a record loaded by select without updatedAt cannot have it assigned, but its changing saves set it", async () => {
    const user = await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(() => {
      partial.updatedAt = new Date();
    }).toThrow(MissingAttribute);
    partial.name = "y";
    expect(await partial.save()).toBe(true);
    const row = await User.find(user.id);
    expect(row.name).toBe("y");
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(user.updatedAt.getTime());
    expect(row.updatedAt.getTime()).toBe(partial.updatedAt.getTime());
    expect(() => partial.createdAt).toThrow(MissingAttribute);
  });

  it("a failed write takes back the timestamps it set", async () => {
    await User.createOrThrow({ name: "a", email: "a@x.org" });
    const user = await User.createOrThrow({ name: "b" });
    user.email = "a@x.org";
    await expect(user.save()).rejects.toBeInstanceOf(RecordNotUnique);
    expect(user.changed()).toEqual(["email"]);
  });

  it("a record selected with select has only its loaded attributes in toJSON and attributes", async () => {
    await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(Object.keys(partial.toJSON()).sort()).toEqual(["id", "name"]);
    expect(Object.keys(partial.attributes()).sort()).toEqual(["id", "name"]);
  });

  it("an attribute a partial select did not load prints (changed)", async () => {
    await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(String(partial)).toContain("age: (changed)");
  });

  it("a new record flags nothing; hidden attributes still print", () => {
    class Hid extends FixtureApplicationRecord("users") {
      static override hiddenAttributes = ["age"];
    }
    const text = String(Hid.build({ name: "x", age: 3 }));
    expect(text).toContain("age: 3");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
  });

  it("new User() has no database and uses the current one when saved", async () => {
    const user = new User();
    user.id = "new-user";
    user.name = "x";
    const { db, sqls } = listen();
    await withDatabase(db, () => user.save());
    expect(sqls()).toHaveLength(1);
  });
});

describe("edge cases that hold", () => {

  it("destroy() refused by a database constraint throws, and the record stays Persisted", async () => {
    // users/posts have a foreign key
    const { User, Post } = await import("../models/fixtures.js");
    const user = await User.create({ name: "Ada" });
    await Post.create({ userId: user.id, title: "t" });
    const error = await thrown(() => user.destroy());
    expect(error).toBeInstanceOf(Error);
    expect(user.isPersisted()).toBe(true);
  });

  it("update() on a New record that fails validation returns false and leaves it New", async () => {
    class V extends AuditItem {
      static {
        this.validates("name", { presence: true });
      }
    }
    const item = V.build();
    expect(await item.update({ qty: 1 })).toBe(false);
    expect(item.isNewRecord()).toBe(true);
    expect(item.errors.fullMessages()).toEqual(["Name can't be blank"]);
  });
});
