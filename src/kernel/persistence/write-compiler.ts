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
import { insertedRow, ownRowClause } from "./insert-retry.js";
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

/**
 * The values of a plan in their stored form, in the order of `attributes`; one over D1's limit is refused. With
 * `computed`, an `sql` fragment (a value the database computes as it inserts the row) is kept as it is.
 */
export function storedValues(model: ResolvedModel, attributes: readonly Attribute[], values: ReadonlyMap<string, unknown>, computed = false): unknown[] {
  const stored: unknown[] = [];
  for (const attribute of attributes) {
    const value = values.get(attribute.name);
    stored.push(computed && value instanceof SqlFragment ? value : storedWithinD1Limit(model, attribute, value));
  }
  return stored;
}

/** A record's current values of `attributes` in their stored form, as `storedValues` gives a plan's. */
function storedRecordValues(state: RecordState, attributes: readonly Attribute[]): unknown[] {
  const stored: unknown[] = [];
  for (const attribute of attributes) stored.push(storedWithinD1Limit(state.model, attribute, currentValue(state, attribute)));
  return stored;
}

/**
 * What a write sends: its SQL, bound values and their sources, the rows it must change, and whether it may be sent
 * again after a transient error (with `retrySql` in its place, if it has one).
 */
interface WriteQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly sources: readonly (ParamSource | undefined)[];
  readonly expectedChanges: number | undefined;
  readonly idempotent: boolean;
  readonly retrySql: string | undefined;
}

/** A write's query, with where its values hold the key it needs to be retried (an INSERT's), or -1. */
export type KeyedWriteQuery = WriteQuery & { readonly keyAt: number };

/** The SQL text of a write of `attributes` (in order), given the placeholder of each value. */
type WriteText = (model: ResolvedModel, attributes: readonly Attribute[], placeholders: readonly string[]) => string;

/**
 * How a record's write of one kind is written, and how it is sent again after one of D1's transient errors (see
 * `ConnectOptions.retries`), which may come after D1 committed the first try.
 */
export interface WriteForm {
  readonly kind: string;
  readonly text: WriteText;
  /** Whether a write of `attributes` is idempotent, when its value at `keyAt` (if any) is the record's generated key. */
  readonly retried: (model: ResolvedModel, attributes: readonly Attribute[]) => { idempotent: boolean; keyAt: number };
  /** The text sent on a retry, when it differs. */
  readonly retryText?: WriteText;
}

/**
 * Binds the values of a write of `attributes` with `writer`, and returns the placeholder of each; an `sql` fragment (a
 * value the database computes) is spliced in parentheses. Values are bound through a ParamWriter, so that the write
 * never passes D1's 100 bound parameters (an UPDATE of a 100-column table and its key).
 */
export function placeholdersOf(model: ResolvedModel, attributes: readonly Attribute[], params: readonly unknown[], writer: ParamWriter): string[] {
  return params.map((value, index) =>
    value instanceof SqlFragment ? `(${compileFragment(value, model, writer)})` : writer.bind(value, { kind: "value", attribute: attributes[index]! }),
  );
}

/** The SQL and bound values of a write whose text `form` makes from the placeholder of each value, and its retry form. */
function compileWriteQuery(model: ResolvedModel, attributes: readonly Attribute[], params: readonly unknown[], form: WriteForm): KeyedWriteQuery {
  const writer = new ParamWriter();
  const placeholders = placeholdersOf(model, attributes, params, writer);
  const { idempotent, keyAt } = form.retried(model, attributes);
  const retrySql = idempotent ? form.retryText?.(model, attributes, placeholders) : undefined;
  return { sql: form.text(model, attributes, placeholders), params: writer.params, sources: writer.sources, expectedChanges: undefined, idempotent, retrySql, keyAt };
}

/**
 * The SQL and bound values of the kernel's own write (see `compileWriteQuery`). Up to the plain parameters, the text
 * and sources depend only on the shape (`kind` and `attributes`), so they are compiled once per shape: saves are the
 * hot path of writes.
 */
export function writeQuery(model: ResolvedModel, form: WriteForm, attributes: readonly Attribute[], params: unknown[]): KeyedWriteQuery {
  if (params.length > PLAIN_PARAMETERS) return compileWriteQuery(model, attributes, params, form);
  const node = shapeNode(model, form.kind, attributes);
  // Only the text, sources and retry form are kept: the first write's values must not live on in the cache.
  const shape = (node.shape ??= shapeOf(compileWriteQuery(model, attributes, params, form)));
  return { ...shape, params, expectedChanges: undefined };
}

const shapeOf = ({ sql, sources, idempotent, retrySql, keyAt }: KeyedWriteQuery): WriteShape => ({ sql, sources, idempotent, retrySql, keyAt });

/** The key of a persisted record as last saved, bound for a WHERE. */
export function storedKey(model: ResolvedModel, state: RecordState): unknown {
  const key = model.primaryKey;
  return state.row[key.column] ?? storedValue(key, currentValue(state, key));
}

const metaOf = (_rows: unknown, meta: Record<string, unknown>) => meta;

/** The text of an INSERT of `attributes`, with `conflict` between its values and its RETURNING. */
function insertSql(model: ResolvedModel, attributes: readonly Attribute[], placeholders: readonly string[], conflict: string): string {
  const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
  const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${placeholders.join(", ")})`;
  return `INSERT INTO ${model.quotedTable} ${body}${conflict} RETURNING ${model.selectList}`;
}

/** The text of an UPDATE of every attribute but the last, which is the primary key its WHERE binds. */
const updateText: WriteText = (model, attributes, placeholders) => {
  const assignments = attributes.slice(0, -1).map((attribute, index) => `${quoteIdentifier(attribute.column)} = ${placeholders[index]}`);
  return `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${placeholders.at(-1)}`;
};

const deleteText: WriteText = (model, _attributes, [key]) => `DELETE FROM ${model.quotedTable} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${key}`;

/**
 * An INSERT that binds the record's key is sent again, with the clause that returns the row under that key (see
 * `ownRowClause`), only when that key is the one generated for the record (see `insertStatement`).
 */
const INSERT: WriteForm = {
  kind: "insert",
  text: (model, attributes, placeholders) => insertSql(model, attributes, placeholders, ""),
  retried: (model, attributes) => {
    const keyAt = attributes.indexOf(model.primaryKey);
    return { idempotent: keyAt >= 0, keyAt };
  },
  retryText: (model, attributes, placeholders) => insertSql(model, attributes, placeholders, ownRowClause(model, attributes)),
};

/**
 * An UPDATE by the stored key that sets values: a second try sets them again, on the same row, and changes as many
 * rows. One that sets the key itself would find no row the second time: it is sent once.
 */
const UPDATE: WriteForm = {
  kind: "update",
  text: updateText,
  retried: (model, attributes) => ({ idempotent: attributes.indexOf(model.primaryKey) === attributes.length - 1, keyAt: -1 }),
};

/** A DELETE by key: a second try deletes nothing more (a destroy reads no count of the rows deleted). */
const DELETE: WriteForm = { kind: "delete", text: deleteText, retried: () => ({ idempotent: true, keyAt: -1 }) };

/**
 * How the query of a record's write of `form` is compiled: by `writeQuery` for the kernel's own write, with its plan
 * for a planned one (see `installWritePlans`).
 */
export type QueryCompiler = (model: ResolvedModel, form: WriteForm, attributes: readonly Attribute[], params: unknown[]) => KeyedWriteQuery;

/**
 * The INSERT of a new record's `attributes` (in declaration order); `RETURNING` brings back what was stored. It is
 * sent again after a transient error only when the key it binds is `generatedKey`, the one made for the record alone
 * (see `markGeneratedKey`): a key the app assigned may be another's row, which a second try would take for its own,
 * and a key the database numbers would make a second row. Its shape decides the rest once; a save only compares keys.
 */
export function insertStatement(model: ResolvedModel, attributes: readonly Attribute[], params: unknown[], generatedKey: unknown, compile: QueryCompiler = writeQuery): Statement<Record<string, unknown> | undefined> {
  const query = compile(model, INSERT, attributes, params);
  const ownKey = generatedKey !== undefined && params[query.keyAt] === generatedKey;
  return new Statement(query.idempotent && !ownKey ? { ...query, idempotent: false, retrySql: undefined } : query, model, "rows", insertedRow);
}

/** The UPDATE of a persisted record's `attributes`, keyed by the primary key as last saved. */
export function updateStatement(model: ResolvedModel, state: RecordState, attributes: readonly Attribute[], params: unknown[], compile: QueryCompiler = writeQuery): Statement<unknown> {
  params.push(storedKey(model, state));
  return new Statement(compile(model, UPDATE, [...attributes, model.primaryKey], params), model, "meta", metaOf);
}

/** The DELETE of a persisted record's row by its key. */
export function deleteStatement(model: ResolvedModel, state: RecordState, compile: QueryCompiler = writeQuery): Statement<unknown> {
  return new Statement(compile(model, DELETE, [model.primaryKey], [storedKey(model, state)]), model, "meta", metaOf);
}

/**
 * Compiles a save that no hook plans: the kernel's own INSERT of a new record's `attributes`, or UPDATE of a
 * persisted one's, with their current values. No plan is made for it.
 */
export function compileSave(state: RecordState, operation: SaveOperation, attributes: readonly Attribute[]): Statement<unknown> {
  const { model } = state;
  const params = storedRecordValues(state, attributes);
  return operation === "create" ? insertStatement(model, attributes, params, state.generatedKey) : updateStatement(model, state, attributes, params);
}
