/** Change tracking: isChanged, changes, previous values, and in-place edits of JSON and date values. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type QueryEvent,
  abort,
  batch,
  MissingAttribute,
  RecordNotUnique,
  RecordDestroyed,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen, countRows } from "../helpers/queries.js";
import { Counter, User, ApplicationRecord as FixtureApplicationRecord } from "../models/fixtures.js";
import { thrown, typeError } from "../helpers/errors.js";
import { Item } from "../models/typed-items.js";
import { AuditItem } from "../models/audit-items.js";
import { RowApplicationRecord, Row } from "../models/noted-rows.js";
import { BlobUser, bytes, storedBlobs } from "../models/blob-users.js";

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

// ---- Models with callbacks (subclasses, so nothing leaks into User) ------------------------------

const callbackLog: string[] = [];

beforeEach(() => {
  callbackLog.length = 0;
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

  it("the previous changes keep the values as saved: a json value or a Date edited in place after the save leaves them alone", async () => {
    const user = await User.create({ name: "Ada", settings: { theme: "dark" }, bornAt: "1990-05-01" });
    const settings = user.settings as { theme: string };
    settings.theme = "light";
    await user.save();
    settings.theme = "edited after";
    user.bornAt!.setUTCFullYear(1999);
    expect(user.savedChanges()["settings"]).toEqual([{ theme: "dark" }, { theme: "light" }]);
    expect(user.savedChangeTo("settings")).toEqual([{ theme: "dark" }, { theme: "light" }]);
    expect(user.attributeBeforeLastSave("settings")).toEqual({ theme: "dark" });
    (user.savedChangeTo("settings")![0] as { theme: string }).theme = "edited answer";
    expect(user.attributeBeforeLastSave("settings")).toEqual({ theme: "dark" });

    const created = await User.create({ name: "Bo", settings: { tags: ["a"] }, bornAt: "1990-05-01" });
    (created.settings as { tags: string[] }).tags.push("b");
    created.bornAt!.setUTCFullYear(1999);
    expect(created.savedChangeTo("settings")).toEqual([null, { tags: ["a"] }]);
    expect((created.savedChangeTo("bornAt")![1] as Date).toISOString()).toBe("1990-05-01T00:00:00.000Z");
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

describe("Change tracking across saves, reloads and failures", () => {
  it("'Persisted -> Persisted: ... saved changes recorded and record becomes clean'; reload clears savedChanges as Rails does", async () => {
    const row = await Row.create({ label: "a", qty: 1 });
    row.label = "b";
    await row.save();
    expect(row.savedChanges()).toEqual({ label: ["a", "b"], updatedAt: [expect.any(Date), expect.any(Date)] });
    expect(row.attributeBeforeLastSave("label")).toBe("a");
    expect(row.hasSavedChangeTo("label")).toBe(true);
    // A save with no change records nothing.
    await row.save();
    expect(row.savedChanges()).toEqual({});
    expect(row.hasSavedChangeTo("label")).toBe(false);
    row.label = "c";
    await row.reload();
    expect(row.label).toBe("b");
    expect(row.isChanged()).toBe(false);
    expect(row.savedChanges()).toEqual({});
  });

  it("a failed save keeps the unsaved changes and the previous saved changes", async () => {
    class Strict extends RowApplicationRecord("sar2_rows") {
      static {
        this.validates("label", { presence: true });
      }
    }
    const row = await Strict.create({ label: "a" });
    row.label = "b";
    await row.save();
    row.label = null;
    expect(await row.save()).toBe(false);
    expect(row.changes()).toEqual({ label: ["b", null] });
    expect(row.savedChanges()).toMatchObject({ label: ["a", "b"] });
    row.restoreAttributes();
    expect(row.label).toBe("b");
    expect(row.isChanged()).toBe(false);
    expect(row.errors.fullMessages()).toEqual(["Label can't be blank"]);
  });

  it("an aborted save keeps changes and sends nothing; a refused constraint keeps the changes too", async () => {
    let stop = false;
    class Guarded extends RowApplicationRecord("sar2_rows") {
      static {
        this.beforeSave(() => {
          if (stop) throw abort("stopped");
        });
      }
    }
    await Guarded.create({ code: "taken" });
    const row = await Guarded.create({ label: "a" });
    const stampBefore = row.updatedAt!.getTime();
    stop = true;
    row.label = "b";
    expect(await row.save()).toBe(false);
    expect(row.abortReason).toBe("stopped");
    expect(row.changes()).toEqual({ label: ["a", "b"] });
    expect(row.updatedAt!.getTime()).toBe(stampBefore);
    stop = false;
    row.code = "taken";
    expect(await thrown(() => row.save())).toBeInstanceOf(RecordNotUnique);
    expect(row.changed().sort()).toEqual(["code", "label"]);
    expect(row.isPersisted()).toBe(true);
    expect((await Guarded.find(row.id)).label).toBe("a");
  });

  it("a batch that fails half-way writes nothing and leaves every record in its state before the batch", async () => {
    await Row.create({ code: "taken" });
    const first = Row.build({ label: "first" });
    const existing = await Row.create({ label: "before" });
    existing.label = "after";
    const doomed = Row.build({ label: "doomed", code: "taken" });
    const error = await thrown(() => batch([first.toSave(), existing.toSave(), doomed.toSave()]));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(await countRows("sar2_rows")).toBe(2);
    expect((await Row.find(existing.id)).label).toBe("before");
    expect(first.isNewRecord()).toBe(true);
    expect(first.createdAt).toBeNull();
    expect(doomed.isNewRecord()).toBe(true);
    expect(existing.isPersisted()).toBe(true);
    expect(existing.changes()).toEqual({ label: ["before", "after"] });
    // Each can be saved once the cause is fixed.
    doomed.code = "free";
    await batch([first.toSave(), existing.toSave(), doomed.toSave()]);
    expect(await countRows("sar2_rows")).toBe(4);
    expect(first.isPersisted() && doomed.isPersisted() && !existing.isChanged()).toBe(true);
  });
});

describe("change tracking", () => {
  it("a new record: changes show [null, value]; restoreAttributes goes back to what build gave", () => {
    const item = Item.build({ name: "a", qty: 5 });
    expect(item.changes()["name"]).toEqual([null, "a"]);
    expect(item.attributeWas("name")).toBeNull();
    expect(item.isAttributeChanged("qty", { from: null })).toBe(true);
    item.restoreAttributes();
    expect(item.name).toBeNull();
    expect(item.qty).toBe(1);
  });

  it("isAttributeChanged with from, willSaveChangeTo, restoreAttributes of some names", async () => {
    const item = await Item.create({ name: "a", qty: 30, flag: false });
    item.qty = 31;
    item.name = "b";
    item.flag = true;
    expect(item.isAttributeChanged("qty", { from: 30 })).toBe(true);
    expect(item.isAttributeChanged("qty", { from: "30" })).toBe(true);
    expect(item.isAttributeChanged("qty", { from: 29 })).toBe(false);
    expect(item.isAttributeChanged("flag", { from: false })).toBe(true);
    expect(item.isAttributeChanged("price")).toBe(false);
    expect(item.willSaveChangeTo("name")).toBe(true);
    expect(item.willSaveChangeTo("price")).toBe(false);
    expect(item.changedAttributes()).toEqual({ name: "a", qty: 30, flag: false });
    item.restoreAttributes("name", "qty");
    expect(item.changed()).toEqual(["flag"]);
    expect(item.name).toBe("a");
    expect(item.restoreAttributes()).toBe(item);
    expect(item.isChanged()).toBe(false);
  });

  // SPEC Record 3: "undefined as a value throws TypeError (use null for NULL)"; Errors: "TypeError | ... undefined is
  // assigned or used in a condition". isAttributeChanged's values are cast as conditions are; undefined answered false.
  it("isAttributeChanged with from or to undefined throws TypeError", async () => {
    const item = await Item.create({ name: "a", qty: 1 });
    item.qty = 2;
    for (const options of [{ from: undefined }, { to: undefined }, { from: 1, to: undefined }]) {
      const message = typeError(() => item.isAttributeChanged("qty", options));
      expect(message).toContain("Item.qty");
    }
    typeError(() => item.isAttributeChanged("name", { from: undefined }));
    expect(item.isAttributeChanged("qty", { from: null })).toBe(false);
  });

  it("savedChanges after create and reload", async () => {
    const item = await Item.create({ name: "a" });
    expect(item.savedChangeTo("name")).toEqual([null, "a"]);
    expect(item.hasSavedChangeTo("price")).toBe(false);
    expect(item.savedChangeTo("price")).toBeUndefined();
    await item.reload();
    expect(item.savedChanges()).toEqual({});
  });

  it("records loaded by select: reading, assigning or asking the old value of another attribute throws MissingAttribute", async () => {
    await Item.create({ name: "a", qty: 3, email: "e@x" });
    const partial = (await Item.select("name").first())!;
    expect(partial.name).toBe("a");
    expect(() => partial.qty).toThrow(MissingAttribute);
    expect(() => partial.readAttribute("qty")).toThrow(MissingAttribute);
    expect(() => (partial.qty = 4)).toThrow(MissingAttribute);
    expect(() => partial.assign({ qty: 4 })).toThrow(MissingAttribute);
    expect(() => partial.attributeWas("qty")).toThrow(MissingAttribute);
    expect(() => partial.attributeBeforeLastSave("qty")).toThrow(MissingAttribute);
    expect(Object.keys(partial.attributes()).sort()).toEqual(["id", "name"]);
    expect(Object.keys(partial.toJSON()).sort()).toEqual(["id", "name"]);
    partial.name = "b";
    const { db, events } = listen();
    await db.model(Item).all(); // touch
    expect(await partial.save()).toBe(true);
    expect((await Item.find(partial.id)).name).toBe("b");
    expect(events).toHaveLength(0);
  });
});

// ---- Change tracking ------------------------------------------------------------------------------------------

describe("guide: Change tracking", () => {
  it("the other methods, in the callbacks they are meant for", async () => {
    const logs: string[] = [];
    class Subscriber extends FixtureApplicationRecord("users") {
      static {
        this.beforeSave((user) => {
          if (user.willSaveChangeTo("email")) user.admin = false;
        });
        this.afterUpdate((user) => {
          if (user.hasSavedChangeTo("name")) logs.push(`renamed from ${user.savedChangeTo("name")![0]}`);
        });
      }
    }
    const grace = await Subscriber.create({ name: "Grace", admin: true });
    expect(grace.isChanged()).toBe(false);
    grace.name = "Grace H.";
    expect(grace.isChanged()).toBe(true);
    expect(grace.changes()).toEqual({ name: ["Grace", "Grace H."] });
    expect(grace.changedAttributes()).toEqual({ name: "Grace" });
    expect(grace.attributeWas("name")).toBe("Grace");
    await grace.save();
    expect(logs).toEqual(["renamed from Grace"]);
    expect(grace.admin).toBe(true);
    await grace.update({ email: "grace@example.com" });
    expect(grace.admin).toBe(false);
    expect((await Subscriber.find(grace.id)).admin).toBe(false);
  });

  it("tracks as shown", async () => {
    const ada = await User.create({ name: "Ada", age: 30, settings: { theme: "dark" } });
    ada.age = 31;
    (ada.settings as { theme: string }).theme = "light";
    expect(ada.changed()).toEqual(["age", "settings"]);
    expect(ada.isAttributeChanged("age", { from: 30 })).toBe(true);
    expect(ada.isAttributeChanged("age", { from: "30" })).toBe(true);
    ada.restoreAttributes("settings");
    expect(ada.settings).toEqual({ theme: "dark" });
    await ada.save();
    const saved = ada.savedChanges();
    expect(Object.keys(saved)).toEqual(["age", "updatedAt"]);
    expect(saved["age"]).toEqual([30, 31]);
    expect(saved["updatedAt"]![0]).toBeInstanceOf(Date);
    expect(saved["updatedAt"]![1]).toBeInstanceOf(Date);
    expect(ada.attributeBeforeLastSave("age")).toBe(30);
    expect(ada.savedChangeTo("age")).toEqual([30, 31]);
    expect(ada.hasSavedChangeTo("age")).toBe(true);
  });

  it("restoreAttributes on a new record goes back to what build() gave it", () => {
    const user = User.build({ name: "Ada" });
    const id = user.id;
    user.admin = true;
    user.id = "other";
    user.restoreAttributes();
    expect(user.admin).toBe(false);
    expect(user.id).toBe(id);
  });
});

describe("edge cases once missed", () => {
  // SPEC States and transitions: "Destroyed | any attribute assignment, save, update, destroy, reload | always | Destroyed |
  // throws RecordDestroyed"; Errors: "RecordDestroyed | a destroyed record is changed, ...".
  it("restoreAttributes() on a destroyed record throws RecordDestroyed and changes nothing", async () => {
    const item = await AuditItem.create({ name: "a" });
    item.name = "b";
    await item.destroy();
    const error = await thrown(() => item.restoreAttributes());
    expect(error).toBeInstanceOf(RecordDestroyed);
    expect(item.name).toBe("b");
  });

  // SPEC Errors: "MissingAttribute | an attribute not loaded by select is read, including in validators and callbacks".
  it("attributeWas() of an attribute not loaded by select throws MissingAttribute", async () => {
    await AuditItem.create({ name: "a", email: "e" });
    const partial = await AuditItem.select("name").first();
    const error = await thrown(() => partial!.attributeWas("email"));
    expect(error).toBeInstanceOf(MissingAttribute);
  });
});

describe("bytes", () => {
  it("equal bytes are no change, one byte changed is one; a save writes only a change", async () => {
    await BlobUser.createOrThrow({ id: bytes(1), name: "Ada", email: bytes(0, 255) });
    const { events, BlobUser: Users } = listen({ models: { BlobUser } });
    const user = await Users.find(bytes(1));
    user.email = bytes(0, 255);
    expect(user.changed()).toEqual([]);
    expect(user.isAttributeChanged("email")).toBe(false);
    expect(await user.save()).toBe(true);
    expect(events).toHaveLength(1);
    user.email = bytes(0, 254);
    expect(user.changed()).toEqual(["email"]);
    expect(user.isAttributeChanged("email", { from: bytes(0, 255), to: bytes(0, 254) })).toBe(true);
    expect(await user.save()).toBe(true);
    expect(events).toHaveLength(2);
    expect(events[1]!.sql).toMatch(/^UPDATE "users" SET "email" = \?1, "updated_at" = \?2 WHERE/);
    expect(await storedBlobs(env.DB)).toEqual([{ id: "01", email: "00FE", type: "blob,blob" }]);
  });
});
