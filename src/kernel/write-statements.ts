import type { Attribute } from "./attributes.js";
import { quoteIdentifier } from "./naming.js";
import type { ResolvedModel } from "./resolve.js";
import { currentValue, type RecordState, storedValue } from "./record-state.js";
import { type ParamSource, Statement } from "./statement.js";

/** What a write of one shape (the attributes written) always sends: its SQL and where each value comes from. */
interface WriteShape {
  readonly sql: string;
  readonly sources: readonly ParamSource[];
}

const shapesByModel = new WeakMap<ResolvedModel, Map<string, WriteShape>>();

/** Built once per Model and shape: saves are the hot path of writes. */
function cachedShape(model: ResolvedModel, key: string, build: () => WriteShape): WriteShape {
  let shapes = shapesByModel.get(model);
  if (!shapes) shapesByModel.set(model, (shapes = new Map()));
  let shape = shapes.get(key);
  if (shape === undefined) shapes.set(key, (shape = build()));
  return shape;
}

function shapeKey(operation: string, attributes: readonly Attribute[]): string {
  let key = operation;
  for (const attribute of attributes) key += `,${attribute.name}`;
  return key;
}

function valueSources(attributes: readonly Attribute[]): ParamSource[] {
  return attributes.map((attribute) => ({ kind: "value", attribute }));
}

/** The written values in their stored form, in the order of `attributes`. */
function storedValues(attributes: readonly Attribute[], values: ReadonlyMap<string, unknown>): unknown[] {
  return attributes.map((attribute) => storedValue(attribute, values.get(attribute.name)));
}

/** The key of a persisted record as last saved, bound for a WHERE. */
function storedKey(model: ResolvedModel, state: RecordState): unknown {
  const key = model.primaryKey;
  return state.row[key.column] ?? storedValue(key, currentValue(state, key));
}

const keyCondition = (model: ResolvedModel) => `${quoteIdentifier(model.primaryKey.column)} = ?`;

const storedRow = (rows: Record<string, unknown>[]) => rows[0]!;
const metaOf = (_rows: unknown, meta: Record<string, unknown>) => meta;

/**
 * The INSERT for a new record of `attributes` (in declaration order) with their `values`; `RETURNING` brings
 * back what the database stored, in the same round trip.
 */
export function insertStatement(
  model: ResolvedModel,
  attributes: readonly Attribute[],
  values: ReadonlyMap<string, unknown>,
): Statement<Record<string, unknown>> {
  const { sql, sources } = cachedShape(model, shapeKey("insert", attributes), () => {
    const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
    const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    return { sql: `INSERT INTO ${model.quotedTable} ${body} RETURNING ${model.selectList}`, sources: valueSources(attributes) };
  });
  return new Statement({ sql, params: storedValues(attributes, values), sources }, model, "rows", storedRow);
}

/** The UPDATE of a persisted record's changed `attributes`, keyed by the primary key as last saved. */
export function updateStatement(
  model: ResolvedModel,
  state: RecordState,
  attributes: readonly Attribute[],
  values: ReadonlyMap<string, unknown>,
): Statement<unknown> {
  const { sql, sources } = cachedShape(model, shapeKey("update", attributes), () => {
    const assignments = attributes.map((attribute) => `${quoteIdentifier(attribute.column)} = ?`);
    return {
      sql: `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${keyCondition(model)}`,
      sources: valueSources([...attributes, model.primaryKey]),
    };
  });
  const params = storedValues(attributes, values);
  params.push(storedKey(model, state));
  return new Statement({ sql, params, sources }, model, "meta", metaOf);
}

/** The DELETE of a persisted record's row. */
export function deleteStatement(model: ResolvedModel, state: RecordState): Statement<unknown> {
  const sql = `DELETE FROM ${model.quotedTable} WHERE ${keyCondition(model)}`;
  return new Statement({ sql, params: [storedKey(model, state)], sources: valueSources([model.primaryKey]) }, model, "meta", metaOf);
}
