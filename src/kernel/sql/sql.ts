import { argumentError, refusedValueError, unfitValue } from "../records/arguments.js";
import { previewText } from "../records/display.js";
import { isBlob } from "./blob-values.js";
import type { ParamWriter } from "./param-writer.js";

/** A reference to an attribute's column inside an `sql` fragment, made by `column()`. */
export class ColumnReference {
  /** @internal Use `column()`, which checks the name. */
  constructor(readonly attribute: string) {}
}

/**
 * A SELECT spliced into an `sql` fragment as `(SELECT ...)`, compiled when the fragment is (at each query, so the
 * `relation:*` hooks of its Model narrow it then), binding its values among the statement's: made by `subquery()`.
 */
export class Subquery {
  /** @internal Use `subquery()`. */
  constructor(readonly compile: (params: ParamWriter) => string) {}
}

/**
 * Makes a subquery for an `sql` fragment from a function that compiles a SELECT into the statement's values (the
 * plugin API's `selectParts` and `joinSelect`): `sql\`${column("id")} IN ${subquery(compile)}\``.
 */
export function subquery(compile: (params: ParamWriter) => string): Subquery {
  if (typeof compile !== "function") throw argumentError("subquery", "a function that compiles a SELECT", compile);
  return new Subquery(compile);
}

/**
 * Why D1 cannot bind a value interpolated in a fragment, or undefined. Refused when the fragment is made, so that
 * the mistake shows where it is written, not at a later query: D1 would fail on undefined, an object or a BigInt
 * beyond SQLite's integers, match nothing with a list, and store NULL for NaN, Infinity and an Invalid Date.
 */
function unbindable(value: unknown): string | undefined {
  if (value === undefined) return "a value in an sql fragment is undefined; use null for NULL";
  if (Array.isArray(value)) return "a list cannot be bound in an sql fragment; use where({ <attribute>: list }) (see the guide)";
  // A BigInt beyond SQLite's 64-bit integers changes when wrapped to 64 bits.
  if (typeof value === "bigint") return BigInt.asIntN(64, value) !== value ? `${value}n is beyond SQLite's 64-bit integers` : undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${value} would be stored as NULL`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "an Invalid Date cannot be bound" : undefined;
  if (typeof value === "object" && value !== null && !isBlob(value)) {
    return `${previewText(value)} cannot be bound; an sql fragment takes null, numbers, BigInts, text, booleans, Dates and bytes`;
  }
  return undefined;
}

/** A piece of SQL made with the `sql` tagged template; every interpolated value is bound, never spliced. */
export class SqlFragment {
  // The checks are sql`...`'s, the only maker of fragments: a Worker that never writes one does not carry them.
  /** @internal Use sql`...`, which checks the values. */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** Prints the fragment with `?` for its bound values. */
  toString(): string {
    return this.strings.join("?");
  }
}

/**
 * Makes an SQL fragment for `where` and `order`. Interpolated values are bound as parameters;
 * `column('<attribute>')` and nested fragments are spliced as SQL. A value D1 cannot bind throws here: `CastError`
 * for one a request can send (`undefined`, a list, a plain object, text that is not well-formed), else `TypeError`.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  // Called as a function, sql(text) would splice the text unbound: the injection that where() refuses a string for.
  if (!Array.isArray(strings) || !Array.isArray(strings.raw) || strings.length !== values.length + 1) {
    throw new TypeError("sql is a tagged template: write sql`...`, whose values are bound, not sql(text)");
  }
  for (const value of values) {
    // unfitValue first: a revoked Proxy fails even instanceof.
    const problem = unfitValue(value) ?? (value instanceof ColumnReference || value instanceof SqlFragment || value instanceof Subquery ? undefined : unbindable(value));
    // An sql fragment has no Model: a request's value refused here is a CastError of no attribute.
    if (problem !== undefined) throw refusedValueError(`sql: ${problem}`, value, { model: undefined, attribute: undefined });
  }
  return new SqlFragment([...strings], values);
}

/** Names an attribute's column inside an `sql` fragment: `sql\`${column('createdAt')} > ${date}\``. */
export function column(attribute: string): ColumnReference {
  if (typeof attribute !== "string") throw argumentError("column", "an attribute name", attribute);
  return new ColumnReference(attribute);
}
