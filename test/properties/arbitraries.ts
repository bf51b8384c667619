/**
 * Generators shared by the property tests: values each attribute type accepts (with the value it is cast to) and
 * values it refuses, as SPEC.md's "Casting of assigned values" lists them, plus the checks every property shares.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { type BuiltInAttributeTypeName, RecordflareError } from "../../src/index.js";

/** Runs per property: enough to find a class of bug, few enough that each property takes a few seconds. */
export const RUNS = 60;

/** Time allowed to a property that writes to D1: a few seconds on an idle machine, more on a loaded one. */
export const DATABASE_PROPERTY_TIMEOUT = 30_000;

/** Well-formed text of any code point (control characters, NUL, astral planes); `illFormedText` has the others. */
export const text = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit: "binary", maxLength: 12, ...constraints });

const pad = (width: number) => (value: number) => String(value).padStart(width, "0");
const SPACES = fc.constantFrom("", " ", "  ", "\t", "\n");

/** A number as a numeric attribute casts it: SQLite keeps no -0, so neither does the cast. */
const asStored = (number: number) => (number === 0 ? 0 : number);

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

/** An instant whose ISO text has a four-digit year, as a datetime must (years 0000 to 9999). */
const fourDigitYearDate = fc.date({ min: new Date("0000-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true });

/** A date-time string with `Z` or a `±HH:MM` offset for `date`, and the instant it names. */
const dateTimeText = fc
  .tuple(fourDigitYearDate, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), fc.constantFrom("ms", "s", "m"))
  .filter(([date, offset]) => {
    const local = new Date(date.getTime() + offset * 60_000).getUTCFullYear();
    return local >= 0 && local <= 9999;
  })
  .map(([date, offsetMinutes, precision]) => {
    const instant = precision === "ms" ? date.getTime() : precision === "s" ? Math.floor(date.getTime() / 1000) * 1000 : Math.floor(date.getTime() / 60_000) * 60_000;
    const local = new Date(instant + offsetMinutes * 60_000);
    const day = `${pad(4)(local.getUTCFullYear())}-${pad(2)(local.getUTCMonth() + 1)}-${pad(2)(local.getUTCDate())}`;
    const minutes = `${pad(2)(local.getUTCHours())}:${pad(2)(local.getUTCMinutes())}`;
    const seconds = precision === "m" ? "" : `:${pad(2)(local.getUTCSeconds())}${precision === "ms" ? `.${pad(3)(local.getUTCMilliseconds())}` : ""}`;
    const sign = offsetMinutes < 0 ? "-" : "+";
    const offset = offsetMinutes === 0 && precision !== "s" ? "Z" : `${sign}${pad(2)(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(2)(Math.abs(offsetMinutes) % 60)}`;
    return [`${day}T${minutes}${seconds}${offset}`, new Date(instant)] as const;
  });

/** A JSON value as JSON keeps it (so -0 is 0): what a `json` attribute stores. */
const jsonValue = fc.jsonValue({ maxDepth: 3 }).filter((value) => value !== "").map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/** For each type, an accepted input and the JavaScript value it is cast to. */
export const accepted: Record<BuiltInAttributeTypeName, fc.Arbitrary<readonly [input: unknown, cast: unknown]>> = {
  string: text().map((value) => [value, value] as const),
  integer: fc.oneof(
    fc.maxSafeInteger().map((value) => [value, asStored(value)] as const),
    fc
      .tuple(SPACES, fc.constantFrom("", "+", "-"), fc.maxSafeNat(), fc.nat(3), SPACES)
      .map(([before, sign, value, zeros, after]) => [`${before}${sign}${"0".repeat(zeros)}${value}${after}`, asStored((sign === "-" ? -1 : 1) * value)] as const),
  ),
  real: fc.oneof(
    finiteDouble.map((value) => [value, asStored(value)] as const),
    fc
      .tuple(finiteDouble, fc.constantFrom("string", "exponential", "fixed"))
      .map(([value, form]) => (form === "string" ? String(value) : form === "exponential" ? value.toExponential() : value.toFixed(4)))
      .filter((form) => /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(form))
      .map((form) => [form, asStored(Number(form))] as const),
    fc.constantFrom([".5", 0.5], ["5.", 5], ["-2e3", -2000], ["+1.5E-3", 0.0015], [".25", 0.25], ["1e10", 1e10]),
  ),
  boolean: fc.oneof(
    fc.constantFrom([true, true], [false, false], [1, true], [0, false], ["1", true], ["0", false]),
    fc.constantFrom(["true", true], ["false", false], ["on", true], ["off", false]).chain(([word, value]) =>
      fc.mixedCase(fc.constant(word as string)).map((mixed) => [mixed, value] as const),
    ),
  ),
  datetime: fc.oneof(
    fourDigitYearDate.map((date) => [date, date] as const),
    fourDigitYearDate.map((date) => {
      const day = date.toISOString().slice(0, 10);
      return [day, new Date(`${day}T00:00:00.000Z`)] as const;
    }),
    dateTimeText,
  ),
  json: jsonValue.map((value) => [value, value] as const),
};

/** Text that is not well-formed UTF-16: a lone surrogate somewhere, which D1 would store as U+FFFD. */
export const illFormedText = fc
  .tuple(text({ maxLength: 4 }), fc.integer({ min: 0xd800, max: 0xdfff }), text({ maxLength: 4 }))
  .map(([before, surrogate, after]) => `${before}${String.fromCharCode(surrogate)}${after}`)
  .filter((value) => !(value as string & { isWellFormed(): boolean }).isWellFormed());

const notPlainValues = fc.constantFrom<unknown>(Symbol("s"), () => 1, 10n, new Map([["a", 1]]));
const objects = fc.oneof(fc.object({ maxDepth: 1 }), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(new Date(0)));

/** For each type, inputs it refuses (each must throw `TypeError`). */
export const refused: Record<BuiltInAttributeTypeName, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.double(), fc.boolean(), objects, notPlainValues, illFormedText),
  integer: fc.oneof(
    fc.double().filter((value) => !Number.isSafeInteger(value)),
    fc.constantFrom("", " ", "1.7", "12abc", "1e3", "0x10", "9007199254740992", "- 1", "1 2", "+", "１"),
    text().filter((value) => !/^\s*[+-]?\d+\s*$/.test(value)),
    fc.boolean(),
    objects,
    notPlainValues,
  ),
  real: fc.oneof(
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    fc.constantFrom("", " 1.5", "1.5 ", "1.5x", "e5", "1e", ".", "Infinity", "NaN", "0x10", "1_000", "1e400"),
    text().filter((value) => !/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(value)),
    fc.boolean(),
    objects,
    notPlainValues,
  ),
  boolean: fc.oneof(
    fc.double().filter((value) => value !== 0 && value !== 1),
    fc.constantFrom("", "yes", "no", "t", "f", "2", " true", "true ", "1.0"),
    text().filter((value) => !["true", "false", "on", "off", "1", "0"].includes(value.toLowerCase())),
    objects,
    notPlainValues,
  ),
  datetime: fc.oneof(
    fc.double(),
    fc.date({ noInvalidDate: true }).filter((date) => date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999),
    fc.constantFrom(new Date(Number.NaN), "", "2024-01-01T00:00", "2024-01-01t00:00Z", "2024-01-01T00:00z", "2023-02-29", "2024-01-01 00:00Z"),
    fc.constantFrom("x2024-01-01", "2024-01-01x", "2024-01-01T00:60Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00+00:60", "2024-13-01", "24-01-01"),
    text().filter((value) => !/^\d{4}-\d{2}-\d{2}/.test(value)),
    fc.boolean(),
    fc.object({ maxDepth: 1 }),
    notPlainValues,
  ),
  json: fc.oneof(
    fc.constantFrom<unknown>("", Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 10n, Symbol("s"), () => 1),
    fc.constant(null).map(() => {
      const cyclic: Record<string, unknown> = {};
      cyclic["self"] = cyclic;
      return cyclic;
    }),
  ),
};

/** Messages of raw JavaScript errors, which no public method may let out. */
const RAW_ERROR = /Cannot read propert|Cannot convert|is not a function|is not iterable|undefined is not|null is not|Maximum call stack|is not defined|Cannot (?:set|create|destructure)/;

/**
 * Checks that `error` is one the library documents: a `RecordflareError`, or a `TypeError` of its own (naming
 * `modelName`, or the comparison helper that refused its argument), never a raw JavaScript error.
 */
export function expectDocumentedError(error: unknown, modelName: string): void {
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).not.toMatch(RAW_ERROR);
  if (error instanceof RecordflareError) return;
  expect(error).toBeInstanceOf(TypeError);
  // A comparison helper checks its own arguments when called, before any Model is known, and names itself.
  expect(message).toMatch(new RegExp(`${modelName}|^(gt|gte|lt|lte|between|ignoringCase)\\b`));
}
