import { anyMatch, castAs, databaseOfRecord, declareModelState, definePlugin, defineModelState, ignoringCase, modelState, primaryKeyOf, type Relation, type AnyModel, type AttributeName, type AttributesOfModel } from "../kernel/index.js";
import { type AllowNilOrBlank, checkValidationOptions, type ValidationOptions } from "./validation-options.js";
import { rulesOf, type Rules } from "./validation-rules.js";
import { isBlank, skipsValue } from "./validation-skips.js";

interface Declared {
  readonly attribute: string;
  readonly rules: Rules;
}

const VALIDATIONS = defineModelState<Declared[]>("validations", () => [], (list) => [...list]);

interface Validatable {
  readAttribute(name: string): unknown;
  attributeWas(name: string): unknown;
  isNewRecord(): boolean;
  isAttributeChanged(name: string): boolean;
  errors: { add(attribute: string, type: string, message: string): void };
  constructor: Function;
}

type Report = (type: string, message: string) => void;

/**
 * A number or null as Rails' `to_s` writes it, for the checks that read text (`format`, `length`): null is "", so it
 * fails a `minimum` but never a `maximum`, and matches only a format that matches "". Other values as they are.
 */
function textOf(value: unknown): unknown {
  if (value === null) return "";
  return typeof value === "number" ? String(value) : value;
}

function checkLength(rawValue: unknown, length: NonNullable<Rules["length"]>, report: Report): void {
  // As Rails, a value without a length (a number, null) is measured by its text.
  const value = textOf(rawValue);
  if (typeof value !== "string" && !Array.isArray(value)) return;
  // Characters, as Rails counts them: an emoji is one, though JavaScript's length says two.
  const size = typeof value === "string" ? [...value].length : value.length;
  if (length.minimum !== undefined && size < length.minimum) report("too_short", "is too short");
  if (length.maximum !== undefined && size > length.maximum) report("too_long", "is too long");
}

/**
 * The number a value stands for, as Rails reads it: a number, or text that is wholly one (a string attribute),
 * read as `real` and `integer` attributes read text. Text is integral only when written as an integer: "1.0" is not.
 */
function numberOf(value: unknown): { number: number; integral: boolean } | undefined {
  if (typeof value !== "number" && typeof value !== "string") return undefined;
  const number = castAs("real", typeof value === "string" ? value.trim() : value);
  if (number === undefined) return undefined;
  return { number, integral: typeof value === "number" ? Number.isInteger(value) : castAs("integer", value) !== undefined };
}

function checkNumericality(value: unknown, options: NonNullable<Rules["numericality"]>, report: Report): void {
  // Null is not a number, as Rails' numericality says of nil.
  const read = numberOf(value);
  if (!read) return report("not_a_number", "is not a number");
  if (options.onlyInteger && !read.integral) return report("not_an_integer", "must be an integer");
  if (options.greaterThan !== undefined && !(read.number > options.greaterThan)) report("greater_than", `must be greater than ${options.greaterThan}`);
}

async function isTaken(record: Validatable, attribute: string, value: unknown, caseSensitive: boolean): Promise<boolean> {
  // Asked through the database the record writes through, so the check sees what its save will see.
  const database = databaseOfRecord(record);
  const model = (database ? database.model(record.constructor) : record.constructor) as unknown as { all(): Relation };
  let others = model.all().where({ [attribute]: caseSensitive || typeof value !== "string" ? value : ignoringCase(value) });
  if (!record.isNewRecord()) {
    const key = primaryKeyOf(record.constructor);
    // Its row as stored, as Rails' `id_in_database`: a key being changed must not make its own row a rival.
    others = others.whereNot({ [key.name]: record.attributeWas(key.name) });
  }
  return anyMatch(others);
}

async function validateAll(record: Validatable, declared: readonly Declared[]): Promise<void> {
  for (const declaration of declared) await validate(record, declaration);
}

async function validate(record: Validatable, { attribute, rules }: Declared): Promise<void> {
  const value = record.readAttribute(attribute);
  const report: Report = (type, message) => record.errors.add(attribute, type, rules.message ?? message);
  const applies = <T extends AllowNilOrBlank>(rule: T | undefined): rule is T => rule !== undefined && !skipsValue(value, rule);
  const { length, format, inclusion, numericality, uniqueness } = rules;
  if (applies(rules.presence) && isBlank(value)) report("blank", "can't be blank");
  if (applies(length)) checkLength(value, length, report);
  if (applies(format) && !matchesFormat(format.with, value)) report("invalid", "is invalid");
  if (applies(inclusion) && !inclusion.in.some((allowed) => sameValue(allowed, value))) report("inclusion", "is not included in the list");
  if (applies(numericality)) checkNumericality(value, numericality, report);
  // A stored value that this save leaves alone was checked when it was written: a save with no change sends nothing.
  if (applies(uniqueness) && (record.isNewRecord() || record.isAttributeChanged(attribute))) {
    if (await isTaken(record, attribute, value, uniqueness.caseSensitive !== false)) report("taken", "has already been taken");
  }
}

/** Equality as Rails' `include?` sees it: Dates by their time, `json` arrays and objects by their content. */
function sameValue(allowed: unknown, value: unknown): boolean {
  if (allowed instanceof Date && value instanceof Date) return allowed.getTime() === value.getTime();
  if (typeof allowed === "object" && allowed !== null && typeof value === "object" && value !== null) {
    return JSON.stringify(allowed) === JSON.stringify(value);
  }
  return allowed === value;
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

/**
 * Validations: `this.validates("<attribute>", { presence, uniqueness, length, format, inclusion, numericality })`
 * in a `static {}` block. They run on every save, before the save callbacks; failures go to `record.errors` and
 * the save returns false. Bulk writes skip them. As in Rails, null is checked unless `allowNil` or `allowBlank` says
 * to skip it.
 */
export const validations = definePlugin({
  name: "validations",
  setup(base: Record<string, unknown>) {
    base["validates"] = function (this: Function, attribute: string, options: ValidationOptions) {
      if (typeof attribute !== "string" || typeof options !== "object" || options === null) {
        throw new TypeError(`${this.name}.validates takes an attribute name and an options object`);
      }
      checkValidationOptions(this.name, attribute, options);
      declareModelState(this, VALIDATIONS).push({ attribute, rules: rulesOf(options) });
    };
  },
  appliesTo: (model: Function) => modelState(model, VALIDATIONS).length > 0,
  hooks: {
    "record:validate": ({ record }) => validateAll(record, modelState(record.constructor, VALIDATIONS)),
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /** Declares validations of an attribute (in a `static {}` block). */
    validates<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(this: M, attribute: K, options: ValidationOptions<AttributesOfModel<M>[K]>): void;
  }
}
