import type { Attribute } from "./attributes.js";
import { ParamWriter } from "./compiler.js";
import { quoteIdentifier } from "./naming.js";
import type { ResolvedModel } from "./resolve.js";
import { currentValue, type RecordState, storedValue } from "./record-state.js";
import { Statement } from "./statement.js";

function bindValue(params: ParamWriter, attribute: Attribute, value: unknown): string {
  return params.bind(storedValue(attribute, value), { kind: "value", attribute });
}

function returning(model: ResolvedModel): string {
  return ` RETURNING ${model.selectList}`;
}

/** The INSERT for a new record; `RETURNING` brings back what the database stored, in the same round trip. */
export function insertStatement(model: ResolvedModel, values: ReadonlyMap<string, unknown>): Statement<Record<string, unknown>> {
  const params = new ParamWriter();
  const columns: string[] = [];
  const placeholders: string[] = [];
  for (const [name, value] of values) {
    const attribute = model.byName.get(name)!;
    columns.push(quoteIdentifier(attribute.column));
    placeholders.push(bindValue(params, attribute, value));
  }
  const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${placeholders.join(", ")})`;
  const sql = `INSERT INTO ${model.quotedTable} ${body}${returning(model)}`;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "rows", (rows) => rows[0]!);
}

function whereKey(model: ResolvedModel, state: RecordState, params: ParamWriter): string {
  const key = model.primaryKey;
  return `${quoteIdentifier(key.column)} = ${params.bind(state.row[key.column] ?? storedValue(key, currentValue(state, key)), { kind: "value", attribute: key })}`;
}

/** The UPDATE of a persisted record's changed attributes, keyed by the primary key as last saved. */
export function updateStatement(model: ResolvedModel, state: RecordState, values: ReadonlyMap<string, unknown>): Statement<unknown> {
  const params = new ParamWriter();
  const assignments = [...values].map(([name, value]) => {
    const attribute = model.byName.get(name)!;
    return `${quoteIdentifier(attribute.column)} = ${bindValue(params, attribute, value)}`;
  });
  const sql = `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${whereKey(model, state, params)}`;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => meta);
}

/** The DELETE of a persisted record's row. */
export function deleteStatement(model: ResolvedModel, state: RecordState): Statement<unknown> {
  const params = new ParamWriter();
  const sql = `DELETE FROM ${model.quotedTable} WHERE ${whereKey(model, state, params)}`;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => meta);
}
