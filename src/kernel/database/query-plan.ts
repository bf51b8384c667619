import type { Database } from "./database.js";
import type { ResolvedModel } from "../records/resolve.js";
import { type ParamSource, Statement } from "../sql/statement.js";

/**
 * One row of SQLite's `EXPLAIN QUERY PLAN`: `detail` says how a table is read (`SCAN posts` reads every row,
 * `SEARCH posts USING INDEX ...` only the rows an index finds); `parent` is the `id` of the step it belongs to (0 at
 * the top), so the rows form a tree.
 */
export interface QueryPlanStep {
  readonly id: number;
  readonly parent: number;
  readonly detail: string;
}

/** The Statement that asks SQLite how it would run a query: `EXPLAIN QUERY PLAN` with the same bound values. */
export function explainStatement(
  query: { sql: string; params: readonly unknown[]; sources: ReadonlyArray<ParamSource | undefined> },
  model: ResolvedModel,
  database: Database | undefined,
): Statement<QueryPlanStep[]> {
  const read = (rows: Record<string, unknown>[]) =>
    rows.map((row): QueryPlanStep => ({ id: Number(row["id"]), parent: Number(row["parent"]), detail: String(row["detail"]) }));
  return new Statement({ ...query, sql: `EXPLAIN QUERY PLAN ${query.sql}` }, model, "rows", read, database);
}
