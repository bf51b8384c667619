import type { Attribute } from "../records/attributes.js";
import { assertValueWithinD1Limit } from "../sql/bound-json.js";
import { compileFragment } from "../sql/compiler.js";
import { previewText } from "../records/display.js";
import { quoteIdentifier } from "../sql/naming.js";
import { PLAIN_PARAMETERS, ParamWriter } from "../sql/param-writer.js";
import type { ResolvedModel } from "../records/resolve.js";
import { currentValue, type RecordState, storedValue } from "../records/record-state.js";
import { SqlFragment } from "../sql/sql.js";
import { type ParamSource, Statement } from "../sql/statement.js";
import type { SaveOperation, WritePlan } from "../plugin-api/hooks.js";
import { shapeNode, type WriteShape } from "./write-shapes.js";

/**
 * Refuses with `TypeError` naming the Model a plan's `where` term that is not an `sql` fragment, and any `where`
 * term on an INSERT.
 */
export function assertWhereTerms({ model, kind, where }: WritePlan): void {
  for (const term of where) {
    if (!(term instanceof SqlFragment)) throw new TypeError(`${model.name}: a write's where terms are sql fragments, not ${previewText(term)}`);
  }
  if (kind === "insert" && where.length > 0) throw new TypeError(`${model.name}: an INSERT has no WHERE; a write:plan hook added conditions to it`);
}

/**
 * An attribute's value in its stored form, refused with `CastError` when it is over D1's limit for one value. Plugin
 * API, for a plugin that writes values without a record (bulk writes).
 */
export function storedWithinD1Limit(model: { readonly name: string; readonly model: Function }, attribute: Attribute, value: unknown): unknown {
  const stored = storedValue(attribute, value);
  assertValueWithinD1Limit(model, attribute, stored);
  return stored;
}

/** The values of a plan in their stored form, in the order of `attributes`; one over D1's limit is refused. */
export function storedValues(model: ResolvedModel, attributes: readonly Attribute[], values: ReadonlyMap<string, unknown>): unknown[] {
  const stored: unknown[] = [];
  for (const attribute of attributes) stored.push(storedWithinD1Limit(model, attribute, values.get(attribute.name)));
  return stored;
}

/** A record's current values of `attributes` in their stored form, as `storedValues` gives a plan's. */
function storedRecordValues(state: RecordState, attributes: readonly Attribute[]): unknown[] {
  const stored: unknown[] = [];
  for (const attribute of attributes) stored.push(storedWithinD1Limit(state.model, attribute, currentValue(state, attribute)));
  return stored;
}

/** What a write sends: its SQL, bound values and their sources, and the rows it must change. */
interface WriteQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly sources: readonly (ParamSource | undefined)[];
  readonly expectedChanges: number | undefined;
}

/** The SQL text of a write of `attributes` (in order), given the placeholder of each value. */
type WriteText = (model: ResolvedModel, attributes: readonly Attribute[], placeholders: readonly string[]) => string;

/**
 * The SQL and bound values of a write whose text `text` makes from the placeholder of each value, followed by the
 * `where` terms of its plan, if any. Values are bound through a ParamWriter, so that the write never passes D1's 100
 * bound parameters (an UPDATE of a 100-column table and its key).
 */
function compileWriteQuery(model: ResolvedModel, attributes: readonly Attribute[], params: readonly unknown[], text: WriteText, plan: WritePlan | undefined): WriteQuery {
  const writer = new ParamWriter();
  const placeholders = params.map((value, index) => writer.bind(value, { kind: "value", attribute: attributes[index]! }));
  let sql = text(model, attributes, placeholders);
  for (const term of plan?.where ?? []) sql += ` AND (${compileFragment(term, model, writer)})`;
  return { sql, params: writer.params, sources: writer.sources, expectedChanges: plan?.expectedChanges };
}

/**
 * The SQL and bound values of a write (see `compileWriteQuery`). Up to the plain parameters, with no term of a
 * plugin's, the text and sources depend only on the shape (`kind` and `attributes`), so they are compiled once per
 * shape: saves are the hot path of writes.
 */
function writeQuery(model: ResolvedModel, kind: string, attributes: readonly Attribute[], params: unknown[], text: WriteText, plan: WritePlan | undefined): WriteQuery {
  if (params.length > PLAIN_PARAMETERS || (plan !== undefined && plan.where.length > 0)) return compileWriteQuery(model, attributes, params, text, plan);
  const node = shapeNode(model, kind, attributes);
  // Only the text and sources are kept: the first write's values must not live on in the cache.
  const shape = (node.shape ??= shapeOf(compileWriteQuery(model, attributes, params, text, undefined)));
  return { sql: shape.sql, params, sources: shape.sources, expectedChanges: plan?.expectedChanges };
}

const shapeOf = ({ sql, sources }: WriteQuery): WriteShape => ({ sql, sources });

/** The key of a persisted record as last saved, bound for a WHERE. */
export function storedKey(model: ResolvedModel, state: RecordState): unknown {
  const key = model.primaryKey;
  return state.row[key.column] ?? storedValue(key, currentValue(state, key));
}

const storedRow = (rows: Record<string, unknown>[]) => rows[0]!;
const metaOf = (_rows: unknown, meta: Record<string, unknown>) => meta;

const insertText: WriteText = (model, attributes, placeholders) => {
  const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
  const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${placeholders.join(", ")})`;
  return `INSERT INTO ${model.quotedTable} ${body} RETURNING ${model.selectList}`;
};

/** The text of an UPDATE of every attribute but the last, which is the primary key its WHERE binds. */
const updateText: WriteText = (model, attributes, placeholders) => {
  const assignments = attributes.slice(0, -1).map((attribute, index) => `${quoteIdentifier(attribute.column)} = ${placeholders[index]}`);
  return `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${placeholders.at(-1)}`;
};

const deleteText: WriteText = (model, _attributes, [key]) => `DELETE FROM ${model.quotedTable} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${key}`;

/** The INSERT of a new record's `attributes` (in declaration order); `RETURNING` brings back what was stored. */
export function insertStatement(model: ResolvedModel, attributes: readonly Attribute[], params: unknown[], plan: WritePlan | undefined): Statement<Record<string, unknown>> {
  const query = writeQuery(model, "insert", attributes, params, insertText, plan);
  return new Statement(query, model, "rows", storedRow);
}

/** The UPDATE of a persisted record's `attributes`, keyed by the primary key as last saved. */
export function updateStatement(model: ResolvedModel, state: RecordState, attributes: readonly Attribute[], params: unknown[], plan: WritePlan | undefined): Statement<unknown> {
  params.push(storedKey(model, state));
  return new Statement(writeQuery(model, "update", [...attributes, model.primaryKey], params, updateText, plan), model, "meta", metaOf);
}

/** The DELETE of a persisted record's row, with the `where` terms of its plan, if any. */
export function deleteStatement(model: ResolvedModel, state: RecordState, plan: WritePlan | undefined): Statement<unknown> {
  return new Statement(writeQuery(model, "delete", [model.primaryKey], [storedKey(model, state)], deleteText, plan), model, "meta", metaOf);
}

/**
 * Compiles a save that no hook plans: the kernel's own INSERT of a new record's `attributes`, or UPDATE of a
 * persisted one's, with their current values. No plan is made for it.
 */
export function compileSave(state: RecordState, operation: SaveOperation, attributes: readonly Attribute[]): Statement<unknown> {
  const { model } = state;
  const params = storedRecordValues(state, attributes);
  return operation === "create" ? insertStatement(model, attributes, params, undefined) : updateStatement(model, state, attributes, params, undefined);
}
