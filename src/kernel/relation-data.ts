/** The description of a query, types only: what a Relation holds, and the parts of the SELECT compiled from it. */
import type { Attribute } from "./attributes.js";
import type { Condition } from "./conditions.js";
import type { ParamWriter } from "./param-writer.js";
import type { SqlFragment } from "./sql.js";

/** One term of an ORDER BY. */
export type OrderTerm =
  | { readonly kind: "attribute"; readonly attribute: Attribute; readonly direction: "asc" | "desc"; readonly nulls?: "first" | "last" }
  | { readonly kind: "sql"; readonly fragment: SqlFragment };

/** The immutable description of a query that a Relation holds. */
export interface RelationData {
  readonly conditions: readonly Condition[];
  readonly order: readonly OrderTerm[];
  readonly limit: number | undefined;
  readonly offset: number | undefined;
  readonly select: readonly Attribute[] | undefined;
  readonly distinct: boolean;
  readonly none: boolean;
  readonly includes: readonly string[];
}

/**
 * The first condition of a WHERE when it is a list of primary keys bound as JSON: `term` is its text in `where`, which `joinSelect`
 * sends as a join of `column` on `json_each(list)` instead, while `where` still starts with it (see `joinSelect`).
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
