import type { Attribute } from "../records/attributes.js";
import { UNCASTABLE } from "../records/attribute-types.js";
import { assertValueWithinD1Limit } from "./bound-json.js";
import type { SqlFragment } from "./sql.js";
import { argumentError, optionsArgument } from "../records/arguments.js";
import { previewValue } from "../records/display.js";
import { CastError } from "../errors.js";

/** The Model a condition is for, as its errors name it: its name, and its class for a `CastError`. */
type ConditionModel = { readonly name: string; readonly model: Function };

/** A comparison operator of the comparison helpers; `ignoringCase` is equality apart from ASCII letter case. */
export type ComparisonOperator = ">" | ">=" | "<" | "<=" | "ignoringCase";

/** The operators that order values: every comparison helper but `ignoringCase`. */
export type OrderingOperator = Exclude<ComparisonOperator, "ignoringCase"> | "between";

const HELPER_NAMES = { ">": "gt", ">=": "gte", "<": "lt", "<=": "lte", ignoringCase: "ignoringCase", between: "between" } as const;

/**
 * A condition value made by `gt`, `gte`, `lt`, `lte`, `between` or `ignoringCase`. `T` is the type of the values
 * compared with and `Op` the operator, so that a `where` object accepts only comparisons its attribute can make.
 */
export class Comparison<T = unknown, Op extends ComparisonOperator | "between" = ComparisonOperator | "between"> {
  /** @internal Use the helpers (`gt`, `between`, ...), which check the values. */
  constructor(
    readonly operator: Op,
    readonly values: readonly T[],
    readonly excludeEnd = false,
  ) {}
}

/**
 * A comparison made by a helper. Its values are refused here, not at the where() that uses it, so that the error
 * names the helper; and here rather than in the constructor, so that a Worker using no helper does not carry it.
 */
function comparison<T, Op extends ComparisonOperator | "between">(operator: Op, values: readonly T[], excludeEnd = false): Comparison<T, Op> {
  for (const value of values) if (value === undefined) throw argumentError(HELPER_NAMES[operator], "a value (use null, which matches nothing)", value);
  return new Comparison(operator, values, excludeEnd);
}

/** Matches values greater than `value`. */
export const gt = <const T>(value: T): Comparison<T, ">"> => comparison(">", [value]);
/** Matches values greater than or equal to `value`. */
export const gte = <const T>(value: T): Comparison<T, ">="> => comparison(">=", [value]);
/** Matches values less than `value`. */
export const lt = <const T>(value: T): Comparison<T, "<"> => comparison("<", [value]);
/** Matches values less than or equal to `value`. */
export const lte = <const T>(value: T): Comparison<T, "<="> => comparison("<=", [value]);
/**
 * Matches text equal to `value` apart from the case of ASCII letters (SQLite's NOCASE), on string attributes only.
 * Unlike an `sql` fragment, the value is cast and, for a filtered attribute, shown as `[FILTERED]` in query events.
 */
export const ignoringCase = (value: string): Comparison<string, "ignoringCase"> => comparison("ignoringCase", [value]);
/** Matches values from `low` to `high`, both included unless `excludeEnd: true`; each end may take its own form. */
export const between = <const Low, const High>(low: Low, high: High, options?: { excludeEnd?: boolean }): Comparison<Low | High, "between"> => {
  const { excludeEnd = false } = optionsArgument("between", options, ["excludeEnd"]);
  if (typeof excludeEnd !== "boolean") throw argumentError("between", "excludeEnd as a boolean", excludeEnd);
  return comparison("between", [low, high], excludeEnd);
};

/** One node of a Relation's conditions; values are already cast and in their database form. */
export type Condition =
  | { readonly kind: "equal"; readonly attribute: Attribute; readonly value: unknown }
  | { readonly kind: "null"; readonly attribute: Attribute }
  | { readonly kind: "in"; readonly attribute: Attribute; readonly values: readonly unknown[]; readonly orNull: boolean }
  | { readonly kind: "compare"; readonly attribute: Attribute; readonly operator: ComparisonOperator; readonly value: unknown }
  | { readonly kind: "never" }
  | { readonly kind: "sql"; readonly fragment: SqlFragment }
  | { readonly kind: "not"; readonly conditions: readonly Condition[] }
  | { readonly kind: "or"; readonly branches: ReadonlyArray<readonly Condition[]> };

/** The values a `where` value holds: a list's elements, a comparison's ends, or the value itself. */
export function conditionScalars(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  return value instanceof Comparison ? value.values : [value];
}

/** Casts a condition value to its database form, or returns `UNCASTABLE`. */
export function castConditionValue(attribute: Attribute, value: unknown): unknown {
  const cast = attribute.type.castCondition(value);
  return cast === UNCASTABLE ? UNCASTABLE : attribute.type.toDatabase(cast);
}

/** Casts a condition value as `castConditionValue` does, and refuses one over D1's limit for a bound value. */
function boundConditionValue(model: { readonly name: string; readonly model: Function }, attribute: Attribute, value: unknown): unknown {
  const cast = castConditionValue(attribute, value);
  assertValueWithinD1Limit(model, attribute, cast);
  return cast;
}

function listCondition(model: { readonly name: string; readonly model: Function }, attribute: Attribute, values: readonly unknown[]): Condition {
  const orNull = values.includes(null);
  const cast = values
    .filter((value) => value !== null)
    .map((value) => boundConditionValue(model, attribute, value))
    .filter((value) => value !== UNCASTABLE);
  return { kind: "in", attribute, values: cast, orNull };
}

/**
 * One value of a comparison, cast. Unlike an equality's value, one that cannot be cast is refused: a bound that is
 * not of the attribute's type (`gt("x")` on an integer) is a mistake in the query, not a value no row holds, and
 * matching nothing would hide it. Null is kept: a comparison with NULL matches nothing, as in SQL.
 */
function comparisonValue(model: ConditionModel, attribute: Attribute, comparison: Comparison, value: unknown): unknown {
  if (value === null) return null;
  const cast = boundConditionValue(model, attribute, value);
  if (cast !== UNCASTABLE) return cast;
  const helper = HELPER_NAMES[comparison.operator];
  const message = `${model.name}.${attribute.name}: ${previewValue(attribute, value)} is not a valid ${attribute.typeName} to compare with (${helper})`;
  throw new CastError(message, model.model, attribute.name);
}

function comparisonConditions(model: ConditionModel, attribute: Attribute, comparison: Comparison): Condition[] {
  const cast = comparison.values.map((value) => comparisonValue(model, attribute, comparison, value));
  if (cast.includes(null)) return [{ kind: "never" }];
  if (comparison.operator !== "between") return [{ kind: "compare", attribute, operator: comparison.operator, value: cast[0] }];
  return [
    { kind: "compare", attribute, operator: ">=", value: cast[0] },
    { kind: "compare", attribute, operator: comparison.excludeEnd ? "<" : "<=", value: cast[1] },
  ];
}

/** The conditions one attribute's value in a `where` object of `model` stands for. */
export function conditionsFor(model: ConditionModel, attribute: Attribute, value: unknown): Condition[] {
  if (value === null) return [{ kind: "null", attribute }];
  if (Array.isArray(value)) return [listCondition(model, attribute, value)];
  if (value instanceof Comparison) return comparisonConditions(model, attribute, value);
  const cast = boundConditionValue(model, attribute, value);
  return cast === UNCASTABLE ? [{ kind: "never" }] : [{ kind: "equal", attribute, value: cast }];
}
