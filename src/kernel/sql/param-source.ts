import type { Attribute } from "../records/attributes.js";

/**
 * Where a bound value came from, so that query events can hide filtered values:
 * one attribute's value, a JSON list of one attribute's values, JSON rows, each an array holding the value of
 * `columns[i]` at position i (no column name ever goes into a JSON path), or a JSON array of values bound past the
 * plain parameters (each with its own source).
 */
export type ParamSource =
  | { readonly kind: "value"; readonly attribute: Attribute }
  | { readonly kind: "spilled"; readonly values: readonly unknown[]; readonly sources: ReadonlyArray<ParamSource | undefined> }
  | { readonly kind: "list"; readonly attribute: Attribute }
  | { readonly kind: "rows"; readonly columns: readonly Attribute[] };
