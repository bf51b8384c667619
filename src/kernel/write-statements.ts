import type { Attribute } from "./attributes.js";
import { assertValueWithinD1Limit } from "./bound-json.js";
import { quoteIdentifier } from "./naming.js";
import { PLAIN_PARAMETERS, ParamWriter } from "./param-writer.js";
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

/**
 * An attribute's value in its stored form, refused with `TypeError` when it is over D1's limit for one value. Plugin
 * API, for a plugin that writes values without a record (bulk writes).
 */
export function storedWithinD1Limit(model: { readonly name: string }, attribute: Attribute, value: unknown): unknown {
  const stored = storedValue(attribute, value);
  assertValueWithinD1Limit(model, attribute, stored);
  return stored;
}

/** The written values in their stored form, in the order of `attributes`; one over D1's limit is refused. */
function storedValues(model: ResolvedModel, attributes: readonly Attribute[], values: ReadonlyMap<string, unknown>): unknown[] {
  return attributes.map((attribute) => storedWithinD1Limit(model, attribute, values.get(attribute.name)));
}

/**
 * The SQL and bound values of a write whose text `build` makes from one placeholder per value. Up to the plain
 * parameters the text is built once per shape; a write of more values (an UPDATE of a 100-column table and its
 * key) binds them through a ParamWriter, so that it never passes D1's 100 bound parameters.
 */
function writeQuery(
  model: ResolvedModel,
  key: string,
  attributes: readonly Attribute[],
  params: unknown[],
  build: (placeholders: readonly string[]) => string,
): { sql: string; params: readonly unknown[]; sources: readonly (ParamSource | undefined)[] } {
  if (params.length <= PLAIN_PARAMETERS) {
    const { sql, sources } = cachedShape(model, key, () => ({ sql: build(params.map(() => "?")), sources: valueSources(attributes) }));
    return { sql, params, sources };
  }
  const writer = new ParamWriter();
  const placeholders = params.map((value, index) => writer.bind(value, { kind: "value", attribute: attributes[index]! }));
  return { sql: build(placeholders), params: writer.params, sources: writer.sources };
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
  const query = writeQuery(model, shapeKey("insert", attributes), attributes, storedValues(model, attributes, values), (placeholders) => {
    const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
    const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${placeholders.join(", ")})`;
    return `INSERT INTO ${model.quotedTable} ${body} RETURNING ${model.selectList}`;
  });
  return new Statement(query, model, "rows", storedRow);
}

/** The UPDATE of a persisted record's changed `attributes`, keyed by the primary key as last saved. */
export function updateStatement(
  model: ResolvedModel,
  state: RecordState,
  attributes: readonly Attribute[],
  values: ReadonlyMap<string, unknown>,
): Statement<unknown> {
  const params = storedValues(model, attributes, values);
  params.push(storedKey(model, state));
  const query = writeQuery(model, shapeKey("update", attributes), [...attributes, model.primaryKey], params, (placeholders) => {
    const assignments = attributes.map((attribute, index) => `${quoteIdentifier(attribute.column)} = ${placeholders[index]}`);
    return `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${placeholders.at(-1)}`;
  });
  return new Statement(query, model, "meta", metaOf);
}

/** The DELETE of a persisted record's row. */
export function deleteStatement(model: ResolvedModel, state: RecordState): Statement<unknown> {
  const sql = `DELETE FROM ${model.quotedTable} WHERE ${keyCondition(model)}`;
  return new Statement({ sql, params: [storedKey(model, state)], sources: valueSources([model.primaryKey]) }, model, "meta", metaOf);
}
