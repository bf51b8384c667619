import { compileSelect, databaseOfRelation, definePlugin, explainStatement, prepareRelation, type QueryPlanStep, type Relation } from "../kernel/index.js";

/**
 * Query plans: `explain()` on a Relation or Model, SQLite's plan for the query `toArray()` would send (`EXPLAIN QUERY
 * PLAN` with the same values), one step a row: a `SCAN <table>` step reads the whole table, `SEARCH <table> USING
 * INDEX` only what the index finds.
 */
export const queryPlans = definePlugin({
  name: "queryPlans",
  relationMethods: {
    async explain(this: Relation): Promise<QueryPlanStep[]> {
      // The plan of the query a load sends: its conditions as `relation:prepare` leaves them.
      const pending = prepareRelation(this, "load");
      const relation = pending instanceof Promise ? await pending : pending;
      return await relation.run(explainStatement(compileSelect(relation.description, relation.model), relation.model, databaseOfRelation(relation)));
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** SQLite's plan for this query (`EXPLAIN QUERY PLAN`): look for `SCAN <table>`, a read of every row. */
    explain(): Promise<QueryPlanStep[]>;
  }
  interface PluginStatics<A> {
    /** SQLite's plan for `all()`'s query (`EXPLAIN QUERY PLAN`): look for `SCAN <table>`, a read of every row. */
    explain(): Promise<QueryPlanStep[]>;
  }
}
