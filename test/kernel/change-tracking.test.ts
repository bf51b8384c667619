/** Change tracking: isChanged, changes, previous values, and in-place edits of JSON and date values. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { type QueryEvent } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";

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
