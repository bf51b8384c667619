/**
 * The options of `validates`: their types, and the checks made when they are declared. As Rails' `validates` raises
 * ArgumentError for an unknown validator, for no validator at all and for an option value of the wrong shape, a typo
 * here (`presense`, `length: { min: 2 }`, `uniqueness: { scope: ... }`) must throw instead of silently validating
 * nothing.
 */

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
 * The options of `validates` for an attribute of type `T`; each present key adds one check. Null is checked, as
 * Rails checks nil.
 */
export interface ValidationOptions<T = unknown> extends AllowNilOrBlank {
  /** The attribute must not be null, false, an empty or blank string, or an empty array. */
  presence?: true;
  /**
   * No other row has the same value (`caseSensitive: false` compares with SQLite's NOCASE, ASCII letters only; give
   * the column a `:unique_nocase` index so that it searches instead of reading the table); null is taken by a NULL row.
   */
  uniqueness?: true | ({ caseSensitive?: boolean } & AllowNilOrBlank);
  /** Length of a string or array; null has length 0. */
  length?: { minimum?: number; maximum?: number } & AllowNilOrBlank;
  /** A string the RegExp matches (null is tested as ""); the long form `{ with: /re/ }` takes `allowNil`. */
  format?: RegExp | ({ with: RegExp } & AllowNilOrBlank);
  /** One of the allowed values, of the attribute's type; the long form `{ in: [...] }` takes `allowNil`. */
  inclusion?: readonly T[] | ({ in: readonly T[] } & AllowNilOrBlank);
  /** A number, optionally an integer or greater than a bound; null is not a number. */
  numericality?: true | ({ onlyInteger?: boolean; greaterThan?: number } & AllowNilOrBlank);
  /** Replaces the default message of every check of this declaration. */
  message?: string;
}

type Check = (value: unknown) => string | undefined;

/**
 * Checks an object's keys against their checks; a key left undefined is absent, and so is one set to `false` when
 * `falseIsOff` (a check turned off, as Rails skips `presence: false`). `oneOf` lists the keys of which at least one
 * must be given.
 */
function objectOf(checks: Record<string, Check>, oneOf: readonly string[], falseIsOff = false): Check {
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be an object";
    const given = Object.entries(value).filter(([, inner]) => inner !== undefined && !(falseIsOff && inner === false));
    for (const [key, inner] of given) {
      const check = checks[key];
      if (!check) return `unknown option ${key} (options: ${Object.keys(checks).join(", ")})`;
      const problem = check(inner);
      if (problem) return `${key}: ${problem}`;
    }
    if (oneOf.length > 0 && !given.some(([key]) => oneOf.includes(key))) return `needs ${oneOf.length > 1 ? "one of " : ""}${oneOf.join(", ")}`;
    return undefined;
  };
}

const boolean: Check = (value) => (typeof value === "boolean" ? undefined : "must be true or false");
const count: Check = (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : "must be a whole number from 0");
const regExp: Check = (value) => (value instanceof RegExp ? undefined : "must be a RegExp");
const list: Check = (value) => (Array.isArray(value) ? undefined : "must be an array of the allowed values");
const finite: Check = (value) => (Number.isFinite(value) ? undefined : "must be a finite number");

// Rails' `allow_nil` and `allow_blank`, taken by every check but presence (only `true`) and by the declaration itself.
const SKIPS = { allowNil: boolean, allowBlank: boolean };

/** A check whose value is either its short form or its long form, an object of options with the skips. */
function shortOrLong(short: (value: unknown) => boolean, shortProblem: Check, long: Record<string, Check>, oneOf: readonly string[] = []): Check {
  const longForm = objectOf({ ...long, ...SKIPS }, oneOf);
  return (value) => {
    if (short(value)) return undefined;
    return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp) ? longForm(value) : shortProblem(value);
  };
}

// Each check of a declaration (set to `false`, one is off).
const CHECKS: Record<Exclude<keyof ValidationOptions, "message" | keyof typeof SKIPS>, Check> = {
  presence: (value) => (value === true ? undefined : "must be true"),
  uniqueness: shortOrLong((value) => value === true, () => "must be true or an object", { caseSensitive: boolean }),
  length: objectOf({ minimum: count, maximum: count, ...SKIPS }, ["minimum", "maximum"]),
  format: shortOrLong((value) => value instanceof RegExp, regExp, { with: regExp }, ["with"]),
  inclusion: shortOrLong(Array.isArray, list, { in: list }, ["in"]),
  numericality: shortOrLong((value) => value === true, () => "must be true or an object", { onlyInteger: boolean, greaterThan: finite }),
};

const OPTIONS: Record<keyof ValidationOptions, Check> = {
  ...CHECKS,
  ...SKIPS,
  message: (value) => (typeof value === "string" ? undefined : "must be a string"),
};

/** Throws `TypeError` for options Rails would refuse: unknown ones, wrong shapes, or no check at all. */
export function checkValidationOptions(modelName: string, attribute: string, options: object): void {
  const where = `${modelName}.validates(${JSON.stringify(attribute)})`;
  const problem = objectOf(OPTIONS, [], true)(options);
  if (problem) throw new TypeError(`${where}: ${problem}`);
  // Rails counts a check turned off with `false` as given: `{ presence: false }` alone declares nothing, quietly.
  const checks = Object.entries(options).filter(([key, value]) => key in CHECKS && value !== undefined);
  if (checks.length === 0) throw new TypeError(`${where} needs at least one check (${Object.keys(CHECKS).join(", ")})`);
}
