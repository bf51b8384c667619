import { argumentError, optionsArgument, refuseUninspectable } from "../records/arguments.js";
import { attributeNamed } from "../records/assign.js";
import type { Attribute } from "../records/attributes.js";
import { blobAwareJson, blobJson, isBlob } from "../sql/blob-values.js";
import { MAX_VALUE_BYTES, utf8Length } from "../sql/bound-json.js";
import { compileFragment } from "../sql/compiler.js";
import { databaseOfModel } from "../records/introspection.js";
import { quoteIdentifier } from "../sql/naming.js";
import { ParamWriter } from "../sql/param-writer.js";
import { valuesToWrite } from "./record-write.js";
import type { Relation } from "../relations/relation.js";
import type { ResolvedModel } from "../records/resolve.js";
import { SqlFragment } from "../sql/sql.js";
import type { Statement } from "../sql/statement.js";
import type { WriteMeta } from "../types.js";
import { assertPlannedWhere, bulkWritePlansSlot, type CompiledWrite, planStatement } from "./write-batch.js";
import { storedWithinD1Limit } from "./write-compiler.js";
import { PlannedWrite, planWrite, prepareAndPlan } from "./write-plan.js";

/** Options of `insert` and `insertAll`. */
export interface InsertOptions {
  /** `"skip"` leaves out rows that would duplicate a unique key; by default a duplicate throws `RecordNotUnique`. */
  onDuplicate?: "skip" | "raise";
}

/** Options of `upsert` and `upsertAll`. */
export interface UpsertOptions<A = Record<string, unknown>> {
  /** The attributes of the unique key that decides a conflict; the primary key by default. */
  uniqueBy?: (keyof A & string)[];
}

/** A Model class that builds records (the Models of an app). */
export type BuildsRecords = Function & { build(attributes: object): object; all(): Relation };

/** The operations of bulk inserts. */
export type InsertOperation = "insert" | "insertAll" | "upsert" | "upsertAll";

/** A bulk insert being planned: the plan, the attributes the caller gave, and whether duplicates are skipped. */
export interface RowsWrite {
  readonly plan: PlannedWrite;
  readonly given: readonly Attribute[];
  readonly skipsDuplicates: boolean;
}

/**
 * The plan of a bulk insert or upsert, with declared defaults, generated ids and timestamps filled in: each row is
 * built as a record (so casting and defaults apply, and `record:write` runs) but no validation or callback runs.
 */
function rowsWrite(modelClass: BuildsRecords, list: readonly object[], operation: InsertOperation, options: object | undefined): RowsWrite {
  const model = modelClass.all().model;
  const many = operation === "insert" || operation === "upsert" ? `${operation}All` : operation;
  refuseUninspectable(`${model.name}.${many}`, "a non-empty array of attribute objects", list);
  if (!Array.isArray(list) || list.length === 0) throw new TypeError(`${model.name}.${many} takes a non-empty array of attribute objects`);
  const upserts = operation === "upsert" || operation === "upsertAll";
  const conflictTarget = upserts ? uniqueBy(model, options as UpsertOptions | undefined) : undefined;
  const skipsDuplicates = !upserts && onDuplicate(model, options as InsertOptions | undefined) === "skip";
  const rows = Array.from(list, (attributes: unknown) => {
    // A hole or undefined, which build() would read as no attributes, is no row: refused as null is.
    if (attributes === undefined) throw argumentError(`${model.name}.${many}`, "attribute objects", attributes);
    return new Map(valuesToWrite(modelClass.build(attributes as object), "create"));
  });
  const given = Object.keys(list[0]!).map((name) => attributeNamed(model, name));
  const plan = new PlannedWrite(model, operation, upserts ? "upsert" : "insert", undefined, undefined, rows, conflictTarget);
  return { plan, given, skipsDuplicates };
}

function onDuplicate(model: ResolvedModel, options: InsertOptions | undefined): InsertOptions["onDuplicate"] {
  const { onDuplicate } = optionsArgument(`${model.name}.insertAll`, options, ["onDuplicate"]);
  if (onDuplicate !== undefined && onDuplicate !== "skip" && onDuplicate !== "raise") {
    throw argumentError(`${model.name}.insertAll: onDuplicate`, `"skip" or "raise"`, onDuplicate);
  }
  return onDuplicate;
}

const UNIQUE_BY = "a non-empty list of attribute names";

/** The attributes of `uniqueBy`: a non-empty list of attribute names, the primary key by default. */
function uniqueBy(model: ResolvedModel, options: UpsertOptions | undefined): string[] {
  const where = `${model.name}.upsertAll`;
  const { uniqueBy = [model.primaryKey.name] } = optionsArgument(where, options, ["uniqueBy"]);
  refuseUninspectable(`${where}: uniqueBy`, UNIQUE_BY, uniqueBy);
  if (!Array.isArray(uniqueBy) || uniqueBy.length === 0) throw argumentError(`${where}: uniqueBy`, UNIQUE_BY, uniqueBy);
  return uniqueBy.map((name) => attributeNamed(model, name, "upsertAll").name);
}

const WHOLE_NUMBER = /^-?\d+$/;

/**
 * A stored value as JSON; a whole real keeps a decimal point, so that SQLite reads it back as REAL; a blob is written
 * as `blobJson` does, and read back by `jsonPick`.
 */
function valueJson(attribute: Attribute, stored: unknown): string {
  if (isBlob(stored)) return blobJson(stored);
  const json = JSON.stringify(stored);
  return attribute.typeName === "real" && WHOLE_NUMBER.test(json) ? `${json}.0` : json;
}

/** A row as a JSON array: the value of `attributes[i]` at position i, so no column name goes into a JSON path. */
export function rowJson(attributes: readonly Attribute[], row: readonly unknown[]): string {
  return `[${row.map((stored, index) => valueJson(attributes[index]!, stored)).join(",")}]`;
}

function columnList(attributes: readonly Attribute[]): string {
  return attributes.map((attribute) => quoteIdentifier(attribute.column)).join(", ");
}

/** `json_extract(value, '$[k]')`: the value at position k of a JSON row, read as a blob where `rows` hold one there. */
export function jsonPick(rows: readonly (readonly unknown[])[], index: number): string {
  const path = `'$[${index}]'`;
  const pick = `json_extract(value, ${path})`;
  return rows.some((row) => isBlob(row[index])) ? blobAwareJson(`json_type(value, ${path})`, pick, `json_extract(value, '$[${index}][0]')`) : pick;
}

/** `SELECT json_extract(value, '$[0]'), ... FROM json_each(?)`: the bound JSON rows, read by position. */
function selectFromJson(attributes: readonly Attribute[], chunk: { readonly json: string; readonly rows: readonly unknown[][] }, params: ParamWriter): string {
  const placeholder = params.bind(chunk.json, { kind: "rows", columns: attributes });
  const picks = attributes.map((_, index) => jsonPick(chunk.rows, index)).join(", ");
  return `SELECT ${picks} FROM json_each(${placeholder})`;
}

/** Rows bound as one JSON value, or one row whose JSON alone is over D1's limit, bound value by value. */
export type InsertChunk = { readonly json: string; readonly rows: readonly unknown[][] } | { readonly row: readonly unknown[]; readonly rows: readonly unknown[][] };

/** The rows in order, as JSON values of at most D1's limit for one value each. */
function insertChunks(attributes: readonly Attribute[], rows: readonly unknown[][]): InsertChunk[] {
  const chunks: InsertChunk[] = [];
  let texts: string[] = [];
  let chunkRows: unknown[][] = [];
  let bytes = 2;
  const flush = () => {
    if (texts.length > 0) chunks.push({ json: `[${texts.join(",")}]`, rows: chunkRows });
    texts = [];
    chunkRows = [];
    bytes = 2;
  };
  for (const row of rows) {
    const text = rowJson(attributes, row);
    const size = utf8Length(text) + 1;
    if (size + 2 > MAX_VALUE_BYTES) {
      flush();
      chunks.push({ row, rows: [row] });
      continue;
    }
    if (bytes + size > MAX_VALUE_BYTES) flush();
    texts.push(text);
    chunkRows.push(row);
    bytes += size;
  }
  flush();
  return chunks;
}

/** The stored values of every row, in the order of `attributes`; every row must give the same attributes. */
function storedRows(plan: PlannedWrite): { attributes: Attribute[]; rows: unknown[][] } {
  const { model, rows } = plan;
  const attributes = [...rows[0]!.keys()].map((name) => attributeNamed(model, name));
  const stored = rows.map((values) => {
    if (values.size !== attributes.length || !attributes.every((attribute) => values.has(attribute.name))) {
      throw new TypeError(`${model.name}.${plan.operation}: every row must give the same attributes`);
    }
    return attributes.map((attribute) => storedWithinD1Limit(model, attribute, values.get(attribute.name)));
  });
  return { attributes, rows: stored };
}

/**
 * What an upsert does to an existing row: sets the attributes the caller gave (never defaults, keys or createdAt),
 * and the update timestamps a plugin filled in (the `updateTimestamp` attributes: `updatedAt` with the timestamps
 * plugin) only when one of their values changes, as Rails' upsert_all does and as a save with nothing to change
 * leaves them alone; only where the row holds the values it would get of the `matchedOnUpsert` attributes (a
 * subclass's type) and meets the plan's `where` terms (tenancy's). With nothing to set, the row is left as it is.
 */
function conflictAction(write: RowsWrite, attributes: readonly Attribute[], params: ParamWriter): string {
  const { model, conflictTarget = [] } = write.plan;
  const givenNames = write.given.map((attribute) => attribute.name);
  const updates = attributes
    .filter((attribute) => givenNames.includes(attribute.name) && !conflictTarget.includes(attribute.name) && attribute !== model.primaryKey)
    .map((attribute) => attribute.column);
  if (updates.length === 0) return "DO NOTHING";
  // An update timestamp the caller gave is set as given; one a plugin filled in is touched only on a change.
  const touched = attributes.filter((attribute) => attribute.updateTimestamp && !givenNames.includes(attribute.name)).map((attribute) => attribute.column);
  const existing = (column: string) => `${model.quotedTable}.${quoteIdentifier(column)}`;
  const incoming = (column: string) => `excluded.${quoteIdentifier(column)}`;
  const assignments = updates.map((column) => `${quoteIdentifier(column)} = ${incoming(column)}`);
  const unchanged = updates.map((column) => `${existing(column)} IS ${incoming(column)}`).join(" AND ");
  for (const column of touched) {
    assignments.push(`${quoteIdentifier(column)} = CASE WHEN ${unchanged} THEN ${existing(column)} ELSE ${incoming(column)} END`);
  }
  const conditions = model.attributes.filter((attribute) => attribute.matchedOnUpsert).map(({ column }) => `${existing(column)} IS ${incoming(column)}`);
  for (const term of write.plan.where) conditions.push(`(${compileFragment(term, model, params)})`);
  return `DO UPDATE SET ${assignments.join(", ")}${conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : ""}`;
}

/** What follows the rows of an INSERT: nothing, `ON CONFLICT DO NOTHING`, or an upsert's clause. */
function conflictClause(write: RowsWrite, attributes: readonly Attribute[], params: ParamWriter): string {
  const { plan } = write;
  if (plan.kind === "insert") return write.skipsDuplicates ? " ON CONFLICT DO NOTHING" : "";
  const columns = plan.conflictTarget!.map((name) => quoteIdentifier(plan.model.byName.get(name)!.column));
  return ` ON CONFLICT (${columns.join(", ")}) ${conflictAction(write, attributes, params)}`;
}

/** The SELECT of the keys a chunk wrote (see `insertedKeys`), once `installWritePlans` installed it. */
export const insertedKeysSlot: { keys?: (write: RowsWrite, attributes: readonly Attribute[], chunk: InsertChunk) => SqlFragment } = {};

/** One INSERT of a chunk of rows: `... SELECT ... FROM json_each(?) WHERE true` (the WHERE keeps an ON CONFLICT unambiguous). */
function chunkInsert(write: RowsWrite, attributes: readonly Attribute[], chunk: InsertChunk): CompiledWrite {
  const { model } = write.plan;
  const params = new ParamWriter();
  const rows =
    "json" in chunk
      ? `${selectFromJson(attributes, chunk, params)} WHERE true`
      : `VALUES (${chunk.row.map((stored, index) => params.bind(stored, { kind: "value", attribute: attributes[index]! })).join(", ")})`;
  const sql = `INSERT INTO ${model.quotedTable} (${columnList(attributes)}) ${rows}${conflictClause(write, attributes, params)}`;
  return { query: { sql, params: params.params, sources: params.sources }, keys: () => insertedKeysSlot.keys!(write, attributes, chunk), keysBefore: false };
}

/**
 * The INSERTs of rows that give no value at all (every column has a default): one row alone is `DEFAULT VALUES`,
 * as `create({})` sends; several, or one with a conflict clause (which `DEFAULT VALUES` cannot take), give the
 * integer key NULL in one statement so that SQLite numbers them.
 */
function defaultRowInserts(write: RowsWrite): CompiledWrite[] {
  const { model, rows, kind } = write.plan;
  const key = model.primaryKey;
  if (rows.length === 1 && kind === "insert" && !write.skipsDuplicates) {
    const keys = () => bulkWritePlansSlot.plans!.newestRowKey(model);
    return [{ query: { sql: `INSERT INTO ${model.quotedTable} DEFAULT VALUES`, params: [], sources: [] }, keys, keysBefore: false }];
  }
  if (key.typeName !== "integer") {
    throw new TypeError(`${model.name}.${write.plan.operation}: rows that give no value can be written only one at a time, without onDuplicate, unless the primary key is an integer`);
  }
  const nulls = rows.map(() => [null]);
  return insertChunks([key], nulls).map((chunk) => chunkInsert(write, [key], chunk));
}

/** Compiles a planned bulk insert or upsert: as many INSERTs as keep each bound value within D1's limit. */
function rowsStatement(write: RowsWrite, modelClass: BuildsRecords): Statement<WriteMeta> {
  const { plan } = write;
  assertPlannedWhere(plan);
  if (plan.kind !== (plan.conflictTarget ? "upsert" : "insert")) throw new TypeError(`${plan.model.name}: the kind of ${plan.operation} cannot change`);
  const { attributes, rows } = storedRows(plan);
  const writes = attributes.length === 0 ? defaultRowInserts(write) : insertChunks(attributes, rows).map((chunk) => chunkInsert(write, attributes, chunk));
  return planStatement(plan, writes, (_rows, meta) => meta, databaseOfModel(modelClass));
}

/**
 * The Statement of a bulk insert or upsert (`toInsert`, `toInsertAll`, `toUpsert`, `toUpsertAll`): planned through
 * the `write:plan` hooks, without the `write:prepare` stage (sync). Bad input throws. Plugin API (bulk writes).
 */
export function insertRowsStatement(modelClass: BuildsRecords, list: readonly object[], operation: InsertOperation, options?: object): Statement<WriteMeta> {
  const write = rowsWrite(modelClass, list, operation, options);
  planWrite(write.plan);
  return rowsStatement(write, modelClass);
}

/**
 * Runs a bulk insert or upsert after the `write:prepare` stage (`insert`, `insertAll`, `upsert`, `upsertAll`);
 * resolves to D1's `meta`. Sent when called unless a hook prepares writes. Plugin API (bulk writes).
 */
export async function insertRowsWrite(modelClass: BuildsRecords, list: readonly object[], operation: InsertOperation, options?: object): Promise<WriteMeta> {
  const write = rowsWrite(modelClass, list, operation, options);
  const planned = prepareAndPlan(write.plan);
  if (planned instanceof Promise) await planned;
  return await modelClass.all().run(rowsStatement(write, modelClass));
}
