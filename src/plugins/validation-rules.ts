import {
  anyMatch,
  attributeWas,
  castAs,
  comparableStored,
  databaseOfRecord,
  ignoringCase,
  isAttributeChanged,
  isBlob,
  primaryKeyOf,
  type Relation,
  withoutDefaultScope,
} from "../kernel/index.js";
import { boolean, type Check, longForm, shortOrLong, trueOrObject } from "./validation-options.js";
import { isBlank } from "./validation-skips.js";
import type { Validator, ValidatorContext } from "./validator.js";

const count: Check = (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : "must be a whole number from 0");
const regExp: Check = (value) => (value instanceof RegExp ? undefined : "must be a RegExp");
const list: Check = (value) => (Array.isArray(value) ? undefined : "must be an array of the allowed values");
const finite: Check = (value) => (Number.isFinite(value) ? undefined : "must be a finite number");
const isTrue = (value: unknown) => value === true;

/**
 * A number or null as Rails' `to_s` writes it, for the checks that read text (`format`, `length`): null is "", so it
 * fails a `minimum` but never a `maximum`, and matches only a format that matches "". Other values as they are.
 */
function textOf(value: unknown): unknown {
  if (value === null) return "";
  return typeof value === "number" ? String(value) : value;
}

/**
 * The number a value stands for, as Rails reads it: a number, or text that is wholly one (a string attribute),
 * read as `real` attributes read text. Text is integral when written as an integer, of any size, as Rails' pattern
 * reads it: "1.0" and "1e3" are not, "99999999999999999999" is.
 */
function numberOf(value: unknown): { number: number; integral: boolean } | undefined {
  if (typeof value !== "number" && typeof value !== "string") return undefined;
  const number = castAs("real", typeof value === "string" ? value.trim() : value);
  if (number === undefined) return undefined;
  return { number, integral: typeof value === "number" ? Number.isInteger(value) : !/[.e]/i.test(value) };
}

/**
 * Equality as Rails' `include?` sees it: Dates by their time, `json` arrays by their items in order, objects by
 * their entries in any order (`{ a: 1, b: 2 }` is `{ b: 2, a: 1 }`, as Ruby's Hash equality says), at any depth.
 * A plugin type's value may be bytes (by their content, whichever view holds them), a Map (by its entries) or a Set
 * (by its members), which have no enumerable keys: any two of a kind would otherwise pass for equal.
 *
 * Not the kernel's `sameWritten` (relation-compatibility.ts), on purpose: the values here are cast attribute values,
 * and a plugin type's value object (a `Money`) is a new instance at each cast, which must match the one listed by its
 * entries; `sameWritten` decides whether `or` may merge two Relations, where a class instance passes only as itself.
 */
function sameValue(allowed: unknown, value: unknown): boolean {
  if (allowed instanceof Date || value instanceof Date) {
    return allowed instanceof Date && value instanceof Date && allowed.getTime() === value.getTime();
  }
  if (typeof allowed !== "object" || typeof value !== "object" || allowed === null || value === null) return allowed === value;
  // Bytes as text of their content; a value that is no blob stays an object, never equal to that text.
  if (isBlob(allowed) || isBlob(value)) return comparableStored(allowed) === comparableStored(value);
  for (const Collection of [Map, Set]) {
    if (allowed instanceof Collection || value instanceof Collection) {
      return allowed instanceof Collection && value instanceof Collection && within([...allowed], [...value]) && within([...value], [...allowed]);
    }
  }
  if (Array.isArray(allowed) !== Array.isArray(value)) return false;
  const keys = Object.keys(allowed);
  const entries = value as Record<string, unknown>;
  return keys.length === Object.keys(value).length && keys.every((key) => Object.hasOwn(value, key) && sameValue((allowed as Record<string, unknown>)[key], entries[key]));
}

/** Whether each member of `ours` is one of `theirs`, as `sameValue` compares them (a Map's entries, a Set's members). */
function within(ours: readonly unknown[], theirs: readonly unknown[]): boolean {
  return ours.every((item) => theirs.some((other) => sameValue(item, other)));
}

/**
 * A `g` or `y` RegExp starts where its last match ended; each value is tested from the start. A number or null is
 * tested as its text, as Rails tests `value.to_s`; any other value that is not text is invalid.
 */
function matchesFormat(format: RegExp, value: unknown): boolean {
  format.lastIndex = 0;
  const text = textOf(value);
  return typeof text === "string" && format.test(text);
}

/** Uniqueness's options in their long form: `scope` names the attributes another row must share to be a rival. */
interface UniquenessOptions {
  readonly caseSensitive?: boolean;
  readonly scope?: string | readonly string[];
}

/** The attributes of a uniqueness check's `scope`, as a list. */
const scopeOf = ({ scope }: UniquenessOptions): readonly string[] => (typeof scope === "string" ? [scope] : (scope ?? []));

const attributeNames: Check = (value) =>
  typeof value === "string" || (Array.isArray(value) && value.length > 0 && value.every((name) => typeof name === "string")) ? undefined : "must be an attribute name or a non-empty list of them";

async function isTaken({ record, model: declaring, attribute, value, options }: ValidatorContext<UniquenessOptions>): Promise<boolean> {
  // Among the declaring Model's rows (Rails' finder class), when the record's class shares its table: a check declared
  // on an inheritance root also sees the rows of the other types.
  const finder = declaring.tableName === record.constructor.tableName ? declaring : record.constructor;
  // Asked through the database the record writes through, so the check sees what its save will see.
  const database = databaseOfRecord(record);
  const model = (database ? database.model(finder) : finder) as { all(): Relation };
  const caseSensitive = options.caseSensitive !== false;
  // As Rails' `klass.unscoped`: a row a default scope hides (archived, soft-deleted) still holds the value.
  const conditions: Record<string, unknown> = { [attribute]: caseSensitive || typeof value !== "string" ? value : ignoringCase(value) };
  // A rival shares the scope's values too (a null one as NULL), as Rails' `scope` compares them.
  for (const name of scopeOf(options)) conditions[name] = record.readAttribute(name);
  let others = withoutDefaultScope(model.all()).where(conditions);
  if (!record.isNewRecord()) {
    const key = primaryKeyOf(record.constructor);
    // Its row as stored, as Rails' `id_in_database`: a key being changed must not make its own row a rival.
    others = others.whereNot({ [key.name]: attributeWas(record, key.name) });
  }
  return await anyMatch(others);
}

const presence: Validator = {
  check: (value) => (value === true ? undefined : "must be true"),
  validate: ({ value, report }) => {
    if (isBlank(value)) report("blank", "can't be blank");
  },
};

const length: Validator<{ minimum?: number; maximum?: number }> = {
  check: longForm({ minimum: count, maximum: count }, ["minimum", "maximum"]),
  validate: ({ value: rawValue, options, report }) => {
    // As Rails, a value without a length (a number, null) is measured by its text.
    const value = textOf(rawValue);
    if (typeof value !== "string" && !Array.isArray(value)) return;
    // Characters, as Rails counts them: an emoji is one, though JavaScript's length says two.
    const size = typeof value === "string" ? [...value].length : value.length;
    if (options.minimum !== undefined && size < options.minimum) report("too_short", "is too short");
    if (options.maximum !== undefined && size > options.maximum) report("too_long", "is too long");
  },
};

const format: Validator<{ with: RegExp }> = {
  check: shortOrLong((value) => value instanceof RegExp, regExp, longForm({ with: regExp }, ["with"])),
  // The Model keeps its own copy: a `g` or `y` RegExp's `lastIndex` must not be shared with the app.
  options: (given) => {
    const long = given instanceof RegExp ? { with: given } : (given as { with: RegExp });
    return { ...long, with: new RegExp(long.with) };
  },
  validate: ({ value, options, report }) => {
    if (!matchesFormat(options.with, value)) report("invalid", "is invalid");
  },
};

const inclusion: Validator<{ in: readonly unknown[] }> = {
  check: shortOrLong(Array.isArray, list, longForm({ in: list }, ["in"])),
  options: (given) => (Array.isArray(given) ? { in: given } : (given as { in: readonly unknown[] })),
  validate: ({ value, options, report }) => {
    if (!options.in.some((allowed) => sameValue(allowed, value))) report("inclusion", "is not included in the list");
  },
};

const numericality: Validator<{ onlyInteger?: boolean; greaterThan?: number }> = {
  check: shortOrLong(isTrue, trueOrObject, longForm({ onlyInteger: boolean, greaterThan: finite })),
  validate: ({ value, options, report }) => {
    // Null is not a number, as Rails' numericality says of nil.
    const read = numberOf(value);
    if (!read) return report("not_a_number", "is not a number");
    if (options.onlyInteger && !read.integral) return report("not_an_integer", "must be an integer");
    if (options.greaterThan !== undefined && !(read.number > options.greaterThan)) report("greater_than", `must be greater than ${options.greaterThan}`);
  },
};

const uniqueness: Validator<UniquenessOptions> = {
  check: shortOrLong(isTrue, trueOrObject, longForm({ caseSensitive: boolean, scope: attributeNames })),
  attributesRead: scopeOf,
  validate: async (context) => {
    const { record, attribute } = context;
    // Values that this save leaves alone were checked when they were written: a save with no change sends nothing.
    const changed = (name: string) => isAttributeChanged(record, name);
    if (!record.isNewRecord() && !changed(attribute) && !scopeOf(context.options).some(changed)) return;
    if (await isTaken(context)) context.report("taken", "has already been taken");
  },
};

/** The built-in checks, in the order they run (uniqueness, which queries, last). */
export const BUILT_IN_VALIDATORS: ReadonlyMap<string, Validator> = new Map(Object.entries<Validator>({ presence, length, format, inclusion, numericality, uniqueness }));
