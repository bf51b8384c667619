import type { ValidationOptions } from "../kernel/index.js";

/**
 * The checks of `validates` options, made when they are declared. As Rails' `validates` raises ArgumentError for an
 * unknown validator, for no validator at all and for an option value of the wrong shape, a typo here (`presense`,
 * `length: { min: 2 }`, `uniqueness: { scope: ... }`) must throw instead of silently validating nothing.
 */

type Check = (value: unknown) => string | undefined;

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Checks an object's keys against their checks; a key left undefined is absent, and so is one set to `false` when
 * `falseIsOff` (a check turned off, as Rails skips `presence: false`).
 */
function objectOf(checks: Record<string, Check>, atLeastOne: boolean, falseIsOff = false): Check {
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object";
    const given = Object.entries(value).filter(([, inner]) => inner !== undefined && !(falseIsOff && inner === false));
    for (const [key, inner] of given) {
      const check = checks[key];
      if (!check) return `unknown option ${key} (options: ${Object.keys(checks).join(", ")})`;
      const problem = check(inner);
      if (problem) return `${key}: ${problem}`;
    }
    if (atLeastOne && given.length === 0) return `needs one of ${Object.keys(checks).join(", ")}`;
    return undefined;
  };
}

const boolean: Check = (value) => (typeof value === "boolean" ? undefined : "must be true or false");
const count: Check = (value) => (isCount(value) ? undefined : "must be a whole number from 0");

// Each option of a declaration (set to `false`, one is off).
const OPTIONS: Record<keyof ValidationOptions, Check> = {
  presence: (value) => (value === true ? undefined : "must be true"),
  uniqueness: (value) => (value === true ? undefined : objectOf({ caseSensitive: boolean }, false)(value)),
  length: objectOf({ minimum: count, maximum: count }, true),
  format: (value) => (value instanceof RegExp ? undefined : "must be a RegExp"),
  inclusion: (value) => (Array.isArray(value) ? undefined : "must be an array of the allowed values"),
  numericality: (value) =>
    value === true
      ? undefined
      : objectOf({ onlyInteger: boolean, greaterThan: (bound) => (Number.isFinite(bound) ? undefined : "must be a finite number") }, false)(value),
  message: (value) => (typeof value === "string" ? undefined : "must be a string"),
};

/** Throws `TypeError` for options Rails would refuse: unknown ones, wrong shapes, or no check at all. */
export function checkValidationOptions(modelName: string, attribute: string, options: object): void {
  const where = `${modelName}.validates(${JSON.stringify(attribute)})`;
  const problem = objectOf(OPTIONS, false, true)(options);
  if (problem) throw new TypeError(`${where}: ${problem}`);
  // Rails counts a check turned off with `false` as given: `{ presence: false }` alone declares nothing, quietly.
  const checks = Object.entries(options).filter(([key, value]) => key !== "message" && value !== undefined);
  if (checks.length === 0) throw new TypeError(`${where} needs at least one check (${Object.keys(OPTIONS).slice(0, -1).join(", ")})`);
}
