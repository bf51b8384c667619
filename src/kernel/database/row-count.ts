import { queryOfParts, selectParts } from "../sql/compiler.js";
import { databaseOfModel } from "../records/introspection.js";
import type { Relation } from "../relations/relation.js";
import { prepareRelation } from "../relations/relation-prepare.js";
import { injectedName, reservedName } from "../sql/reserved-names.js";
import { Statement } from "../sql/statement.js";

/** The counted rows' column, and the constant an existence check selects: names of recordflare's own. */
const COUNT_COLUMN = reservedName("count");
const COUNT = `COUNT(*) AS ${injectedName("count")}`;
const ONE = `1 AS ${injectedName("one")}`;

/**
 * The COUNT Statement of a Relation; agrees with `toArray()` even with limit, offset and distinct. Plugin API: a
 * plugin that sends a count in a batch (pagination) uses it, whether or not the `calculations` plugin is registered.
 */
export function countStatement(relation: Relation): Statement<number> {
  const { data, model } = relation;
  let query;
  if (data.limit !== undefined || data.offset !== undefined || data.distinct) {
    const inner = queryOfParts(selectParts(data.distinct ? data : { ...data, select: [model.primaryKey] }, model, undefined, "count"));
    query = { ...inner, sql: `SELECT ${COUNT} FROM (${inner.sql})` };
  } else {
    const parts = selectParts({ ...data, order: [] }, model, undefined, "count");
    parts.columns = COUNT;
    query = queryOfParts(parts);
  }
  return new Statement(query, model, "rows", (rows) => Number(rows[0]?.[COUNT_COLUMN] ?? 0), databaseOfModel(relation.modelClass));
}

/** The number of rows a Relation matches (none without a query for `none()`). Plugin API, as `countStatement`. */
export async function countOf(relation: Relation): Promise<number> {
  if (relation.data.none) return 0;
  const pending = prepareRelation(relation, "count");
  const prepared = pending instanceof Promise ? await pending : pending;
  return await prepared.run(countStatement(prepared));
}

/**
 * Whether a Relation matches any row; reads one row at most, and none past the Relation's own `limit(0)`. Plugin
 * API: the uniqueness validator and associations ask it, whether or not the `calculations` plugin is registered.
 */
export async function anyMatch(given: Relation): Promise<boolean> {
  if (given.data.none) return false;
  const pending = prepareRelation(given, "exists");
  const relation = pending instanceof Promise ? await pending : pending;
  const { data, model } = relation;
  // The offset of a distinct Relation skips distinct rows: `SELECT DISTINCT 1` would leave one row to skip, so its
  // columns stay (as Rails' exists? keeps them for distinct with an offset).
  const keepColumns = data.distinct && data.offset !== undefined;
  const limit = Math.min(data.limit ?? 1, 1);
  const parts = selectParts({ ...data, ...(keepColumns ? {} : { select: undefined }), order: [], limit }, model, undefined, "exists");
  if (!keepColumns) parts.columns = ONE;
  return await relation.run(new Statement(queryOfParts(parts), model, "rows", (rows) => rows.length > 0));
}
