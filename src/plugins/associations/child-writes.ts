import { databaseOfRelation, dependentsWritePlan, prepareRelation, type Relation, relationTarget, setWriteStatement, type Statement } from "../../kernel/index.js";

/**
 * A set-based write of one owner's children or join rows (a `dependent` `deleteAll`'s DELETE, `nullify`'s UPDATE, a
 * replaced `hasOne` child, the join rows `remove` deletes), planned as the dependents' writes of a set-based tree are
 * (`deleteDependents`, `nullify`), so that plugins treat every such write alike: a soft delete stamps the rows,
 * counter caches take them off their parents in the same batch. Never a bulk `deleteAll` or `updateAll`, which
 * skip counters, as in Rails. The rows are prepared (`relation:prepare`) as those of `updateAll` and `deleteAll` are.
 * `method` names the method asking (`WritePlan.method`: `Post#destroy`, `Post.comments.remove`).
 */
export async function writeChildren(rows: Relation, operation: "deleteDependents" | "nullify", values?: ReadonlyMap<string, unknown>, method?: string): Promise<Statement<number>> {
  const purpose = operation === "nullify" ? "updateAll" : "deleteAll";
  const plan = await dependentsWritePlan(rows.model, operation, values, method);
  const prepared = await prepareRelation(rows, purpose);
  return setWriteStatement(plan, relationTarget(prepared, purpose), databaseOfRelation(prepared));
}
