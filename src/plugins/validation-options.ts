import type { Validator } from "./validator.js";

/**
 * The checks of `validates` options, made when they are declared. As Rails' `validates` raises ArgumentError for an
 * unknown validator, for no validator at all and for an option value of the wrong shape, a typo here (`presense`,
 * `length: { min: 2 }`, `uniqueness: { scope: ... }`) must throw instead of silently validating nothing.
 */

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
  allowNil: boolean,
  allowBlank: boolean,
  message: text,
  on: (value) => (value === "create" || value === "update" ? undefined : 'must be "create" or "update"'),
  if: (value) => (typeof value === "function" ? undefined : "must be a function of the record"),
};

function problemOf(key: string, value: unknown, validators: ReadonlyMap<string, Validator>): string | undefined {
  const validator = validators.get(key);
  if (validator) {
    const problem = commonProblem(value) ?? (validator.check ?? trueOrObject)(value);
    return problem && `${key}: ${problem}`;
  }
  const check = Object.hasOwn(DECLARATION_CHECKS, key) ? DECLARATION_CHECKS[key] : undefined;
  if (!check) return `unknown option ${key} (options: ${[...validators.keys(), ...Object.keys(DECLARATION_CHECKS)].join(", ")})`;
  const problem = check(value);
  return problem && `${key}: ${problem}`;
}

/**
 * Throws `TypeError` for options Rails would refuse: unknown ones, wrong shapes, or no check at all. The checks are
 * those the Model offers (`validators`: the built-in ones and those registered on its class chain).
 */
export function checkValidationOptions(modelName: string, attribute: string, options: object, validators: ReadonlyMap<string, Validator>): void {
  const where = `${modelName}.validates(${JSON.stringify(attribute)})`;
  // An option set to `false` is off, as Rails skips `presence: false`.
  const given = Object.entries(options).filter(([, value]) => value !== undefined && value !== false);
  for (const [key, value] of given) {
    const problem = problemOf(key, value, validators);
    if (problem) throw new TypeError(`${where}: ${problem}`);
  }
  // Rails counts a check turned off with `false` as given: `{ presence: false }` alone declares nothing, quietly.
  const checks = Object.entries(options).filter(([key, value]) => validators.has(key) && value !== undefined);
  if (checks.length === 0) throw new TypeError(`${where} needs at least one check (${[...validators.keys()].join(", ")})`);
}
