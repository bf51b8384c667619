/**
 * Second pass of black-box probes of SPEC.md's record sections, aimed at combinations the first pass
 * (test/spec-audit-records.test.ts, test/casting.test.ts) left out: each casting row through every path that casts,
 * change tracking across saves, reloads and failed batches, timestamps in each transition, printing, and edge values.
 * Tables: test/fixtures/migrations/0026_spec_audit_records_2.sql.
 */
import { env } from "cloudflare:test";
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  ActiveRecord,
  batch,
  between,
  defineApplicationRecord,
  gt,
  gte,
  lt,
  lte,
  MissingAttribute,
  RecordNotFound,
  RecordNotUnique,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { thrown } from "./helpers/errors.js";
import { countRows } from "./helpers/queries.js";

beforeEach(resetDatabase);

class AppBase extends ActiveRecord {
  static override binding = "DB";
}

const schema = {
  sar2_rows: {
    id: { type: "string", null: false, generateId: true },
    label: "string",
    secretNote: "string",
    qty: "integer",
    price: "real",
    flag: "boolean",
    happenedAt: "datetime",
    stamp: "datetime",
    data: "json",
    code: "string",
    createdAt: "datetime",
    updatedAt: "datetime",
  },
} as const;

const ApplicationRecord = defineApplicationRecord(schema, AppBase);

class Row extends ApplicationRecord("sar2_rows") {}

type Attr = "label" | "qty" | "price" | "flag" | "happenedAt" | "data";
const utc = (...parts: [number, number, number?, number?, number?, number?, number?]) => new Date(Date.UTC(...parts));

/** [attribute, input, the JavaScript value it casts to]. */
const ACCEPTED: ReadonlyArray<readonly [Attr, unknown, unknown]> = [
  ["flag", "On", true],
  ["flag", "0", false],
  ["flag", 1, true],
  ["qty", " -12 ", -12],
  ["qty", "+7", 7],
  ["qty", Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ["qty", String(Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER],
  ["price", ".5", 0.5],
  ["price", "5.", 5],
  ["price", "-2e3", -2000],
  ["price", 0.1 + 0.2, 0.1 + 0.2],
  ["price", Number.MAX_VALUE, Number.MAX_VALUE],
  ["price", Number.MIN_VALUE, Number.MIN_VALUE],
  ["label", "", ""],
  ["label", "  x ", "  x "],
  ["happenedAt", "2024-02-29", utc(2024, 1, 29)],
  ["happenedAt", "0012-03-04T05:06:07+01:30", new Date("0012-03-04T03:36:07.000Z")],
  ["happenedAt", "0099-12-31T23:59:59.999-00:30", new Date("0100-01-01T00:29:59.999Z")],
  ["happenedAt", "2024-01-01T00:00:00.1234567Z", new Date("2024-01-01T00:00:00.123Z")],
  ["happenedAt", new Date("0001-01-01T00:00:00.000Z"), new Date("0001-01-01T00:00:00.000Z")],
  ["data", { a: [1, { b: null }] }, { a: [1, { b: null }] }],
  ["data", "text", "text"],
  ["data", 0, 0],
  ["data", false, false],
];

/** [attribute, refused input]. */
const REFUSED: ReadonlyArray<readonly [Attr, unknown]> = [
  ["flag", ""],
  ["flag", "yes"],
  ["qty", "1e3"],
  ["qty", 1.7],
  ["qty", "12abc"],
  ["qty", Number.MAX_SAFE_INTEGER + 1],
  ["qty", "9007199254740993"],
  ["price", "Infinity"],
  ["price", NaN],
  ["price", ""],
  ["label", 42],
  ["label", true],
  ["label", new Date(0)],
  ["happenedAt", "2024-01-01T10:00:00"],
  ["happenedAt", "2023-02-29"],
  ["happenedAt", "2024-01-01 10:00:00"],
  ["happenedAt", 0],
  ["happenedAt", ""],
  ["data", ""],
  ["data", Infinity],
];

const show = (value: unknown) => (value instanceof Date ? `Date(${value.toISOString()})` : JSON.stringify(value) ?? String(value));
const value = (record: object, name: Attr) => (record as Record<string, unknown>)[name];

describe("Casting: 'Every value is cast to the attribute's type when assigned: in build, create, assign, update, a property setter, a default, permit, and values given to insert, insertAll, upsert, upsertAll, updateAll.'", () => {
  for (const [name, input, expected] of ACCEPTED) {
    it(`${name} accepts ${show(input)} through every path, and conditions find it`, async () => {
      const attrs = { [name]: input } as never;
      expect(value(Row.build(attrs), name)).toEqual(expected);
      const created = await Row.create(attrs);
      expect(value(created, name)).toEqual(expected);
      expect(value(await Row.find(created.id), name)).toEqual(expected);
      const assigned = Row.build();
      assigned.assign(attrs);
      expect(value(assigned, name)).toEqual(expected);
      (assigned as unknown as Record<string, unknown>)[name] = input;
      expect(value(assigned, name)).toEqual(expected);
      assigned.writeAttribute(name as never, input as never);
      expect(value(assigned, name)).toEqual(expected);
      expect(Row.permit({ [name]: input }, name)[name]).toEqual(expected);
      // "Conditions are cast the same way."
      expect((await Row.findBy(attrs))?.id).toBe(created.id);
      expect((await Row.where(attrs).toArray()).map((row) => row.id)).toEqual([created.id]);
      expect((await Row.where({ [name]: [input] } as never).toArray()).map((row) => row.id)).toEqual([created.id]);
      await Row.create({ label: "other" });
      expect(await Row.whereNot(attrs).count()).toBe(name === "label" ? 1 : 0);
      expect(value(Row.where(attrs).build(), name)).toEqual(expected);
      // Bulk writes store the same cast value.
      await Row.insertAll([{ id: "bulk", ...(attrs as object) }]);
      expect(value(await Row.find("bulk"), name)).toEqual(expected);
      await Row.where({ id: "bulk" }).updateAll({ [name]: input } as never);
      expect(value(await Row.find("bulk"), name)).toEqual(expected);
      await Row.upsert({ id: "bulk", ...(attrs as object) });
      expect(value(await Row.find("bulk"), name)).toEqual(expected);
      // "... a default ..."
      class Defaulted extends ApplicationRecord("sar2_rows", { [name]: { default: () => input } } as never) {}
      expect(value(Defaulted.build(), name)).toEqual(expected);
      // Update through the record.
      const other = await Row.create({ label: "u" });
      await other.update(attrs);
      expect(value(await Row.find(other.id), name)).toEqual(expected);
    });
  }

  for (const [name, input] of REFUSED) {
    it(`${name} refuses ${show(input)} through every path; as a condition it matches nothing`, async () => {
      const attrs = { [name]: input } as never;
      const row = await Row.create({ label: "kept" });
      const before = value(row, name);
      expect(() => Row.build(attrs)).toThrow(TypeError);
      expect(await thrown(() => Row.create(attrs))).toBeInstanceOf(TypeError);
      expect(() => row.assign(attrs)).toThrow(TypeError);
      expect(await thrown(() => row.update(attrs))).toBeInstanceOf(TypeError);
      expect(value(row, name)).toEqual(before);
      expect(row.isChanged()).toBe(false);
      expect(() => Row.permit({ [name]: input }, name)).toThrow(TypeError);
      expect(await thrown(() => Row.insertAll([{ id: "x", ...(attrs as object) }]))).toBeInstanceOf(TypeError);
      expect(await thrown(() => Row.upsert({ id: "x", ...(attrs as object) }))).toBeInstanceOf(TypeError);
      expect(await thrown(() => Row.updateAll(attrs))).toBeInstanceOf(TypeError);
      class Defaulted extends ApplicationRecord("sar2_rows", { [name]: { default: () => input } } as never) {}
      expect(() => Defaulted.build()).toThrow(TypeError);
      expect(await countRows("sar2_rows")).toBe(1);
      // "A condition value that cannot be cast matches nothing (findBy gives null; find throws RecordNotFound)."
      expect(await Row.findBy(attrs)).toBeNull();
      expect(await Row.where(attrs).count()).toBe(0);
      // "In a list condition, uncastable values are dropped, so a negated condition on such a value excludes nothing."
      expect(await Row.whereNot({ [name]: [input] } as never).count()).toBe(1);
      expect(await Row.where({ [name]: [input, null] } as never).count()).toBe(name === "label" ? 0 : 1);
    });
  }

  it("find with an uncastable integer-looking id throws RecordNotFound, not TypeError", async () => {
    class IntKeyed extends ApplicationRecord("sar2_rows", { qty: "integer" }) {
      static override primaryKey = "qty";
    }
    await Row.create({ qty: 3 });
    expect((await IntKeyed.find(3)).qty).toBe(3);
    expect((await IntKeyed.find(" 3 ")).qty).toBe(3);
    for (const id of ["3.0", "1e0", "x", 3.5]) expect(await thrown(() => IntKeyed.find(id as never))).toBeInstanceOf(RecordNotFound);
    expect(await thrown(() => IntKeyed.find([3, "x"] as never))).toBeInstanceOf(RecordNotFound);
  });

  it("comparison helpers cast their values: text and Dates compare the same; uncastable ends match nothing", async () => {
    await Row.create({ qty: 5, price: 1.5, happenedAt: "2024-02-29T12:00:00+02:00", label: "m" });
    expect(await Row.where({ qty: gt(" 4 ") }).count()).toBe(1);
    expect(await Row.where({ qty: gte("5") }).count()).toBe(1);
    expect(await Row.where({ qty: lt("5") }).count()).toBe(0);
    expect(await Row.where({ price: lte(".5e1") }).count()).toBe(1);
    expect(await Row.where({ happenedAt: between("2024-02-29", "2024-03-01") }).count()).toBe(1);
    expect(await Row.where({ happenedAt: gt("2024-02-29T10:00:00.001Z") }).count()).toBe(0);
    expect(await Row.where({ happenedAt: gte("2024-02-29T12:00:00+02:00") }).count()).toBe(1);
    expect(await Row.where({ happenedAt: between("2024-02-29", "2024-02-29T10:00:00Z", { excludeEnd: true }) }).count()).toBe(0);
    expect(await Row.where({ label: between("a", "z") }).count()).toBe(1);
    expect(await Row.where({ label: gt(1) as never }).count()).toBe(1);
    for (const bad of ["1e3", "abc", ""]) {
      expect(await Row.where({ qty: gt(bad) }).count()).toBe(0);
      expect(await Row.whereNot({ qty: gt(bad) }).count()).toBe(1);
    }
    expect(await Row.where({ happenedAt: lt("2024-01-01T00:00:00") }).count()).toBe(0);
  });

  it("'A number in a condition on a string attribute is read as its digits, and a record built from that Relation starts with that value.'", async () => {
    await Row.create({ label: "-1.5" });
    expect(await Row.where({ label: -1.5 }).count()).toBe(1);
    expect(await Row.whereNot({ label: -1.5 }).count()).toBe(0);
    expect(Row.where({ label: 42 }).build().label).toBe("42");
    expect(await Row.where({ label: [42, -1.5] }).count()).toBe(1);
  });
});

describe("Overrides: 'a type name, e.g. boolean | Reads and writes the attribute as that type.'", () => {
  // Each override names a type other than its column's, whose affinity converts what is written: an INTEGER column
  // stores the text "5" as 5, a TEXT column stores 1 as text.
  class Retyped extends ApplicationRecord("sar2_rows", {
    qty: "string",
    price: "string",
    flag: "string",
    label: "boolean",
    code: "integer",
    secretNote: "real",
  }) {}

  it("a value read back from a column of another affinity has the attribute's type, and is no change", async () => {
    const written = { qty: "5", price: "2.5", flag: "1", label: false, code: 42, secretNote: 1.25 };
    const created = await Retyped.create(written);
    for (const record of [created, await Retyped.find(created.id)]) {
      expect(record.attributes()).toMatchObject(written);
      expect(record.isChanged()).toBe(false);
      record.assign(written);
      expect(record.changed()).toEqual([]);
    }
    const stored = await env.DB.prepare("SELECT qty, label, code FROM sar2_rows").first();
    // D1 binds every number as REAL, so the TEXT columns hold "0.0" and "42.0".
    expect(stored).toEqual({ qty: 5, label: "0.0", code: "42.0" });
    const loaded = await Retyped.find(created.id);
    loaded.label = true;
    expect(loaded.changes()).toEqual({ label: [false, true] });
    await loaded.save();
    expect((await Retyped.find(created.id)).label).toBe(true);
    expect((await Retyped.findBy({ label: true, code: "42", qty: "5" }))?.id).toBe(created.id);
  });
});

describe("Datetime edge values", () => {
  it("years 0-99, leap days and offsets round-trip through the database and compare as instants", async () => {
    const values = ["0000-02-29", "0004-02-29T23:59:59.999Z", "0099-12-31T23:30:00-01:00", "2000-02-29T00:00:00+14:00"];
    for (const text of values) {
      const row = await Row.create({ happenedAt: text });
      const loaded = await Row.find(row.id);
      expect(loaded.happenedAt!.getTime()).toBe(row.happenedAt!.getTime());
      expect((await Row.findBy({ happenedAt: text }))?.id).toBe(row.id);
      expect(loaded.isChanged()).toBe(false);
    }
    expect(() => Row.build({ happenedAt: "1900-02-29" })).toThrow(TypeError);
    expect(() => Row.build({ happenedAt: "2024-01-01T24:00:00Z" })).toThrow(TypeError);
    expect(() => Row.build({ happenedAt: "2024-01-01T10:00:00+24:00" })).toThrow(TypeError);
  });

  it("a SQLite CURRENT_TIMESTAMP default is read as a UTC Date; reading it is no change, and reassigning it as a Date is none", async () => {
    const row = await Row.create({ label: "s" });
    expect(row.stamp).toBeInstanceOf(Date);
    const raw = await env.DB.prepare("SELECT stamp FROM sar2_rows").first<{ stamp: string }>();
    expect(raw!.stamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row.stamp!.toISOString()).toBe(`${raw!.stamp.replace(" ", "T")}.000Z`);
    expect(row.isChanged()).toBe(false);
    row.stamp = new Date(row.stamp!.getTime());
    expect(row.isChanged()).toBe(false);
    const loaded = await Row.find(row.id);
    expect(loaded.stamp!.getTime()).toBe(row.stamp!.getTime());
    expect(loaded.toJSON().stamp).toBe(row.stamp!.toISOString());
    // As the guide says (Attribute declarations): conditions compare the stored text, which is not recordflare's form.
    expect(await Row.findBy({ stamp: row.stamp })).toBeNull();
  });
});

describe("Integers and reals at their limits", () => {
  it("the safe-integer limits and a real's full precision are stored and read back exactly", async () => {
    const row = await Row.create({ qty: Number.MAX_SAFE_INTEGER, price: 0.1 + 0.2 });
    const loaded = await Row.find(row.id);
    expect(loaded.qty).toBe(Number.MAX_SAFE_INTEGER);
    expect(loaded.price).toBe(0.1 + 0.2);
    expect(await Row.where({ qty: Number.MAX_SAFE_INTEGER }).count()).toBe(1);
    await loaded.update({ qty: Number.MIN_SAFE_INTEGER, price: 5e-324 });
    const again = await Row.find(row.id);
    expect(again.qty).toBe(Number.MIN_SAFE_INTEGER);
    expect(again.price).toBe(5e-324);
  });

  it("a real given as an integer-valued number is read back as a number and is no change", async () => {
    const row = await Row.create({ price: 3 });
    const loaded = await Row.find(row.id);
    expect(loaded.price).toBe(3);
    loaded.price = "3.0" as never;
    expect(loaded.isChanged()).toBe(false);
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
    class Strict extends ApplicationRecord("sar2_rows") {
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
    class Guarded extends ApplicationRecord("sar2_rows") {
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
    class Strict extends ApplicationRecord("sar2_rows") {
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

describe("Printing: 'Printing a record shows the class and attributes; filtered attributes print as [FILTERED] ...'", () => {
  it("a new record flags nothing, even its filtered attributes", () => {
    const row = Row.build({ label: "n", secretNote: "shh" });
    const text = inspect(row);
    expect(text).toContain("Row");
    expect(text).toContain("[FILTERED]");
    expect(text).not.toContain("shh");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
    expect(String(row)).toContain("Row");
    expect(String(row)).not.toContain("shh");
  });

  it("a persisted record shows (was <old>) for changes and (changed) for a changed filtered attribute; destroyed still prints", async () => {
    const row = await Row.create({ label: "old", secretNote: "a", happenedAt: "2024-01-01" });
    row.label = "new";
    row.secretNote = "b";
    const text = inspect(row);
    expect(text).toMatch(/new.*\(was .*old/);
    expect(text).toContain("(changed)");
    expect(text).not.toContain('"a"');
    expect(text).not.toContain('"b"');
    await row.reload();
    await row.destroy();
    const destroyed = inspect(row);
    expect(destroyed).toContain("old");
    expect(destroyed).not.toContain("(was");
    expect(String(row)).not.toContain("[object Object]");
  });

  it("an unloaded column of a partial record prints (changed); printing reads nothing missing", async () => {
    await Row.create({ label: "p", qty: 2, secretNote: "z" });
    const partial = (await Row.select("label").toArray())[0]!;
    const text = inspect(partial);
    expect(text).toContain("(changed)");
    expect(text).toContain("p");
    expect(String(partial)).toContain("Row");
  });
});

describe("toJSON and attributes: 'toJSON() returns attributes with dates as ISO strings, omitting hiddenAttributes'", () => {
  it("json attributes stay values (not JSON text); hidden ones are omitted from toJSON and kept in attributes()", async () => {
    class Hidden extends ApplicationRecord("sar2_rows") {
      static override hiddenAttributes = ["data", "secretNote"];
    }
    const row = await Hidden.create({ data: { d: new Date(0).toISOString(), n: [1] }, label: "l", happenedAt: "0050-01-01", secretNote: "s" });
    const json = row.toJSON() as Record<string, unknown>;
    expect(json).not.toHaveProperty("data");
    expect(json).not.toHaveProperty("secretNote");
    expect(json["happenedAt"]).toBe("0050-01-01T00:00:00.000Z");
    const attrs = row.attributes() as Record<string, unknown>;
    expect(attrs["data"]).toEqual({ d: "1970-01-01T00:00:00.000Z", n: [1] });
    expect(attrs["happenedAt"]).toBeInstanceOf(Date);
    expect(attrs["secretNote"]).toBe("s");
    expect(JSON.parse(JSON.stringify(row))).toEqual(json);
    const plain = Row.build({ data: { x: 1 } }).toJSON() as Record<string, unknown>;
    expect(plain["data"]).toEqual({ x: 1 });
    // attributes() is a copy: editing it changes nothing.
    (attrs["data"] as { n: number[] }).n.push(2);
    expect(row.attributes()).not.toBe(attrs);
  });
});
