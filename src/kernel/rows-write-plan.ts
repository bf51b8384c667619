import { compileFragment } from "./compiler.js";
import { previewText } from "./display.js";
import type { ResolvedModel, RowsWriteOperation, RowsWritePlan } from "./hooks.js";
import type { ParamWriter } from "./param-writer.js";
import { SqlFragment } from "./sql.js";

const NO_VALUES: ReadonlyMap<string, unknown> = new Map();

/**
 * Plans a write of many rows at once (`updateAll`, `deleteAll`, `upsertAll`, and the set-based writes of dependents
 * built on them): the `rows:planWrite` hooks see what it sets and may add conditions the rows it changes must meet,
 * or throw to refuse it before anything is sent. Plugin API, for a plugin that writes rows without records.
 */
export function planRowsWrite(model: ResolvedModel, operation: RowsWriteOperation, values: ReadonlyMap<string, unknown> = NO_VALUES): RowsWritePlan {
  const plan: RowsWritePlan = { model, operation, values, where: [] };
  if (model.hooks.has("rows:planWrite")) model.hooks.callSync("rows:planWrite", plan);
  return plan;
}

/** Refuses with `TypeError` naming the Model a write's `where` term that is not an `sql` fragment. */
export function assertWhereTerms(model: { readonly name: string }, where: readonly unknown[]): void {
  for (const term of where) {
    if (!(term instanceof SqlFragment)) throw new TypeError(`${model.name}: a write's where terms are sql fragments, not ${previewText(term)}`);
  }
}

/** The `where` terms of a rows write, each compiled with `params` (bound in the order of the text) in parentheses. */
export function rowsWhereTerms(plan: RowsWritePlan, params: ParamWriter): string[] {
  assertWhereTerms(plan.model, plan.where);
  return plan.where.map((term) => `(${compileFragment(term, plan.model, params)})`);
}

/**
 * A WHERE with the `where` terms of a rows write ANDed to it, compiled after the WHERE's own values:
 * `(<where>) AND (<term>)`; the WHERE alone when no hook added a term.
 */
export function withRowsWhere(where: string, plan: RowsWritePlan, params: ParamWriter): string {
  return plan.where.length === 0 ? where : [`(${where})`, ...rowsWhereTerms(plan, params)].join(" AND ");
}
