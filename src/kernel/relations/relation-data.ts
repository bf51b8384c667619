/** The description of a query, types only: what a Relation holds, and the parts of the SELECT compiled from it. */
import type { Attribute } from "../records/attributes.js";
import type { Condition } from "../sql/conditions.js";
import type { ParamWriter } from "../sql/param-writer.js";
import type { SqlFragment } from "../sql/sql.js";

/**
 * One term of an ORDER BY. An `sql` term may carry `reversed`, the same order read from the other end (a plugin that
 * writes the direction into its fragment gives it, as `orderByCount` does): `last()` reverses the term to it.
 */
export type OrderTerm =
  | { readonly kind: "attribute"; readonly attribute: Attribute; readonly direction: "asc" | "desc"; readonly nulls?: "first" | "last" }
  | { readonly kind: "sql"; readonly fragment: SqlFragment; readonly reversed?: SqlFragment };

/**
 * The description of a query that a Relation holds: what `with` takes (each entry checked), what the compiler reads
 * (`selectParts`, `compileSelect`), and what plugins read through `relation.description` and the compile hooks'
 * `data`, frozen there: a Relation changes only through its methods and `with`, which return a new one.
 */
export interface RelationData {
  /** The conditions, ANDed (`where`, `whereNot`, ...); empty when it narrows nothing. */
  readonly conditions: readonly Condition[];
  /** The ORDER BY terms, in order; empty when unordered. */
  readonly order: readonly OrderTerm[];
  /** At most this many rows (`limit`), or undefined for all. */
  readonly limit: number | undefined;
  /** Rows skipped (`offset`), or undefined for none. */
  readonly offset: number | undefined;
  /** The attributes `select` loads (the primary key is added unless `distinct`), or undefined for all of them. */
  readonly select: readonly Attribute[] | undefined;
  /** Whether duplicate rows are removed (`distinct`). */
  readonly distinct: boolean;
  /** Whether it matches nothing, without querying (`none`). */
  readonly none: boolean;
  /** The `includes` paths, nested names joined with dots (`posts.comments`). */
  readonly includes: readonly string[];
  /**
   * Computed columns a plugin adds to the SELECT of the records (`withCount`'s correlated counts), after the
   * Model's own: each `(<fragment>) AS "<name>"`, read back from the record with `computedValueOf`. Empty for none.
   */
  readonly columns: readonly ComputedColumn[];
  /**
   * Entries plugins own, by a name of the plugin's choosing (`softDelete`, `tenant`, ...): the kernel never reads
   * them, and they survive every narrowing (`where`, scopes, `with`); `merge` takes the other Relation's entries over
   * this one's, and `or` requires both Relations to hold the same entries named by a string. An entry named by a
   * Symbol says nothing of the rows (the association a Relation was narrowed from), so `or` does not compare it and
   * keeps the receiver's. Read with `relation.extension(name)`, set with `relation.withExtension(name, value)`.
   */
  readonly extensions: Readonly<Record<string | symbol, unknown>>;
}

/**
 * A column a plugin computes in a Relation's SELECT (see `RelationData.columns`): `name` is one of recordflare's
 * reserved names (`reservedName(...)`), so that it never hides a column of the table; `fragment` is its SQL.
 */
export interface ComputedColumn {
  readonly name: string;
  readonly fragment: SqlFragment;
}

/**
 * What a compiled SELECT is for, told to the `relation:*` compile hooks: a plugin may narrow loads but leave a
 * `reload` alone (a soft-deleted record can still be reloaded), or skip its ordering for a `count`.
 * - `load`: records or rows of the Relation (`toArray`, `first`, `find`, `findBy`, `toSql`, `explain`, a page)
 * - `reload`: `record.reload()`
 * - `count`, `exists`: `count()`, `exists()` and the checks built on them (uniqueness, a page's total)
 * - `pluck`: `pluck(...)`
 * - `calculate`: `sum`, `average`, `minimum`, `maximum`, whose attribute is the description's `select`
 * - `preload`: the rows of an association loaded for `includes`, or reached for the dependents of a destroy
 * - `updateAll`, `deleteAll`: the rows a set-based write targets
 */
export type QueryPurpose = "load" | "reload" | "count" | "exists" | "pluck" | "calculate" | "preload" | "updateAll" | "deleteAll";

/**
 * The first condition of a WHERE that is a list of primary keys bound as JSON: `term` is its text in `where`, which
 * `joinSelect` sends as a join of `column` on `json_each(list)` instead, while `where` still holds it (see `joinSelect`).
 */
export interface ListJoin {
  readonly term: string;
  readonly column: string;
  readonly list: string;
}

/** The parts of a SELECT while it is compiled; the `relation:*` hooks may change them. */
export interface SelectParts {
  distinct: boolean;
  columns: string;
  readonly from: string;
  readonly where: string[];
  readonly order: string[];
  limit: number | undefined;
  offset: number | undefined;
  readonly params: ParamWriter;
  /** The list condition that `joinSelect` may send as a join (a hook may clear it); undefined when there is none. */
  listJoin?: ListJoin | undefined;
}

/** The description of a Relation that narrows nothing: a Model's `all()`. */
export const EMPTY_RELATION: RelationData = {
  conditions: [],
  order: [],
  limit: undefined,
  offset: undefined,
  select: undefined,
  distinct: false,
  none: false,
  includes: [],
  columns: [],
  extensions: {},
};
