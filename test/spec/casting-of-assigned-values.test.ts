/** SPEC.md, Casting of assigned values: each row of the table, through every path that casts, and the edge values of each type. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  between,
  gt,
  gte,
  lt,
  lte,
  RecordNotFound,
  CastError,
  UnknownAttribute,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { countRows } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";
import { RowApplicationRecord, Row } from "../models/noted-rows.js";

beforeEach(resetDatabase);

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
      class Defaulted extends RowApplicationRecord("sar2_rows", { [name]: { default: () => input } } as never) {}
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
      class Defaulted extends RowApplicationRecord("sar2_rows", { [name]: { default: () => input } } as never) {}
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
    class IntKeyed extends RowApplicationRecord("sar2_rows", { qty: "integer" }) {
      static override primaryKey = "qty";
    }
    await Row.create({ qty: 3 });
    expect((await IntKeyed.find(3)).qty).toBe(3);
    expect((await IntKeyed.find(" 3 ")).qty).toBe(3);
    for (const id of ["3.0", "1e0", "x", 3.5]) expect(await thrown(() => IntKeyed.find(id as never))).toBeInstanceOf(RecordNotFound);
    expect(await thrown(() => IntKeyed.find([3, "x"] as never))).toBeInstanceOf(RecordNotFound);
  });

  it("comparison helpers cast their values: text and Dates compare the same; an uncastable end throws CastError naming the Model and attribute", async () => {
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
      for (const refused of [() => Row.where({ qty: gt(bad as never) }), () => Row.whereNot({ qty: gt(bad as never) })]) {
        const error = (await thrown(refused)) as CastError;
        expect(error).toBeInstanceOf(CastError);
        expect([error.model, error.attribute]).toEqual([Row, "qty"]);
        expect(error.message).toBe(`Row.qty: ${JSON.stringify(bad)} is not a valid integer to compare with (gt)`);
      }
    }
    // A date-time without an offset is no datetime (SPEC): refused too.
    const noOffset = (await thrown(() => Row.where({ happenedAt: lt("2024-01-01T00:00:00") }))) as CastError;
    expect([noOffset, noOffset.attribute]).toEqual([expect.any(CastError), "happenedAt"]);
  });

  it("'A number in a condition on a string attribute is read as its digits, and a record built from that Relation starts with that value.'", async () => {
    await Row.create({ label: "-1.5" });
    expect(await Row.where({ label: -1.5 }).count()).toBe(1);
    expect(await Row.whereNot({ label: -1.5 }).count()).toBe(0);
    expect(Row.where({ label: 42 }).build().label).toBe("42");
    expect(await Row.where({ label: [42, -1.5] }).count()).toBe(1);
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

// ---- Casting ---------------------------------------------------------------------------------------------------

describe("guide: Casting", () => {
  it("casts and refuses with the messages shown", () => {
    const user = User.build({ name: "Ada", age: "36", admin: "on", bornAt: "1815-12-10" });
    expect(user.age).toBe(36);
    expect(user.admin).toBe(true);
    expect(user.bornAt!.toISOString()).toBe("1815-12-10T00:00:00.000Z");
    // CastError is the TypeError subclass of values that cannot be cast.
    expect(() => user.assign({ age: "1.7" })).toThrow(new CastError(`User.age: "1.7" is not a valid integer`, User, "age"));
    expect(() => User.permit({ email: 5 }, "email")).toThrow(new CastError("User.email: [FILTERED] is not a valid string", User, "email"));
    expect(() => user.assign({ age: undefined as never })).toThrow(new CastError("User.age cannot be set to undefined; use null for NULL", User, "age"));
    expect(user.age).toBe(36);
  });

  it("an unknown attribute is a compile error and UnknownAttribute at run time", () => {
    const user = User.build({ name: "Ada" });
    // @ts-expect-error nickname is not an attribute of User
    expect(() => user.assign({ nickname: "Ada" })).toThrow(UnknownAttribute);
  });

  it("accepted and refused forms of the table", () => {
    const user = User.build({ name: "x" });
    for (const v of ["1", "0", "TRUE", "Off", 1, 0]) expect(() => user.assign({ admin: v })).not.toThrow();
    expect(() => user.assign({ age: " -3 " })).not.toThrow();
    expect(user.age).toBe(-3);
    for (const v of ["1.5", ".5", "5.", "-2e3"]) expect(() => user.assign({ score: v })).not.toThrow();
    expect(() => user.assign({ score: " 1.5" })).toThrow(TypeError);
    for (const v of ["", "12abc", "1e3", 1.7, 2 ** 53]) expect(() => user.assign({ age: v })).toThrow(TypeError);
    for (const v of ["2024-01-01T00:00", "2024-01-01t00:00Z", "2024-01-01T00:00z", "2024-01-01 00:00Z", "2024-02-30", 5])
      expect(() => user.assign({ bornAt: v as never })).toThrow(TypeError);
    expect(() => user.assign({ bornAt: "2024-01-01T10:20+02:00" })).not.toThrow();
    expect(() => user.assign({ name: 5 as never })).toThrow(TypeError);
    expect(() => user.assign({ settings: "" })).toThrow(TypeError);
    expect(() => user.assign({ settings: Number.NaN })).toThrow(TypeError);
  });

  it("assign checks every value before setting any", () => {
    const user = User.build({ name: "Ada", age: 1 });
    expect(() => user.assign({ name: "Bob", age: "x" })).toThrow(TypeError);
    expect(user.name).toBe("Ada");
  });

  it("shows at most 60 characters of the value", () => {
    const error = thrown(() => User.build({ age: "9".repeat(100) + "x" }));
    return error.then((e) => {
      const shown = /: (.*) is not a valid integer/.exec((e as Error).message)![1]!;
      expect(shown).toBe(`"${"9".repeat(60)}…"`);
    });
  });
});
