import {
  argumentError,
  type Attribute,
  attributeNamed,
  castValue,
  databaseOfModel,
  definePlugin,
  IncompatibleRelation,
  isPlainObject,
  optionsArgument,
  refuseUninspectable,
  type InsertOptions,
  joinSelect,
  ParamWriter,
  quoteIdentifier,
  Relation,
  type ResolvedModel,
  selectParts,
  Statement,
  type UpsertOptions,
  valuesToWrite,
  type WriteMeta,
} from "../kernel/index.js";

type Meta = WriteMeta;
type BuildsRecords = Function & { build(attributes: object): object; all(): Relation };

function storedRow(model: ResolvedModel, values: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, value] of values) {
    const attribute = model.byName.get(name)!;
    row[attribute.column] = value === null ? null : attribute.type.toDatabase(value);
  }
  return row;
}

/**
 * The rows of a bulk insert, by column, with declared defaults, generated ids and timestamps filled in: each
 * row is built as a record (so casting and defaults apply) but no validation or callback runs.
 */
function rowsToInsert(
  modelClass: BuildsRecords,
  list: readonly object[],
  operation: "insertAll" | "upsertAll",
): { model: ResolvedModel; columns: string[]; given: string[]; rows: Record<string, unknown>[] } {
  const model = modelClass.all().model;
  refuseUninspectable(`${model.name}.${operation}`, "a non-empty array of attribute objects", list);
  if (!Array.isArray(list) || list.length === 0) throw new TypeError(`${model.name}.${operation} takes a non-empty array of attribute objects`);
  const rows = list.map((attributes) => storedRow(model, valuesToWrite(modelClass.build(attributes), "create")));
  const columns = Object.keys(rows[0]!);
  for (const row of rows) {
    if (Object.keys(row).length !== columns.length || !columns.every((column) => column in row)) {
      throw new TypeError(`${model.name}.${operation}: every row must give the same attributes`);
    }
  }
  const given = Object.keys(list[0]!).map((name) => attributeNamed(model, name).column);
  return { model, columns, given, rows };
}

// The rows are bound as ONE JSON value and read back with json_each, so any number of rows fits D1's
// limit of 100 bound parameters.
function insertSql(model: ResolvedModel, columns: string[], params: ParamWriter, rows: Record<string, unknown>[]): string {
  const byKey = new Map(columns.map((column) => [column, model.byColumn.get(column)!]));
  const placeholder = params.bind(JSON.stringify(rows), { kind: "rows", byKey });
  const names = columns.map(quoteIdentifier).join(", ");
  const picks = columns.map((column) => `json_extract(value, ${quoteJsonPath(column)})`).join(", ");
  return `INSERT INTO ${model.quotedTable} (${names}) SELECT ${picks} FROM json_each(${placeholder}) WHERE true`;
}

function quoteJsonPath(column: string): string {
  return `'$."${column.replaceAll("'", "''").replaceAll('"', '\\"')}"'`;
}

function toInsertAll(this: BuildsRecords, list: readonly object[], options?: InsertOptions): Statement<Meta> {
  const { model, columns, rows } = rowsToInsert(this, list, "insertAll");
  const { onDuplicate } = optionsArgument(`${model.name}.insertAll`, options);
  if (onDuplicate !== undefined && onDuplicate !== "skip" && onDuplicate !== "raise") {
    throw argumentError(`${model.name}.insertAll: onDuplicate`, `"skip" or "raise"`, onDuplicate);
  }
  const params = new ParamWriter();
  const conflict = onDuplicate === "skip" ? " ON CONFLICT DO NOTHING" : "";
  const sql = insertSql(model, columns, params, rows) + conflict;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => meta, databaseOfModel(this));
}

/**
 * What an upsert does to an existing row: sets the attributes the caller gave (never defaults, keys or createdAt),
 * and updatedAt only when one of their values changes, as Rails' upsert_all does and as a save with nothing to
 * change leaves it alone. With nothing to set, the row is left as it is.
 */
function conflictAction(model: ResolvedModel, updates: string[], updatedAt: string | undefined): string {
  if (updates.length === 0) return "DO NOTHING";
  const existing = (column: string) => `${model.quotedTable}.${quoteIdentifier(column)}`;
  const incoming = (column: string) => `excluded.${quoteIdentifier(column)}`;
  const assignments = updates.map((column) => `${quoteIdentifier(column)} = ${incoming(column)}`);
  if (updatedAt !== undefined) {
    const unchanged = updates.map((column) => `${existing(column)} IS ${incoming(column)}`).join(" AND ");
    assignments.push(`${quoteIdentifier(updatedAt)} = CASE WHEN ${unchanged} THEN ${existing(updatedAt)} ELSE ${incoming(updatedAt)} END`);
  }
  return `DO UPDATE SET ${assignments.join(", ")}`;
}

const UNIQUE_BY = "a non-empty list of attribute names";

/** The columns of `uniqueBy`: a non-empty list of attribute names, the primary key by default. */
function uniqueColumns(model: ResolvedModel, options: UpsertOptions | undefined): string[] {
  const where = `${model.name}.upsertAll`;
  const { uniqueBy = [model.primaryKey.name] } = optionsArgument(where, options);
  refuseUninspectable(`${where}: uniqueBy`, UNIQUE_BY, uniqueBy);
  if (!Array.isArray(uniqueBy) || uniqueBy.length === 0) throw argumentError(`${where}: uniqueBy`, UNIQUE_BY, uniqueBy);
  return uniqueBy.map((name) => attributeNamed(model, name, "upsertAll").column);
}

function toUpsertAll(this: BuildsRecords, list: readonly object[], options?: UpsertOptions): Statement<Meta> {
  const { model, columns, given, rows } = rowsToInsert(this, list, "upsertAll");
  const uniqueBy = uniqueColumns(model, options);
  const updates = columns.filter((column) => given.includes(column) && !uniqueBy.includes(column) && column !== model.primaryKey.column);
  // An updatedAt the caller gave is set as given; one the timestamps filled in is touched only on a change.
  const stamped = model.byName.get("updatedAt")?.column;
  const updatedAt = stamped !== undefined && columns.includes(stamped) && !given.includes(stamped) ? stamped : undefined;
  const params = new ParamWriter();
  const sql = `${insertSql(model, columns, params, rows)} ON CONFLICT (${uniqueBy.map(quoteIdentifier).join(", ")}) ${conflictAction(model, updates, updatedAt)}`;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => meta, databaseOfModel(this));
}

function changesOf(meta: Meta): number {
  return Number(meta["changes"] ?? 0);
}

/** The WHERE of a bulk UPDATE or DELETE: the Relation's conditions, or its rows by key when it pages or orders. */
function targetRows(relation: Relation, params: ParamWriter): string {
  const { data, model } = relation;
  if (data.distinct) throw new IncompatibleRelation(`${model.name}: updateAll and deleteAll cannot target a distinct Relation`);
  if (data.limit === undefined && data.offset === undefined && data.order.length === 0) {
    const { where } = selectParts({ ...data, select: undefined }, model, params);
    return where.length > 0 ? where.join(" AND ") : "1 = 1";
  }
  // SQLite has no LIMIT on UPDATE or DELETE: target the page of rows by key instead.
  const parts = selectParts(data, model, params);
  parts.columns = quoteIdentifier(model.primaryKey.column);
  return `${parts.columns} IN (${joinSelect(parts)})`;
}

/** D1 refuses a statement with more bound parameters than this. */
const MAX_BOUND_PARAMETERS = 100;

/** `"a" = ?, "b" = ?`: each value bound on its own. */
function setEach(values: ReadonlyMap<Attribute, unknown>, params: ParamWriter): string {
  return [...values].map(([attribute, stored]) => `${quoteIdentifier(attribute.column)} = ${params.bind(stored, { kind: "value", attribute })}`).join(", ");
}

/** `("a", "b") = (SELECT ... FROM json_each(?))`: every value in one bound JSON row, for updates of very many columns. */
function setAsOneValue(values: ReadonlyMap<Attribute, unknown>, params: ParamWriter): string {
  const attributes = [...values.keys()];
  const row = Object.fromEntries(attributes.map((attribute) => [attribute.column, values.get(attribute)]));
  const byKey = new Map(attributes.map((attribute) => [attribute.column, attribute]));
  const placeholder = params.bind(JSON.stringify([row]), { kind: "rows", byKey });
  const columns = attributes.map((attribute) => quoteIdentifier(attribute.column)).join(", ");
  const picks = attributes.map((attribute) => `json_extract(value, ${quoteJsonPath(attribute.column)})`).join(", ");
  return `(${columns}) = (SELECT ${picks} FROM json_each(${placeholder}))`;
}

/** The UPDATE of `updateAll`: sets the attributes, cast, on every row the Relation matches; reads the rows changed. */
export function updateAllStatement(relation: Relation, attributes: Record<string, unknown>): Statement<number> {
  const model = relation.model;
  if (!isPlainObject(attributes)) throw argumentError(`${model.name}.updateAll`, "a plain object of attribute values", attributes);
  const entries = Object.entries(attributes);
  if (entries.length === 0) throw new TypeError(`${model.name}.updateAll needs at least one attribute to set`);
  const values = new Map<Attribute, unknown>();
  for (const [name, value] of entries) {
    const attribute = attributeNamed(model, name);
    const cast = castValue(model, attribute, value);
    values.set(attribute, cast === null ? null : attribute.type.toDatabase(cast));
  }
  const compile = (set: typeof setEach) => {
    const params = new ParamWriter();
    const assignments = set(values, params);
    return { params, sql: `UPDATE ${model.quotedTable} SET ${assignments} WHERE ${targetRows(relation, params)}` };
  };
  let { params, sql } = compile(setEach);
  if (params.params.length > MAX_BOUND_PARAMETERS) ({ params, sql } = compile(setAsOneValue));
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => changesOf(meta), databaseOfModel(relation.modelClass));
}

/** The DELETE of `deleteAll`: every row the Relation matches; reads the rows deleted. */
export function deleteAllStatement(relation: Relation): Statement<number> {
  const model = relation.model;
  const params = new ParamWriter();
  const sql = `DELETE FROM ${model.quotedTable} WHERE ${targetRows(relation, params)}`;
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => changesOf(meta), databaseOfModel(relation.modelClass));
}

// The callers are async and build their Statement inside, so bad input rejects rather than throws.
function runOn<T>(model: BuildsRecords, statement: Statement<T>): Promise<T> {
  return model.all().run(statement);
}

// The Statement is built even for none(), so bad input is refused alike whether or not anything could match.
function changedRows(relation: Relation, statement: Statement<number>): Promise<number> {
  return relation.data.none ? Promise.resolve(0) : relation.run(statement);
}

/**
 * Bulk writes: `insert`/`insertAll`, `upsert`/`upsertAll` (statics), `updateAll`/`deleteAll` (on any Relation
 * or Model), and their `to...` Statements for `batch`. They skip validations and callbacks; inserts still fill
 * declared defaults, generated ids and timestamps, and every value is cast. The running forms report bad input
 * as a rejection, the `to...` forms throw it; on `none()`, `updateAll`/`deleteAll` resolve to 0 without a
 * query, while `toUpdateAll`/`toDeleteAll` still give a Statement (matching no row) for `batch`.
 */
export const bulkWrites = definePlugin({
  name: "bulk-writes",
  relationMethods: {
    toUpdateAll(this: Relation, attributes: Record<string, unknown>) {
      return updateAllStatement(this, attributes);
    },
    toDeleteAll(this: Relation) {
      return deleteAllStatement(this);
    },
    async updateAll(this: Relation, attributes: Record<string, unknown>) {
      return changedRows(this, updateAllStatement(this, attributes));
    },
    async deleteAll(this: Relation) {
      return changedRows(this, deleteAllStatement(this));
    },
  },
  setup(base: Record<string, unknown>) {
    Object.assign(base, {
      toInsertAll,
      toUpsertAll,
      toInsert(this: BuildsRecords, attributes: object, options?: InsertOptions) {
        return toInsertAll.call(this, [attributes], options);
      },
      toUpsert(this: BuildsRecords, attributes: object, options?: UpsertOptions) {
        return toUpsertAll.call(this, [attributes], options);
      },
      async insert(this: BuildsRecords, attributes: object, options?: InsertOptions) {
        return runOn(this, toInsertAll.call(this, [attributes], options));
      },
      async insertAll(this: BuildsRecords, list: readonly object[], options?: InsertOptions) {
        return runOn(this, toInsertAll.call(this, list, options));
      },
      async upsert(this: BuildsRecords, attributes: object, options?: UpsertOptions) {
        return runOn(this, toUpsertAll.call(this, [attributes], options));
      },
      async upsertAll(this: BuildsRecords, list: readonly object[], options?: UpsertOptions) {
        return runOn(this, toUpsertAll.call(this, list, options));
      },
    });
  },
});
