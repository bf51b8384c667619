import { compileSelect, databaseOfModel, definePlugin, explainStatement, type QueryPlanStep, type Relation } from "../kernel/index.js";

/**
 * Query plans: `explain()` on a Relation or Model, SQLite's plan for the query `toArray()` would send (`EXPLAIN QUERY
 * PLAN` with the same values), one step a row: a `SCAN <table>` step reads the whole table, `SEARCH <table> USING
 * INDEX` only what the index finds.
 */
export const queryPlans = definePlugin({
  name: "queryPlans",
  relationMethods: {
    async explain(this: Relation): Promise<QueryPlanStep[]> {
      return this.run(explainStatement(compileSelect(this.data, this.model), this.model, databaseOfModel(this.modelClass)));
    },
  },
});
