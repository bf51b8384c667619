/**
 * The attribute types: how an assigned value is cast, how it is stored in D1, and how a stored value is read. Six
 * are built in; plugins add their own with `defineAttributeType`. Casting is strict on purpose: a value that is not
 * clearly of the type is refused rather than guessed at.
 */
import { isBlob } from "../sql/blob-values.js";
import { parseDateText, storableDate, utcDate } from "./date-text.js";

/**
 * JavaScript value of each attribute type, by type name. A plugin that defines a type adds its entry by declaration
 * merging (`declare module "recordflare" { interface AttributeTypeMap { money: Money } }`), which makes the name a
 * type name of declarations and overrides, and types the attributes declared with it.
 */
export interface AttributeTypeMap {
  string: string;
  integer: number;
  real: number;
  boolean: boolean;
  datetime: Date;
  json: unknown;
}

/**
 * What may be assigned to, or compared with, an attribute of a plugin's type besides its value, by type name (a
 * money type's `"12.50"`). Declaration merging adds entries, as on `AttributeTypeMap`; a type without one takes
 * its value only.
 */
export interface AttributeInputMap {}

/** The form a plugin type's value takes in `toJSON()`, by type name, when it is not the value (see `toJSON`). */
export interface AttributeJsonMap {}

/** Name of one of the six built-in attribute types. */
export type BuiltInAttributeTypeName = "string" | "integer" | "real" | "boolean" | "datetime" | "json";

/** Name of an attribute type: a built-in one, or one a plugin added to `AttributeTypeMap`. */
export type AttributeTypeName = keyof AttributeTypeMap;

/** Marks a value that cannot be cast. */
export const UNCASTABLE: unique symbol = Symbol("uncastable");

/** How one attribute type converts values. */
export interface AttributeType {
  /** Casts an assigned value, or returns `UNCASTABLE`. Never receives null or undefined. */
  cast(value: unknown): unknown;
  /** Casts a condition value; differs from `cast` only where SPEC.md says so (a number on a string). */
  castCondition(value: unknown): unknown;
  /** The value bound to D1 for a JavaScript value. */
  toDatabase(value: unknown): unknown;
  /** The JavaScript value for what D1 returned. */
  fromDatabase(value: unknown): unknown;
  /** What `toDatabase` would give for the value D1 returned (never null); change tracking compares with it. */
  canonical(value: unknown): unknown;
  /** Whether the comparison helpers (`gt`, `between`, ...) apply: they compare stored values. */
  readonly comparable?: boolean;
  /** The value in `toJSON()`, when it is not the value itself. */
  toJSON?(value: unknown): unknown;
}

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
// Unlike integers, SPEC grants real text no surrounding spaces: it must be wholly the number.
const REAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
// SQLite's CURRENT_TIMESTAMP, which a column default may store: UTC without an offset.
const SQLITE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?$/;
const BOOLEAN_TEXT = new Map([["true", true], ["false", false], ["on", true], ["off", false], ["1", true], ["0", false]]);

function castBoolean(value: unknown): unknown {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") return BOOLEAN_TEXT.get(value.toLowerCase()) ?? UNCASTABLE;
  return UNCASTABLE;
}

// SQLite stores -0 as 0: cast it so, or the record would hold a value that a reload changes.
const withoutNegativeZero = (number: number): number => (number === 0 ? 0 : number);

function castInteger(value: unknown): unknown {
  const number = typeof value === "number" ? value : typeof value === "string" && INTEGER_TEXT.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) ? withoutNegativeZero(number) : UNCASTABLE;
}

function castReal(value: unknown): unknown {
  const number = typeof value === "number" ? value : typeof value === "string" && REAL_TEXT.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? withoutNegativeZero(number) : UNCASTABLE;
}

function castDatetime(value: unknown): unknown {
  if (value instanceof Date) return storableDate(new Date(value.getTime())) ?? UNCASTABLE;
  return typeof value === "string" ? (parseDateText(value) ?? UNCASTABLE) : UNCASTABLE;
}

const digitsAt = (text: string, start: number, length: number): number => {
  let number = 0;
  for (let index = start; index < start + length; index++) number = number * 10 + text.charCodeAt(index) - 48;
  return number;
};

// What recordflare itself stores (`toISOString()`): read with arithmetic, several times faster than Date parsing.
function readIsoTimestamp(text: string): Date {
  return utcDate(
    digitsAt(text, 0, 4),
    digitsAt(text, 5, 2) - 1,
    digitsAt(text, 8, 2),
    digitsAt(text, 11, 2),
    digitsAt(text, 14, 2),
    digitsAt(text, 17, 2),
    digitsAt(text, 20, 3),
  );
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A stored datetime as a Date; null, as Rails reads it, for one no Date can hold (text another writer stored that
 * names no instant, a number out of range): an Invalid Date would make the record fail on every later write.
 */
function readDatetime(value: unknown): Date | null {
  if (typeof value === "string" && value.length === 24 && ISO_TIMESTAMP.test(value)) return readIsoTimestamp(value);
  // A number that another writer stored (the column has NUMERIC affinity) reads as JavaScript's milliseconds.
  const date = typeof value !== "string" ? new Date(value as number) : new Date(SQLITE_TIMESTAMP.test(value) ? `${value.replace(" ", "T")}Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// Text another writer stored that is no JSON reads as null, as Rails' json type reads it: a SyntaxError would make
// every read of the row fail.
function readJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

// JSON's own null (and text that is no JSON) reads as null, as NULL does: reading it is no change, so a save leaves it.
function canonicalJson(value: unknown): unknown {
  const read = readJson(value);
  return read === null ? null : JSON.stringify(read);
}

const identity = (value: unknown): unknown => value;

// An override may put an attribute on a column of another affinity, which converts what is written (and D1 binds
// every number as REAL, so a TEXT column holds 1 as "1.0"): read such values back as the attribute's type.
const readText = (value: unknown): unknown => (typeof value === "number" ? String(value) : value);
// Text that names no number (blank included), or no boolean, reads as null, as an unreadable datetime does: NaN or a
// guess would be a change on every read, and a save of another attribute would write it over the stored text.
const isBlank = (value: unknown): boolean => typeof value === "string" && value.trim() === "";

function readNumber(value: unknown): unknown {
  if (typeof value === "number") return value;
  const number = isBlank(value) ? Number.NaN : Number(value);
  return Number.isNaN(number) ? null : number;
}

// Rails reads "f", "false" and "off" (any case) as false, as it reads 0; other text and numbers as true.
function readBoolean(value: unknown): boolean | null {
  if (typeof value === "number") return value !== 0;
  return isBlank(value) ? null : Number(value) !== 0 && !/^(?:f|false|off)$/i.test(value as string);
}

/**
 * Refuses, at any depth, what JSON text would change: NaN and the infinities (written as null), a value whose
 * `toJSON` gives null (an invalid Date), a Map or Set (as {}), bytes (a `Uint8Array` as an object of indices).
 */
function keptAsIs(this: Record<string, unknown>, key: string, item: unknown): unknown {
  if ((typeof item === "number" && !Number.isFinite(item)) || (item === null && this[key] != null) || item instanceof Map || item instanceof Set || isBlob(item)) throw new TypeError();
  return item;
}

/**
 * Whether JSON stores the value as it is: not a BigInt, a function, a symbol, an object that contains itself, or
 * anything `keptAsIs` refuses: the record would hold what a reload does not give back.
 */
function isJsonText(value: unknown): boolean {
  try {
    return JSON.stringify(value, keptAsIs) !== undefined;
  } catch {
    return false;
  }
}

// Any value, except the refusals SPEC.md lists for every type: the empty string, NaN and the infinities (which
// `isJsonText` refuses, as JSON would write them as null). Text is stored as it is, without being written out first.
function castJson(value: unknown): unknown {
  if (value === "") return UNCASTABLE;
  return typeof value === "string" || isJsonText(value) ? value : UNCASTABLE;
}

let lastTime = Number.NaN;
let lastText = "";

// createdAt and updatedAt are written with the same instant: remember the last text instead of formatting twice.
function isoText(date: Date): string {
  const time = date.getTime();
  if (time !== lastTime) {
    lastText = date.toISOString();
    lastTime = time;
  }
  return lastText;
}

/** The canonical stored form of a datetime: what recordflare writes is already canonical. */
function canonicalDatetime(value: unknown): unknown {
  return typeof value === "string" && value.length === 24 && ISO_TIMESTAMP.test(value) ? value : (readDatetime(value)?.toISOString() ?? null);
}

/** The conversions of each attribute type, the built-in ones and those plugins defined. */
export const attributeTypes: Record<string, AttributeType> = {
  string: {
    comparable: true,
    cast: (value) => (typeof value === "string" ? value : UNCASTABLE),
    castCondition: (value) =>
      typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : UNCASTABLE,
    toDatabase: identity,
    fromDatabase: readText,
    canonical: readText,
  },
  integer: { comparable: true, cast: castInteger, castCondition: castInteger, toDatabase: identity, fromDatabase: readNumber, canonical: readNumber },
  real: { comparable: true, cast: castReal, castCondition: castReal, toDatabase: identity, fromDatabase: readNumber, canonical: readNumber },
  boolean: {
    cast: castBoolean,
    castCondition: castBoolean,
    toDatabase: (value) => (value ? 1 : 0),
    fromDatabase: readBoolean,
    canonical: (value) => {
      const read = readBoolean(value);
      return read === null ? read : +read;
    },
  },
  datetime: {
    comparable: true,
    cast: castDatetime,
    castCondition: castDatetime,
    toDatabase: (value) => isoText(value as Date),
    fromDatabase: readDatetime,
    canonical: canonicalDatetime,
  },
  json: {
    cast: castJson,
    castCondition: castJson,
    toDatabase: (value) => JSON.stringify(value),
    fromDatabase: readJson,
    canonical: canonicalJson,
  },
};

/**
 * Casts a value as an assigned value of an attribute of that type is cast, or undefined when it cannot be; for
 * plugins that read values the way attributes do (numericality reads text that is wholly a number).
 */
export function castAs<T extends AttributeTypeName>(type: T, value: unknown): AttributeTypeMap[T] | undefined {
  const cast = attributeTypes[type]!.cast(value);
  return cast === UNCASTABLE ? undefined : (cast as AttributeTypeMap[T]);
}

/**
 * An attribute type a plugin defines (see `defineAttributeType`). `T` is its JavaScript value. Casting and storing
 * never see null or undefined: null is NULL for every type.
 */
export interface AttributeTypeDefinition<T> {
  /** The value for one assigned (`build`, `assign`, `permit`, `updateAll`, `insertAll`, ...), or undefined to refuse it. */
  cast(value: unknown): T | undefined;
  /** The value for one in a condition (`where`, `findBy`, ...), or undefined for one no row can hold; `cast` unless given. */
  castCondition?(value: unknown): T | undefined;
  /** What D1 stores for a value: text, a number, or bytes. */
  toDatabase(value: T): unknown;
  /** The value for what D1 returned (a record's attribute, a `pluck`ed value). */
  fromDatabase(stored: unknown): T;
  /**
   * Whether the comparison helpers (`gt`, `between`, ...) apply; they compare the stored values in SQL, so only where
   * the stored form orders as the values do (integer cents do). False unless given.
   */
  comparable?: boolean;
  /** The value in a record's `toJSON()`; the value itself unless given. */
  toJSON?(value: T): unknown;
}
