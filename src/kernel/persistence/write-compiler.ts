import { attributeNamed } from "../records/assign.js";
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
import type { WritePlan } from "../plugin-api/hooks.js";

/** Refuses with `TypeError` naming the Model a write's `where` term that is not an `sql` fragment. */
export function assertWhereTerms(model: { readonly name: string }, where: readonly unknown[]): void {
  for (const term of where) {
    if (!(term instanceof SqlFragment)) throw new TypeError(`${model.name}: a write's where terms are sql fragments, not ${previewText(term)}`);
  }
}

/** What a write of one shape (the attributes written) always sends: its SQL and where each value comes from. */
interface WriteShape {
  readonly sql: string;
  readonly sources: readonly (ParamSource | undefined)[];
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

/**
 * An attribute's value in its stored form, refused with `CastError` when it is over D1's limit for one value. Plugin
 * API, for a plugin that writes values without a record (bulk writes).
 */
export function storedWithinD1Limit(model: { readonly name: string; readonly model: Function }, attribute: Attribute, value: unknown): unknown {
  const stored = storedValue(attribute, value);
  assertValueWithinD1Limit(model, attribute, stored);
  return stored;
}

/** The written values in their stored form, in the order of `attributes`; one over D1's limit is refused. */
function storedValues(model: ResolvedModel, attributes: readonly Attribute[], values: ReadonlyMap<string, unknown>): unknown[] {
  return attributes.map((attribute) => storedWithinD1Limit(model, attribute, values.get(attribute.name)));
}

/** What a write sends: its SQL, bound values and their sources, and the rows it must change. */
interface WriteQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly sources: readonly (ParamSource | undefined)[];
  readonly expectedChanges: number | undefined;
}

/**
 * The SQL and bound values of a write whose text `build` makes from the placeholder of each value, followed by the
 * plan's own `where` terms. Values are bound through a ParamWriter, so that the write never passes D1's 100 bound
 * parameters (an UPDATE of a 100-column table and its key).
 */
function compileWriteQuery(
  write: WritePlan,
  attributes: readonly Attribute[],
  params: readonly unknown[],
  build: (placeholders: readonly string[]) => string,
): WriteQuery {
  const writer = new ParamWriter();
  const placeholders = params.map((value, index) => writer.bind(value, { kind: "value", attribute: attributes[index]! }));
  let sql = build(placeholders);
  for (const term of write.where) sql += ` AND (${compileFragment(term, write.model, writer)})`;
  return { sql, params: writer.params, sources: writer.sources, expectedChanges: write.expectedChanges };
}

/**
 * The SQL and bound values of a write (see `compileWriteQuery`). Up to the plain parameters, with no term of a
 * plugin's, the text and sources depend only on the shape, so they are compiled once per shape: saves are the hot
 * path of writes.
 */
function writeQuery(
  write: WritePlan,
  key: string,
  attributes: readonly Attribute[],
  params: unknown[],
  build: (placeholders: readonly string[]) => string,
): WriteQuery {
  if (params.length > PLAIN_PARAMETERS || write.where.length > 0) return compileWriteQuery(write, attributes, params, build);
  const { sql, sources } = cachedShape(write.model, key, () => {
    // Only the text and sources are kept: the first write's values must not live on in the cache.
    const compiled = compileWriteQuery(write, attributes, params, build);
    return { sql: compiled.sql, sources: compiled.sources };
  });
  return { sql, params, sources, expectedChanges: write.expectedChanges };
}

/** The key of a persisted record as last saved, bound for a WHERE. */
function storedKey(model: ResolvedModel, state: RecordState): unknown {
  const key = model.primaryKey;
  return state.row[key.column] ?? storedValue(key, currentValue(state, key));
}

const storedRow = (rows: Record<string, unknown>[]) => rows[0]!;
const metaOf = (_rows: unknown, meta: Record<string, unknown>) => meta;

/** The INSERT of a new record's `attributes` (in declaration order); `RETURNING` brings back what was stored. */
function insertStatement(write: WritePlan, attributes: readonly Attribute[]): Statement<Record<string, unknown>> {
  const { model, values } = write;
  const query = writeQuery(write, shapeKey("insert", attributes), attributes, storedValues(model, attributes, values), (placeholders) => {
    const columns = attributes.map((attribute) => quoteIdentifier(attribute.column));
    const body = columns.length === 0 ? "DEFAULT VALUES" : `(${columns.join(", ")}) VALUES (${placeholders.join(", ")})`;
    return `INSERT INTO ${model.quotedTable} ${body} RETURNING ${model.selectList}`;
  });
  return new Statement(query, model, "rows", storedRow);
}

/** The UPDATE of a persisted record's `attributes`, keyed by the primary key as last saved. */
function updateStatement(write: WritePlan, state: RecordState, attributes: readonly Attribute[]): Statement<unknown> {
  const { model, values } = write;
  const params = storedValues(model, attributes, values);
  params.push(storedKey(model, state));
  const query = writeQuery(write, shapeKey("update", attributes), [...attributes, model.primaryKey], params, (placeholders) => {
    const assignments = attributes.map((attribute, index) => `${quoteIdentifier(attribute.column)} = ${placeholders[index]}`);
    return `UPDATE ${model.quotedTable} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${placeholders.at(-1)}`;
  });
  return new Statement(query, model, "meta", metaOf);
}

/** The DELETE of a persisted record's row. */
function deleteStatement(write: WritePlan, state: RecordState): Statement<unknown> {
  const { model } = write;
  const query = writeQuery(write, "delete", [model.primaryKey], [storedKey(model, state)], ([key]) => {
    return `DELETE FROM ${model.quotedTable} WHERE ${quoteIdentifier(model.primaryKey.column)} = ${key}`;
  });
  return new Statement(query, model, "meta", metaOf);
}

/** The attributes a plan's values name, refused with `UnknownAttribute` when one is not the Model's. */
function attributesOfValues(write: WritePlan): Attribute[] {
  return [...write.values.keys()].map((name) => attributeNamed(write.model, name));
}

/** The statements a record's operation may be written as: a hook may turn only a destroy's DELETE into an UPDATE. */
const KINDS: Readonly<Record<string, readonly string[]>> = { create: ["insert"], update: ["update"], destroy: ["delete", "update"] };

/** Refuses an `expectedChanges` that is not a whole number of rows. */
function assertExpectedChanges(write: WritePlan): void {
  const { expectedChanges } = write;
  if (expectedChanges !== undefined && !(Number.isSafeInteger(expectedChanges) && expectedChanges >= 0)) {
    throw new TypeError(`${write.model.name}: expectedChanges is a whole number of rows, not ${previewText(expectedChanges)}`);
  }
}

/**
 * The SELECT of a record write's key, for its after-statements: the key bound when known before sending (an update's
 * or delete's, a create's that was assigned one), else the row the INSERT just made: SQLite numbers a new row past the
 * highest rowid, and nothing else of the batch writes to the table between the INSERT and its after-statements
 * (unlike `last_insert_rowid()`, which another after-statement's INSERT would move).
 */
export function recordKeys(write: WritePlan, state: RecordState): SqlFragment {
  const { model } = write;
  // An UPDATE that sets the key leaves the row under the new one.
  const key = write.kind === "delete" ? undefined : write.values.get(model.primaryKey.name);
  if (key !== undefined && key !== null) return new SqlFragment(["SELECT ", ' AS "key"'], [storedValue(model.primaryKey, key)]);
  if (write.kind !== "insert") return new SqlFragment(["SELECT ", ' AS "key"'], [storedKey(model, state)]);
  return new SqlFragment([`SELECT ${quoteIdentifier(model.primaryKey.column)} AS "key" FROM ${model.quotedTable} WHERE rowid = (SELECT max(rowid) FROM ${model.quotedTable})`], []);
}

/** Refuses with `TypeError` naming the Model a plan its hooks left unsendable; returns the attributes of its values. */
function checkedPlan(write: WritePlan): Attribute[] {
  const { model, kind, where } = write;
  assertExpectedChanges(write);
  assertWhereTerms(model, where);
  const allowed = KINDS[write.operation]!;
  if (!allowed.includes(kind)) {
    throw new TypeError(`${model.name}: the kind of ${write.operation === "update" ? "an" : "a"} ${write.operation}'s write is ${allowed.map((each) => `"${each}"`).join(" or ")}, not ${previewText(kind)}`);
  }
  if (kind === "insert" && where.length > 0) throw new TypeError(`${model.name}: an INSERT has no WHERE; a write:plan hook added conditions to it`);
  const attributes = attributesOfValues(write);
  if (kind === "update" && attributes.length === 0) throw new TypeError(`${model.name}: an UPDATE needs values; a write:plan hook left none`);
  return attributes;
}

/**
 * Compiles a record's own write, as its `write:plan` hooks left it, into its Statement. `attributes` are those
 * of `write.values` when the caller knows them (a save's, which no hook changed: its plan is then the kernel's own,
 * well-formed by construction, and skips the checks). Throws `TypeError` for a plan that cannot be sent.
 */
export function compileWrite(write: WritePlan, state: RecordState, attributes: readonly Attribute[] = checkedPlan(write)): Statement<unknown> {
  if (write.kind === "insert") return insertStatement(write, attributes);
  if (write.kind === "delete") return deleteStatement(write, state);
  return updateStatement(write, state, attributes);
}
