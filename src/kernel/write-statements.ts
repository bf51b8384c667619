import type { Attribute } from "./attributes.js";
import { quoteIdentifier } from "./naming.js";
import type { ResolvedModel } from "./resolve.js";
import { currentValue, type RecordState, storedValue } from "./record-state.js";
import { type ParamSource, Statement } from "./statement.js";

const sqlByShape = new WeakMap<ResolvedModel, Map<string, string>>();

/** SQL text built once per Model and shape (the attributes written): saves are the hot path of writes. */
function cachedSql(model: ResolvedModel, shape: string, build: () => string): string {
  let byShape = sqlByShape.get(model);
  if (!byShape) sqlByShape.set(model, (byShape = new Map()));
  let sql = byShape.get(shape);
  if (sql === undefined) byShape.set(shape, (sql = build()));
  return sql;
}

/** The written values in their stored form, with where each came from (for filtered query events). */
function boundValues(model: ResolvedModel, values: ReadonlyMap<string, unknown>) {
  const attributes: Attribute[] = [];
  const params: unknown[] = [];
  const sources: ParamSource[] = [];
  for (const [name, value] of values) {
    const attribute = model.byName.get(name)!;
    attributes.push(attribute);
    params.push(storedValue(attribute, value));
    sources.push({ kind: "value", attribute });
  }
  return { attributes, params, sources, shape: [...values.keys()].join(",") };
}

/** The key of a persisted record as last saved, bound for a WHERE. */
function boundKey(model: ResolvedModel, state: RecordState, params: unknown[], sources: ParamSource[]): string {
  const key = model.primaryKey;
  params.push(state.row[key.column] ?? storedValue(key, currentValue(state, key)));
  sources.push({ kind: "value", attribute: key });
  return `${quoteIdentifier(key.column)} = ?`;
}

/** The INSERT for a new record; `RETURNING` brings back what the database stored, in the same round trip. */
export function insertStatement(model: ResolvedModel, values: ReadonlyMap<string, unknown>): Statement<Record<string, unknown>> {
  const { attributes, params, sources, shape } = boundValues(model, values);
  const sql = cachedSql(model, `insert:${shape}`, () => {
    const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
    const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    return `INSERT INTO ${model.quotedTable} ${body} RETURNING ${model.selectList}`;
  });
  return new Statement({ sql, params, sources }, model, "rows", (rows) => rows[0]!);
}

/** The UPDATE of a persisted record's changed attributes, keyed by the primary key as last saved. */
export function updateStatement(model: ResolvedModel, state: RecordState, values: ReadonlyMap<string, unknown>): Statement<unknown> {
  const { attributes, params, sources, shape } = boundValues(model, values);
  const where = boundKey(model, state, params, sources);
  const sql = cachedSql(model, `update:${shape}`, () => {
    const assignments = attributes.map((attribute) => `${quoteIdentifier(attribute.column)} = ?`);
    return `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${where}`;
  });
  return new Statement({ sql, params, sources }, model, "meta", (_rows, meta) => meta);
}

/** The DELETE of a persisted record's row. */
export function deleteStatement(model: ResolvedModel, state: RecordState): Statement<unknown> {
  const params: unknown[] = [];
  const sources: ParamSource[] = [];
  const sql = `DELETE FROM ${model.quotedTable} WHERE ${boundKey(model, state, params, sources)}`;
  return new Statement({ sql, params, sources }, model, "meta", (_rows, meta) => meta);
}
