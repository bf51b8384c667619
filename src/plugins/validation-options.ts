import type { AttributeName } from "../kernel/index.js";
import type { Validator } from "./validator.js";

/**
 * Rails' `allowNil` and `allowBlank`: a check skips a null value, or one blank as `presence` defines it. Given on a
 * check's own options (not `presence`'s, which is only `true`) or on the whole declaration, where `presence` follows it
 * too; the check's own setting wins.
 */
export interface AllowNilOrBlank {
  allowNil?: boolean;
  allowBlank?: boolean;
}

/**
 * The options of checks registered with `defineValidator`, by name, for an attribute of type `T`: empty here, each
 * check adds its own by declaration merging (`declare module "recordflare" { interface ValidatorOptions<T> { email?:
 * ValidatorOption } }`).
 */
export interface ValidatorOptions<T = unknown> {}

/** What every check's long form takes besides its own options. */
type CheckOptions = AllowNilOrBlank & { message?: string };

/** A check's option: `true`, or its long form, an object of its own options with `allowNil`, `allowBlank` and `message`. */
export type ValidatorOption<Own extends object = {}> = true | (Own & CheckOptions);

/**
 * The options of `validates` for an attribute of type `T` of a Model whose attributes are `A`; each present key adds
 * one check. Null is checked, as Rails checks nil.
 */
export interface ValidationOptions<T = unknown, A = any> extends AllowNilOrBlank, ValidatorOptions<T> {
  /** The attribute must not be null, false, an empty or blank string, or an empty array. */
  presence?: true;
  /**
   * No other row has the same value (`caseSensitive: false` compares with SQLite's NOCASE, ASCII letters only; give
   * the column a `:unique_nocase` index so that it searches instead of reading the table); null is taken by a NULL row.
   * `scope` names attributes whose values the other row must share too (Rails' `scope`: unique per account).
   */
  uniqueness?: true | ({ caseSensitive?: boolean; scope?: AttributeName<A> | readonly AttributeName<A>[] } & CheckOptions);
  /** Length of a string or array; null has length 0. */
  length?: { minimum?: number; maximum?: number } & CheckOptions;
  /** A string the RegExp matches (null is tested as ""); the long form `{ with: /re/ }` takes `allowNil`. */
  format?: RegExp | ({ with: RegExp } & CheckOptions);
  /** One of the allowed values, of the attribute's type; the long form `{ in: [...] }` takes `allowNil`. */
  inclusion?: readonly T[] | ({ in: readonly T[] } & CheckOptions);
  /** A number, optionally an integer or greater than a bound; null is not a number. */
  numericality?: true | ({ onlyInteger?: boolean; greaterThan?: number } & CheckOptions);
  /** Replaces the default message of every check of this declaration (a check's own `message` wins). */
  message?: string;
  /** Runs the checks on the saves of new records only (`"create"`) or of persisted ones only (`"update"`). */
  on?: "create" | "update";
  /** Runs the checks only when it gives a truthy value for the record being saved (it may be async). */
  if?: (record: any) => unknown;
}

/** A problem with an option's value, in words, or undefined. */
export type Check = (value: unknown) => string | undefined;

function isOptionsObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp);
}

/**
 * Checks an object's keys against their checks; a key left undefined is absent, and so is one set to `false` when
 * `falseIsOff` (a check turned off, as Rails skips `presence: false`). `oneOf` lists the keys of which at least one
 * must be given.
 */
function objectOf(checks: Record<string, Check>, oneOf: readonly string[], falseIsOff = false): Check {
  return (value) => {
    if (!isOptionsObject(value)) return "must be an object";
    const given = Object.entries(value).filter(([, inner]) => inner !== undefined && !(falseIsOff && inner === false));
    for (const [key, inner] of given) {
      const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
      if (!check) return `unknown option ${key} (options: ${Object.keys(checks).join(", ")})`;
      const problem = check(inner);
      if (problem) return `${key}: ${problem}`;
    }
    if (oneOf.length > 0 && !given.some(([key]) => oneOf.includes(key))) return `needs ${oneOf.length > 1 ? "one of " : ""}${oneOf.join(", ")}`;
    return undefined;
  };
}

/** A flag: `true` or `false`. */
export const boolean: Check = (value) => (typeof value === "boolean" ? undefined : "must be true or false");
const text: Check = (value) => (typeof value === "string" ? undefined : "must be a string");

/**
 * Rails' `allow_nil` and `allow_blank`, and a `message`: taken by every check's long form (not by `presence`, which is
 * only `true`) and by the declaration itself.
 */
export const COMMON_CHECKS: Record<string, Check> = { allowNil: boolean, allowBlank: boolean, message: text };

/** Checks the common options of a check's long form, which any check takes, built-in or registered. */
function commonProblem(value: unknown): string | undefined {
  if (!isOptionsObject(value)) return undefined;
  for (const [key, check] of Object.entries(COMMON_CHECKS)) {
    const inner = (value as Record<string, unknown>)[key];
    const problem = inner === undefined ? undefined : check(inner);
    if (problem) return `${key}: ${problem}`;
  }
  return undefined;
}

/** A check's long form: an object of its own options (checked by `checks`) and the common ones. */
export function longForm(checks: Record<string, Check>, oneOf: readonly string[] = []): Check {
  return objectOf({ ...checks, ...COMMON_CHECKS }, oneOf);
}

/** A check whose value is either its short form or its long form. */
export function shortOrLong(short: (value: unknown) => boolean, shortProblem: Check, long: Check): Check {
  return (value) => {
    if (short(value)) return undefined;
    return isOptionsObject(value) ? long(value) : shortProblem(value);
  };
}

/** What a check registered without its own `check` takes (and `uniqueness`, `numericality`): `true` or an object. */
export const trueOrObject: Check = (value) => (value === true || isOptionsObject(value) ? undefined : "must be true or an object");

// The options of a whole declaration, beside its checks.
const DECLARATION_CHECKS: Record<string, Check> = {
  ...COMMON_CHECKS,
  on: (value) => (value === "create" || value === "update" ? undefined : 'must be "create" or "update"'),
  if: (value) => (typeof value === "function" ? undefined : "must be a function of the record"),
};

/** The check of a declaration's options: each check the Model offers (its common options too), then its own options. */
function declarationCheck(validators: ReadonlyMap<string, Validator>): Check {
  const checks = Object.fromEntries([...validators].map(([name, validator]): [string, Check] => [name, (value) => commonProblem(value) ?? (validator.check ?? trueOrObject)(value)]));
  // An option set to `false` is off, as Rails skips `presence: false`.
  return objectOf({ ...checks, ...DECLARATION_CHECKS }, [], true);
}

/**
 * Throws `TypeError` for options Rails would refuse: unknown ones, wrong shapes, or no check at all. The checks are
 * those the Model offers (`validators`: the built-in ones and those registered on its class chain).
 */
export function checkValidationOptions(modelName: string, attribute: string, options: object, validators: ReadonlyMap<string, Validator>): void {
  const where = `${modelName}.validates(${JSON.stringify(attribute)})`;
  const problem = declarationCheck(validators)(options);
  if (problem) throw new TypeError(`${where}: ${problem}`);
  // Rails counts a check turned off with `false` as given: `{ presence: false }` alone declares nothing, quietly.
  const checks = Object.entries(options).filter(([key, value]) => validators.has(key) && value !== undefined);
  if (checks.length === 0) throw new TypeError(`${where} needs at least one check (${[...validators.keys()].join(", ")})`);
}
