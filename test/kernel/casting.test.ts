/**
 * Casting of assigned values and of condition values (SPEC.md: "Attribute declarations and types",
 * "Casting of assigned values", Record item 3, and the TypeError / UnknownAttribute rows of the Errors table).
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type BuiltInAttributeTypeName,
  connect,
  gt,
  lt,
  Model,
  RecordNotFound,
  UnknownAttribute,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";
import { thrown, typeError } from "../helpers/errors.js";
import { ItemApplicationRecord, Item } from "../models/typed-items.js";
import { AuditItem } from "../models/audit-items.js";

/** Items on columns without CHECKs (saq_items), where another writer may store any text. */
class ForeignItem extends Model({ id: { type: "string", null: false }, name: "string", rank: "integer", score: "real", flag: "boolean", data: "json" }) {
  static override binding = "DB";
  static override tableName = "saq_items";
}

/** A hand-declared Model with one attribute of each type; it is only built, never saved. */
class Caster extends Model({
  id: "string",
  flag: "boolean",
  quantity: "integer",
  amount: "real",
  label: "string",
  happenedAt: "datetime",
  payload: "json",
}) {
  static override tableName = "casters";
}

/** A hand-declared Model whose attributes the default `filterAttributes` list filters (but not `nickname`). */
class Account extends Model({
  id: "string",
  password: "string",
  apiKey: "string",
  otpSeed: "integer",
  nickname: "string",
  visits: "integer",
}) {
  static override tableName = "accounts";
}

const ATTRIBUTE: Record<BuiltInAttributeTypeName, string> = {
  boolean: "flag",
  integer: "quantity",
  real: "amount",
  string: "label",
  datetime: "happenedAt",
  json: "payload",
};

/** A valid value of each type, assigned before a refused assignment. */
const OLD_VALUE: Record<BuiltInAttributeTypeName, unknown> = {
  boolean: true,
  integer: 5,
  real: 2.5,
  string: "old",
  datetime: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)),
  json: { old: true },
};

const utc = (...parts: [number, number, number?, number?, number?, number?, number?]) => new Date(Date.UTC(...parts));

type Accepted = readonly [input: unknown, expected: unknown, name?: string];

const ACCEPTED: Record<BuiltInAttributeTypeName, readonly Accepted[]> = {
  boolean: [
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ["1", true],
    ["0", false],
    ["true", true],
    ["false", false],
    ["on", true],
    ["off", false],
    ["TRUE", true],
    ["False", false],
    ["tRuE", true],
    ["ON", true],
    ["Off", false],
    ["oFF", false],
  ],
  integer: [
    [0, 0],
    [42, 42],
    [-42, -42],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
    ["42", 42],
    ["-7", -7],
    ["+7", 7],
    [" 12 ", 12],
    ["  -3", -3],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ],
  real: [
    [1.5, 1.5],
    [-2, -2],
    [0, 0],
    [1e300, 1e300],
    ["1.5", 1.5],
    [".5", 0.5],
    ["5.", 5],
    ["-2e3", -2000],
    ["+1.25", 1.25],
    ["2e-3", 0.002],
    ["-.5", -0.5],
    ["42", 42],
    [".25", 0.25],
    ["1e10", 1e10],
    ["1E10", 1e10],
  ],
  string: [
    ["", ""],
    ["hello", "hello"],
    [" spaced ", " spaced "],
    ["42", "42"],
    ["true", "true"],
    ["héllo 🌍", "héllo 🌍"],
    ["x".repeat(1000), "x".repeat(1000), '"xxx…" (1000 characters)'],
  ],
  datetime: [
    [utc(2024, 2, 15, 10, 20, 30), utc(2024, 2, 15, 10, 20, 30)],
    ["2024-03-15", utc(2024, 2, 15)],
    ["2024-02-29", utc(2024, 1, 29)],
    ["2024-03-15T10:20:30Z", utc(2024, 2, 15, 10, 20, 30)],
    ["2024-03-15T10:20:30.123Z", utc(2024, 2, 15, 10, 20, 30, 123)],
    ["2024-03-15T10:20:30+02:00", utc(2024, 2, 15, 8, 20, 30)],
    ["2024-03-15T10:20:30-05:30", utc(2024, 2, 15, 15, 50, 30)],
    ["2024-03-15T00:30:00+01:00", utc(2024, 2, 14, 23, 30, 0)],
    ["2024-03-15T10:20:30+00:00", utc(2024, 2, 15, 10, 20, 30)],
    // The largest hour, minute, second and offset that exist.
    ["2024-03-15T23:59:59Z", utc(2024, 2, 15, 23, 59, 59)],
    ["2024-03-15T10:20:30+23:59", utc(2024, 2, 14, 10, 21, 30)],
    // Years 0 to 99 are themselves (Date.UTC alone would make them 1900 to 1999).
    ["0099-12-31", new Date("0099-12-31T00:00:00.000Z")],
    ["0050-06-01T10:00:00Z", new Date("0050-06-01T10:00:00.000Z")],
    ["0000-01-01", new Date("0000-01-01T00:00:00.000Z")],
  ],
  json: [
    [{ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }],
    [[1, "two", null], [1, "two", null]],
    ["text", "text"],
    [42, 42],
    [-1.5, -1.5],
    [0, 0],
    [true, true],
    [false, false],
    [{ nested: { deep: [{ x: null }] } }, { nested: { deep: [{ x: null }] } }],
  ],
};

const REFUSED: Record<BuiltInAttributeTypeName, readonly unknown[]> = {
  boolean: [
    ...["", " ", "yes", "no", "y", "n", "t", "f", "2", "01", " true", "true ", "null", 2, -1, 0.5, NaN, Infinity, {}, [], new Date(0)],
    // Names of Object.prototype's members are not boolean words either.
    ...["constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"],
    // A one-element array prints as its element, which alone would be accepted.
    [1],
    ["true"],
  ],
  integer: [
    "",
    " ",
    1.7,
    "1.7",
    "12abc",
    "1e3",
    2 ** 53,
    -(2 ** 53),
    "9007199254740992",
    "-9007199254740992",
    NaN,
    Infinity,
    -Infinity,
    "NaN",
    "Infinity",
    "0x10",
    "1 000",
    "+-1",
    true,
    false,
    {},
    [],
    [7],
    ["7"],
    new Date(0),
  ],
  real: ["", " ", " 3.5 ", "3.5 ", NaN, Infinity, -Infinity, "NaN", "Infinity", "abc", "1.5.2", "1e", "e3", ".", "1,5", "0x10", "1.5abc", true, {}, [], [1.5], ["1.5"], new Date(0)],
  string: [42, 0, -1.5, NaN, Infinity, true, false, new Date(0), {}, [], ["text"]],
  datetime: [
    "",
    new Date(Number.NaN),
    "2024-03-15T10:20:30",
    "2024-03-15T10:20",
    "2024-03-15t10:20:30Z",
    "2024-03-15T10:20:30z",
    "2023-02-30",
    "2023-02-29",
    "2024-04-31",
    "2024-13-01",
    "2024-00-10",
    "2023-02-30T10:00:00Z",
    "03/15/2024",
    "15.03.2024",
    "March 15, 2024",
    "Fri, 15 Mar 2024 10:20:30 GMT",
    "2024-3-15",
    "20240315",
    "2024-03-15T10:20:30+0200",
    // Text before or after a date or a date-time.
    "x2024-01-01",
    "2024-01-01x",
    "2024-01-01 ",
    " 2024-01-01",
    "2024-01-01Z",
    "x2024-03-15T10:20:30Z",
    "2024-03-15T10:20:30Zx",
    "2024-03-15T10:20:30+02:00x",
    // An hour 24, a minute, second or offset minute 60, an offset hour 24.
    "2024-03-15T24:00:00Z",
    "2024-03-15T10:60:00Z",
    "2024-03-15T10:20:60Z",
    "2024-03-15T10:20:30+02:60",
    "2024-03-15T10:20:30+24:00",
    // Instants outside the years 0 to 9999, which toISOString writes as "+010000-..." or "-000001-...": text that
    // does not sort among the others, so conditions and orders on the column would be wrong.
    new Date(Date.UTC(10000, 0, 1)),
    new Date(-62167219200001), // -000001-12-31T23:59:59.999Z
    "0000-01-01T00:30:00+01:00",
    "9999-12-31T23:30:00-01:00",
    ["2024-01-01"],
    [new Date(0)],
    "now",
    1710498030000,
    0,
    NaN,
    true,
    {},
    [],
  ],
  // What JSON cannot store is refused at assignment, naming the Model and attribute, not when saving.
  json: [10n, Symbol("s"), (() => {
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    return circular;
  })()],
};

function isCircular(value: object): boolean {
  return Object.values(value).includes(value);
}

function label(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : `Date(${value.toISOString()})`;
  if (typeof value === "object" && value !== null) return isCircular(value) ? "an object that contains itself" : JSON.stringify(value);
  return String(value);
}

function expectCast(actual: unknown, expected: unknown): void {
  if (expected instanceof Date) {
    expect(actual).toBeInstanceOf(Date);
    expect((actual as Date).getTime()).toBe(expected.getTime());
  } else if (typeof expected === "object" && expected !== null) {
    expect(actual).toEqual(expected);
  } else {
    expect(actual).toBe(expected);
  }
}

function read(record: object, name: string): unknown {
  return (record as Record<string, unknown>)[name];
}

function setProperty(record: object, name: string, value: unknown): void {
  (record as Record<string, unknown>)[name] = value;
}

/** A Model like Caster whose attribute of `type` has this default (a value or a function). */
function casterWithDefault(type: BuiltInAttributeTypeName, value: unknown) {
  return class DefaultCaster extends Model({ id: "string", value: { type, default: value } }) {
    static override tableName = "default_casters";
  };
}

function expectTypeErrorNaming(fn: () => unknown, model: string, attribute: string): TypeError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  const message = (thrown as TypeError).message;
  expect(message).toContain(model);
  expect(message).toContain(attribute);
  return thrown as TypeError;
}

/**
 * Assigning `input` to a Caster holding the type's OLD_VALUE, with assign, the property setter or writeAttribute,
 * throws TypeError naming the attribute, and the old value stays.
 */
function expectRefusedKeepingOldValue(type: BuiltInAttributeTypeName, input: unknown): void {
  const attribute = ATTRIBUTE[type];
  const record = Caster.build({ [attribute]: OLD_VALUE[type] } as never);
  expectTypeErrorNaming(() => record.assign({ [attribute]: input } as never), "Caster", attribute);
  expectCast(read(record, attribute), OLD_VALUE[type]);
  expectTypeErrorNaming(() => setProperty(record, attribute, input), "Caster", attribute);
  expectCast(read(record, attribute), OLD_VALUE[type]);
  expectTypeErrorNaming(() => record.writeAttribute(attribute as never, input as never), "Caster", attribute);
  expectCast(read(record, attribute), OLD_VALUE[type]);
}

describe("accepted values are cast to the attribute's type", () => {
  for (const type of Object.keys(ACCEPTED) as BuiltInAttributeTypeName[]) {
    const attribute = ATTRIBUTE[type];
    for (const [input, expected, name] of ACCEPTED[type]) {
      it(`${type} accepts ${name ?? label(input)}`, () => {
        // build
        expectCast(read(Caster.build({ [attribute]: input } as never), attribute), expected);
        // assign
        const assigned = Caster.build();
        assigned.assign({ [attribute]: input } as never);
        expectCast(read(assigned, attribute), expected);
        // property setter
        const set = Caster.build();
        setProperty(set, attribute, input);
        expectCast(read(set, attribute), expected);
        // writeAttribute
        const written = Caster.build();
        written.writeAttribute(attribute as never, input as never);
        expectCast(read(written, attribute), expected);
        // permit
        expectCast(Caster.permit({ [attribute]: input }, attribute as never)[attribute as never], expected);
        // a default given as a value, and as a function
        expectCast(casterWithDefault(type, input).build().value, expected);
        expectCast(casterWithDefault(type, () => input).build().value, expected);
      });
    }
  }
});

describe("refused values throw TypeError and leave the attribute unchanged", () => {
  for (const type of Object.keys(REFUSED) as BuiltInAttributeTypeName[]) {
    const attribute = ATTRIBUTE[type];
    for (const input of REFUSED[type]) {
      it(`${type} refuses ${label(input)}`, () => {
        const error = expectTypeErrorNaming(() => Caster.build({ [attribute]: input } as never), "Caster", attribute);
        if (typeof input === "string" || typeof input === "number") expect(error.message).toContain(String(input));

        expectRefusedKeepingOldValue(type, input);

        expectTypeErrorNaming(() => Caster.permit({ [attribute]: input }, attribute as never), "Caster", attribute);

        const WithDefault = casterWithDefault(type, input);
        expect(() => WithDefault.build()).toThrow(TypeError);
        const WithDefaultFunction = casterWithDefault(type, () => input);
        expect(() => WithDefaultFunction.build()).toThrow(TypeError);
      });
    }
  }

  // SPEC.md: "Refused values include: the empty string for every type but `string`; ... `NaN` and `Infinity`".
  // The rule names no exception for `json`, although the table lists `json` as accepting "any value".
  it("json refuses the empty string (refused for every type but string)", () => {
    expectTypeErrorNaming(() => Caster.build({ payload: "" }), "Caster", "payload");
    const record = Caster.build({ payload: { kept: 1 } });
    expectTypeErrorNaming(() => record.assign({ payload: "" }), "Caster", "payload");
    expect(record.payload).toEqual({ kept: 1 });
  });

  it("json refuses a function, which JSON cannot store", () => {
    expectTypeErrorNaming(() => Caster.build({ payload: () => 1 }), "Caster", "payload");
  });

  it("json refuses NaN and Infinity", () => {
    for (const input of [NaN, Infinity, -Infinity]) {
      expectTypeErrorNaming(() => Caster.build({ payload: input }), "Caster", "payload");
    }
  });

  it("json refuses, at any depth, what JSON text would change: NaN and the infinities (null), a Map or a Set ({}), bytes ({\"0\": ...})", async () => {
    const bytes = [new Uint8Array([1, 2]), { avatar: new Uint8Array(1) }, [new ArrayBuffer(2)], { view: new DataView(new ArrayBuffer(1)) }];
    for (const input of [[Infinity], { a: { b: NaN } }, [1, -Infinity], new Map([["a", 1]]), { tags: new Set(["a"]) }, ...bytes]) {
      expectTypeErrorNaming(() => Caster.build({ payload: input }), "Caster", "payload");
    }
    const user = await User.createOrThrow({ name: "j", settings: { at: new Date(0), list: [1, null, "x"] } });
    expect(() => user.assign({ settings: { score: [Infinity] } })).toThrow(TypeError);
    expect(await User.where({ settings: [[NaN]] }).count()).toBe(0);
    await user.reload();
    expect(user.settings).toEqual({ at: "1970-01-01T00:00:00.000Z", list: [1, null, "x"] });
  });

  it("json refuses, at any depth, an invalid Date, which JSON writes as null: the record's toJSON() would throw RangeError", () => {
    for (const input of [new Date(Number.NaN), { at: new Date(Number.NaN) }, [1, new Date(Number.NaN)]]) {
      expectTypeErrorNaming(() => Caster.build({ payload: input }), "Caster", "payload");
    }
    expect(Caster.build({ payload: { at: null, list: [null] } }).payload).toEqual({ at: null, list: [null] });
  });
});

describe("negative zero", () => {
  it("integer and real cast -0 (and \"-0\") to 0, as SQLite stores it, so a saved record holds what a reload reads", async () => {
    for (const input of [-0, "-0", "-0.0", "-0e5"]) {
      expect(Object.is(User.build({ name: "z", score: input }).score, 0)).toBe(true);
    }
    expect(Object.is(User.build({ name: "z", age: "-0" }).age, 0)).toBe(true);
    const user = await User.createOrThrow({ name: "z", age: -0, score: -0 });
    expect([Object.is(user.age, 0), Object.is(user.score, 0)]).toEqual([true, true]);
    await user.reload();
    expect([Object.is(user.age, 0), Object.is(user.score, 0)]).toEqual([true, true]);
  });
});

describe("null and undefined", () => {
  it("null is always NULL, for every type and every way of assigning", () => {
    for (const type of Object.keys(ATTRIBUTE) as BuiltInAttributeTypeName[]) {
      const attribute = ATTRIBUTE[type];
      expect(read(Caster.build({ [attribute]: null } as never), attribute)).toBeNull();
      const record = Caster.build({ [attribute]: OLD_VALUE[type] } as never);
      record.assign({ [attribute]: null } as never);
      expect(read(record, attribute)).toBeNull();
      setProperty(record, attribute, OLD_VALUE[type]);
      setProperty(record, attribute, null);
      expect(read(record, attribute)).toBeNull();
      expect(Caster.permit({ [attribute]: null }, attribute as never)).toEqual({ [attribute]: null });
      expect(casterWithDefault(type, () => null).build().value).toBeNull();
    }
    // Even on an attribute declared `null: false`, assigning null gives NULL (the database refuses it on save).
    expect(User.build({ name: null as never }).name).toBeNull();
  });

  it("undefined throws TypeError in build, assign, the setter and writeAttribute, and the old value stays", () => {
    for (const type of Object.keys(ATTRIBUTE) as BuiltInAttributeTypeName[]) {
      const attribute = ATTRIBUTE[type];
      expectTypeErrorNaming(() => Caster.build({ [attribute]: undefined } as never), "Caster", attribute);
      expectRefusedKeepingOldValue(type, undefined);
    }
  });

  it("undefined in a condition throws TypeError", async () => {
    expect(() => User.where({ age: undefined })).toThrow(TypeError);
    await expect(async () => User.findBy({ name: undefined })).rejects.toThrow(TypeError);
  });
});

describe("UnknownAttribute", () => {
  it("is thrown for an unknown name in build, assign, writeAttribute and permit", () => {
    expect(() => Caster.build({ nope: 1 } as never)).toThrow(UnknownAttribute);
    expect(() => User.build({ nickname: "x" } as never)).toThrow(UnknownAttribute);
    const record = Caster.build({ quantity: 3 });
    expect(() => record.assign({ nope: 1 } as never)).toThrow(UnknownAttribute);
    expect(() => record.writeAttribute("nope" as never, 1 as never)).toThrow(UnknownAttribute);
    expect(record.quantity).toBe(3);
    expect(() => Caster.permit({ nope: 1 }, "nope" as never)).toThrow(UnknownAttribute);
    // A name that is not an attribute is refused even when the input lacks it.
    expect(() => Caster.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    expect(() => User.permit({ name: "a" }, "name", "nickname" as never)).toThrow(UnknownAttribute);
  });

  it("is not a TypeError (an unknown name is not a bad value)", () => {
    expect(() => Caster.build({ nope: 1 } as never)).not.toThrow(TypeError);
  });
});

describe("TypeError messages", () => {
  it("name the Model and the attribute", () => {
    const error = expectTypeErrorNaming(() => User.build({ age: "12abc" }), "User", "age");
    expect(error.message).toContain("12abc");
    expectTypeErrorNaming(() => Account.build({ visits: 1.7 }), "Account", "visits");
  });

  it("show at most 60 characters of the value", () => {
    const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const long = Array.from({ length: 150 }, (_, index) => alphabet[index % alphabet.length]).join("");
    for (const [attribute, value] of [
      ["quantity", long],
      ["flag", long],
      ["amount", long],
      ["happenedAt", long],
      ["label", Number.MAX_VALUE],
    ] as const) {
      const message = expectTypeErrorNaming(() => Caster.build({ [attribute]: value } as never), "Caster", attribute).message;
      const text = String(value);
      for (let start = 0; start + 61 <= text.length; start++) expect(message).not.toContain(text.slice(start, start + 61));
      // Some of it is shown.
      expect(message).toContain(text.slice(0, 12));
    }
  });

  it("show none of the value of a filtered attribute", () => {
    const cases: [string, unknown, string][] = [
      ["password", 123456789, "123456789"],
      ["apiKey", 987654321, "987654321"],
      ["password", new Date(Date.UTC(2031, 4, 6)), "2031"],
      ["otpSeed", "sekrit-4242", "sekrit"],
      ["otpSeed", "4242-sekrit", "4242"],
    ];
    for (const [attribute, value, secret] of cases) {
      const message = expectTypeErrorNaming(() => Account.build({ [attribute]: value } as never), "Account", attribute).message;
      expect(message).not.toContain(secret);
    }
    // The same value on an unfiltered attribute is shown.
    expect(expectTypeErrorNaming(() => Account.build({ nickname: 123456789 as never }), "Account", "nickname").message).toContain(
      "123456789",
    );
    // `email` is in the default list: a generated Model filters it too.
    const message = expectTypeErrorNaming(() => User.build({ email: 31337 as never }), "User", "email").message;
    expect(message).not.toContain("31337");
  });

  it("follow the Model's own filterAttributes: [] filters nothing, a RegExp filters what it matches", () => {
    class OpenAccount extends Model({ id: "string", password: "string", pinCode: "integer" }) {
      static override tableName = "accounts";
      static override filterAttributes = [];
    }
    class PinAccount extends Model({ id: "string", password: "string", pinCode: "integer" }) {
      static override tableName = "accounts";
      static override filterAttributes = [/^pin/];
    }
    expect(expectTypeErrorNaming(() => OpenAccount.build({ password: 123456789 as never }), "OpenAccount", "password").message).toContain(
      "123456789",
    );
    expect(expectTypeErrorNaming(() => PinAccount.build({ password: 123456789 as never }), "PinAccount", "password").message).toContain(
      "123456789",
    );
    expect(expectTypeErrorNaming(() => PinAccount.build({ pinCode: "77x77" }), "PinAccount", "pinCode").message).not.toContain("77x77");
  });
});

describe("permit", () => {
  it("casts form input (URLSearchParams and FormData) by the attributes' types", () => {
    const params = new URLSearchParams("flag=on&quantity=+7&amount=.5&happenedAt=2024-03-15&label=42&ignored=x");
    const permitted = Caster.permit(params, "flag", "quantity", "amount", "happenedAt", "label");
    expect(permitted).toEqual({ flag: true, quantity: 7, amount: 0.5, happenedAt: utc(2024, 2, 15), label: "42" });
    const form = new FormData();
    form.append("quantity", "12abc");
    expect(() => Caster.permit(form, "quantity")).toThrow(TypeError);
    expect(() => Caster.permit(new URLSearchParams("flag=yes"), "flag")).toThrow(TypeError);
  });
});

describe("casting through the database", () => {
  beforeEach(resetDatabase);

  it("a stored datetime no Date can hold (text another writer stored) reads as null, as in Rails; change tracking and save work", async () => {
    const insert = `INSERT INTO users (id, name, born_at, created_at, updated_at) VALUES (?, 'Ada', ?, '2024-01-01T00:00:00.000Z', ?)`;
    await env.DB.prepare(insert).bind("u1", "not a date", "2024-01-01T00:00:00.000Z").run();
    await env.DB.prepare(insert).bind("u2", "2024-02-30 99:00:00", "yesterday").run();
    await env.DB.prepare(insert).bind("u3", 8.64e15 + 1, "2024-01-01T00:00:00.000Z").run();
    for (const id of ["u1", "u2", "u3"]) {
      const user = await User.find(id);
      expect(user.bornAt, id).toBeNull();
      expect(user.attributeWas("bornAt"), id).toBeNull();
      expect(user.isChanged(), id).toBe(false);
      expect(user.changes(), id).toEqual({});
      expect(JSON.parse(JSON.stringify(user)).bornAt, id).toBeNull();
    }
    // Reading it changed nothing: a save of another attribute writes that one only, and the text stays as stored.
    const user = await User.find("u1");
    void user.bornAt;
    expect(await user.update({ name: "Bea" })).toBe(true);
    const row = await env.DB.prepare("SELECT name, born_at FROM users WHERE id = 'u1'").first<Record<string, unknown>>();
    expect(row).toEqual({ name: "Bea", born_at: "not a date" });
    // A date assigned over it is a change, saved as any other.
    await user.update({ bornAt: "2000-01-02" });
    expect(user.savedChanges()).toMatchObject({ bornAt: [null, new Date("2000-01-02T00:00:00.000Z")] });
    expect((await User.find("u1")).bornAt).toEqual(new Date("2000-01-02T00:00:00.000Z"));
    // updated_at that is no date (u2), rewritten by the timestamps on save, and reload reads it back.
    const other = await User.find("u2");
    expect(other.updatedAt).toBeNull();
    expect(await other.update({ name: "Cy" })).toBe(true);
    expect(other.updatedAt).toBeInstanceOf(Date);
    await other.reload();
    expect(other.updatedAt).toBeInstanceOf(Date);
  });

  it("a stored json that is no JSON (text another writer stored) reads as null, as in Rails; JSON's null text is no change either", async () => {
    await env.DB.exec(`INSERT INTO saq_items (id, data) VALUES ('bad', '{bad'), ('json-null', 'null')`);
    for (const id of ["bad", "json-null"]) {
      const item = await ForeignItem.find(id);
      expect(item.data, id).toBeNull();
      expect(item.isChanged(), id).toBe(false);
      expect(item.changes(), id).toEqual({});
      expect(item.toJSON().data, id).toBeNull();
      // Reading it changed nothing: a save of another attribute writes that one only, and the text stays as stored.
      expect(await item.update({ name: "renamed" }), id).toBe(true);
    }
    expect(await ForeignItem.order({ id: "asc" }).pluck("data")).toEqual([null, null]);
    const rows = await env.DB.prepare("SELECT id, name, data FROM saq_items ORDER BY id").all<Record<string, unknown>>();
    expect(rows.results).toEqual([
      { id: "bad", name: "renamed", data: "{bad" },
      { id: "json-null", name: "renamed", data: "null" },
    ]);
  });

  it("text in a number or boolean column that names no value reads as null, as an unreadable datetime does; boolean words read as Rails reads them", async () => {
    await env.DB.exec(`INSERT INTO saq_items (id, rank, score, flag) VALUES ('words', 'abc', 'xyz', 'f'), ('blank', '', ' ', ''), ('rails', 7, 2.5, 'FALSE'), ('off', NULL, NULL, 'off'), ('t', NULL, NULL, 't')`);
    const read = async (id: string) => {
      const item = await ForeignItem.find(id);
      return [item.rank, item.score, item.flag, item.isChanged()];
    };
    expect(await read("words")).toEqual([null, null, false, false]);
    expect(await read("blank")).toEqual([null, null, null, false]);
    expect(await read("rails")).toEqual([7, 2.5, false, false]);
    expect(await read("off")).toEqual([null, null, false, false]);
    expect(await read("t")).toEqual([null, null, true, false]);
    // Reading them changed nothing: a save of another attribute leaves the stored text as it is.
    const item = await ForeignItem.find("words");
    void [item.rank, item.score, item.flag];
    expect(await item.update({ name: "renamed" })).toBe(true);
    const row = await env.DB.prepare("SELECT name, rank, score, flag FROM saq_items WHERE id = 'words'").first<Record<string, unknown>>();
    expect(row).toEqual({ name: "renamed", rank: "abc", score: "xyz", flag: "f" });
    expect(await ForeignItem.where({ id: ["blank", "words"] }).order({ id: "asc" }).pluck("rank", "flag")).toEqual([[null, null], [null, false]]);
  });

  it("the first and last instants of the years 0 to 9999 are stored as text that sorts as the instants do", async () => {
    const first = await User.createOrThrow({ name: "first", bornAt: "0000-01-01" });
    const last = await User.createOrThrow({ name: "last", bornAt: new Date("9999-12-31T23:59:59.999Z") });
    expect((await User.find(first.id)).bornAt).toEqual(new Date("0000-01-01T00:00:00.000Z"));
    expect(await User.where({ bornAt: gt(new Date("2000-01-01T00:00:00Z")) }).pluck("name")).toEqual(["last"]);
    expect(await User.where({ bornAt: lt(new Date("2000-01-01T00:00:00Z")) }).pluck("name")).toEqual(["first"]);
    expect(() => last.assign({ bornAt: new Date(last.bornAt!.getTime() + 1) })).toThrow(TypeError);
  });

  it("a datetime in the years 0 to 99 is stored and read back as itself; a boolean word is matched only as one", async () => {
    const user = await User.createOrThrow({ name: "Ada", bornAt: "0050-06-01T10:00:00Z", admin: true });
    expect((await User.find(user.id)).bornAt).toEqual(new Date("0050-06-01T10:00:00.000Z"));
    expect(await User.findBy({ admin: "constructor" as never })).toBe(null);
  });

  it("stores booleans as 0/1, datetimes as ISO text and json as text, and reads them back", async () => {
    const settings = { a: 1, list: [true, null, "x"], nested: { b: "c" } };
    const user = await User.createOrThrow({
      name: "Ada",
      admin: "on",
      age: " 42 ",
      score: "-2e3",
      bornAt: "2024-03-15T10:20:30+02:00",
      settings,
    });
    const other = await User.createOrThrow({ name: "Bob", admin: "0", bornAt: "2024-03-15" });
    const row = await env.DB.prepare(
      `SELECT admin, typeof(admin) AS admin_type, age, typeof(age) AS age_type, score, typeof(score) AS score_type,
              born_at, typeof(born_at) AS born_at_type, settings, typeof(settings) AS settings_type
       FROM users WHERE id = ?`,
    )
      .bind(user.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      admin: 1,
      admin_type: "integer",
      age: 42,
      age_type: "integer",
      score: -2000,
      score_type: "real",
      born_at: "2024-03-15T08:20:30.000Z",
      born_at_type: "text",
      settings_type: "text",
    });
    expect(JSON.parse(row!["settings"] as string)).toEqual(settings);
    const otherRow = await env.DB.prepare("SELECT admin, born_at, settings FROM users WHERE id = ?").bind(other.id).first();
    expect(otherRow).toEqual({ admin: 0, born_at: "2024-03-15T00:00:00.000Z", settings: null });

    const found = await User.find(user.id);
    expect(found.admin).toBe(true);
    expect(found.age).toBe(42);
    expect(found.score).toBe(-2000);
    expect(found.bornAt).toBeInstanceOf(Date);
    expect(found.bornAt!.getTime()).toBe(utc(2024, 2, 15, 8, 20, 30).getTime());
    expect(found.settings).toEqual(settings);
    const foundOther = await User.find(other.id);
    expect(foundOther.admin).toBe(false);
    expect(foundOther.bornAt!.toISOString()).toBe("2024-03-15T00:00:00.000Z");
  });

  it("reads a number another writer stored in a datetime column as milliseconds, and a save leaves it alone", async () => {
    await env.DB.prepare("INSERT INTO users (id, name, born_at, created_at, updated_at) VALUES ('u1', 'Ada', 0, ?, ?)")
      .bind(1710498030000, "2024-03-15T10:20:30.000Z")
      .run();
    const user = await User.find("u1");
    expect(user.createdAt).toEqual(utc(2024, 2, 15, 10, 20, 30));
    expect(user.bornAt).toEqual(new Date(0));
    expect(user.changed()).toEqual([]);
    expect(await User.pluck("createdAt")).toEqual([utc(2024, 2, 15, 10, 20, 30)]);
    expect(await user.update({ name: "Bea" })).toBe(true);
    const row = await env.DB.prepare("SELECT born_at, created_at FROM users").first();
    expect(row).toEqual({ born_at: 0, created_at: 1710498030000 });
  });

  it("stores json scalars as JSON text", async () => {
    const cases: [unknown, string][] = [
      ["hello", '"hello"'],
      [5, "5"],
      [false, "false"],
      [[1, 2], "[1,2]"],
    ];
    for (const [value, text] of cases) {
      const user = await User.createOrThrow({ name: `json ${text}`, settings: value });
      const row = await env.DB.prepare("SELECT settings, typeof(settings) AS type FROM users WHERE id = ?").bind(user.id).first();
      expect(row).toEqual({ settings: text, type: "text" });
      expect((await User.find(user.id)).settings).toEqual(value);
    }
  });

  it("stores NULL for null", async () => {
    const user = await User.createOrThrow({ name: "Nil", age: null, bornAt: null, settings: null, score: null, email: null });
    const row = await env.DB.prepare("SELECT age, born_at, settings, score, email FROM users WHERE id = ?").bind(user.id).first();
    expect(row).toEqual({ age: null, born_at: null, settings: null, score: null, email: null });
  });

  it("casts in create and update; a refused value writes nothing and keeps the old value", async () => {
    await expect(User.create({ name: "Bad", age: "12abc" })).rejects.toThrow(TypeError);
    expect(await countRows("users")).toBe(0);

    const user = await User.createOrThrow({ name: "Ada", age: 30 });
    expect(await user.update({ age: "43" })).toBe(true);
    expect(await env.DB.prepare("SELECT age FROM users WHERE id = ?").bind(user.id).first("age")).toBe(43);
    await expect(async () => user.update({ age: "4x" })).rejects.toThrow(TypeError);
    expect(user.age).toBe(43);
    expect(user.isChanged()).toBe(false);
    expect(await env.DB.prepare("SELECT age FROM users WHERE id = ?").bind(user.id).first("age")).toBe(43);
  });

  it("casts condition values the same way", async () => {
    const ada = await User.createOrThrow({ name: "Ada", admin: true, age: 42, score: -2000, bornAt: "2024-03-15T08:20:30Z" });
    await User.createOrThrow({ name: "Bob", admin: false, age: 7, score: 1.5 });
    expect((await User.findBy({ admin: "ON" }))?.id).toBe(ada.id);
    expect((await User.findBy({ admin: 1 }))?.id).toBe(ada.id);
    expect((await User.findBy({ age: " 42 " }))?.id).toBe(ada.id);
    expect((await User.findBy({ score: "-2e3" }))?.id).toBe(ada.id);
    expect((await User.findBy({ bornAt: "2024-03-15T10:20:30+02:00" }))?.id).toBe(ada.id);
    expect((await User.findBy({ bornAt: utc(2024, 2, 15, 8, 20, 30) }))?.id).toBe(ada.id);
    expect(await User.where({ admin: "false" }).pluck("name")).toEqual(["Bob"]);
  });

  it("an uncastable condition value matches nothing: findBy gives null, find throws RecordNotFound", async () => {
    await User.createOrThrow({ name: "Ada", admin: true, age: 42, bornAt: "2024-03-15T10:20:30Z" });
    const counter = await Counter.create({ label: "one" });
    expect(await User.findBy({ age: "abc" })).toBeNull();
    expect(await User.findBy({ age: "42abc" })).toBeNull();
    expect(await User.findBy({ age: 42.5 })).toBeNull();
    expect(await User.findBy({ admin: "yes" })).toBeNull();
    expect(await User.findBy({ bornAt: "2024-03-15T10:20:30" })).toBeNull();
    expect(await User.findBy({ name: true as never })).toBeNull();
    expect(await User.where({ age: "abc" }).count()).toBe(0);
    await expect(User.findByOrThrow({ age: "abc" })).rejects.toThrow(RecordNotFound);
    await expect(Counter.find("abc")).rejects.toThrow(RecordNotFound);
    await expect(Counter.find("1.5")).rejects.toThrow(RecordNotFound);
    await expect(Counter.find(true)).rejects.toThrow(RecordNotFound);
    await expect(User.find(true)).rejects.toThrow(RecordNotFound);
    await expect(Counter.find([counter.id, "abc"])).rejects.toThrow(RecordNotFound);
    // A castable id still finds the row.
    expect((await Counter.find(String(counter.id))).label).toBe("one");
  });

  it("drops uncastable values from a list condition", async () => {
    await User.createOrThrow({ name: "Ada", age: 42 });
    await User.createOrThrow({ name: "Bob", age: 7 });
    expect(await User.where({ age: [42, "abc", "4x"] }).pluck("name")).toEqual(["Ada"]);
    expect(await User.where({ age: ["abc"] }).count()).toBe(0);
    // So a negated condition on such a value excludes nothing.
    expect((await User.whereNot({ age: ["abc"] }).pluck("name")).sort()).toEqual(["Ada", "Bob"]);
  });

  it("reads a number in a condition on a string attribute as its digits", async () => {
    const user = await User.createOrThrow({ name: "42" });
    await User.createOrThrow({ name: "43" });
    expect((await User.findBy({ name: 42 }))?.id).toBe(user.id);
    expect(await User.where({ name: [42, 44] }).pluck("name")).toEqual(["42"]);
    // A record built from that Relation starts with that value, as a string.
    const built = User.where({ name: 42 }).build();
    expect(built.name).toBe("42");
    // Through a database made with connect too.
    const db = connect(env.DB);
    expect((await db.model(User).findBy({ name: 42 }))?.id).toBe(user.id);
  });
});

beforeEach(resetDatabase);

describe("casting", () => {
  it("a filtered attribute's uncastable value is hidden in permit, update and setter errors too", async () => {
    const item = await Item.create({ name: "a" });
    expect(typeError(() => (item.email = 98765 as never))).not.toContain("98765");
    expect((await thrown(() => item.update({ email: 98765 as never })) as Error).message).not.toContain("98765");
    expect(typeError(() => Item.permit({ email: 98765 }, "email"))).not.toContain("98765");
  });

  it("undefined throws TypeError everywhere a value is assigned (use null for NULL)", async () => {
    const item = await Item.create({ name: "a" });
    typeError(() => Item.build({ name: undefined }));
    typeError(() => item.assign({ name: undefined }));
    typeError(() => (item.name = undefined as never));
    typeError(() => item.writeAttribute("name", undefined as never));
    typeError(() => Item.permit({ name: undefined }, "name"));
    expect(await thrown(() => Item.create({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => Item.createOrThrow({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => item.update({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await thrown(() => item.updateOrThrow({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(item.name).toBe("a");
    expect(item.isChanged()).toBe(false);
  });

  it("a default that cannot be cast throws TypeError at build; one returning undefined too", () => {
    class BadDefault extends ItemApplicationRecord("sar_items", { qty: { default: () => "many" } }) {}
    const message = typeError(() => BadDefault.build());
    expect(message).toContain("BadDefault");
    expect(message).toContain("qty");
    class UndefinedDefault extends ItemApplicationRecord("sar_items", { qty: { default: () => undefined } }) {}
    typeError(() => UndefinedDefault.build());
  });

  it("conditions are cast the same way: uncastable matches nothing", async () => {
    const item = await Item.create({ name: "5", qty: 5 });
    expect((await Item.findBy({ qty: "5" }))?.id).toBe(item.id);
    expect((await Item.findBy({ qty: " 5 " }))?.id).toBe(item.id);
    expect(await Item.findBy({ qty: "5.0" })).toBeNull();
    expect(await Item.findBy({ qty: "" })).toBeNull();
    expect(await thrown(() => Item.find("" as never))).toBeInstanceOf(RecordNotFound);
    expect((await Item.findBy({ name: 5 as never }))?.id).toBe(item.id);
    expect(await Item.whereNot({ qty: ["x"] }).count()).toBe(1);
    expect(Item.where({ name: 5 as never }).build().name).toBe("5");
    typeError(() => Item.where({ name: undefined as never }));
  });
});

describe("cast errors name the Model through every path", () => {
  it("db.model, a Relation's build and create, permit and bulk writes", async () => {
    const { db } = listen();
    const Bound = db.model(Item);
    for (const attempt of [
      () => Bound.build({ qty: "x" }),
      () => Item.where({ name: "a" }).build({ qty: "x" }),
      () => Bound.where({ name: "a" }).create({ qty: "x" }),
      () => Bound.permit({ qty: "x" }, "qty"),
      () => Bound.insert({ qty: "x" }),
      () => Bound.insertAll([{ qty: "x" }]),
      () => Bound.upsert({ id: "k", qty: "x" }),
      () => Bound.updateAll({ qty: "x" }),
    ]) {
      const error = await thrown(attempt);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^Item\.qty\b/);
    }
  });
});

describe("edge cases that hold", () => {
  it("datetime text with more than 3 fractional digits is accepted", () => {
    expect(AuditItem.build({ happenedAt: "2024-03-15T10:20:30.123456Z" }).happenedAt?.toISOString()).toBe("2024-03-15T10:20:30.123Z");
  });
});
