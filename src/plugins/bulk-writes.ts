import {
  type AnyModel,
  argumentError,
  type AssignAttributes,
  type AttributeName,
  type AttributesOfModel,
  type AttributesOfRecord,
  type Attribute,
  attributeNamed,
  databaseOfModel,
  definePlugin,
  deleteAllStatement,
  optionsArgument,
  refuseUninspectable,
  MAX_VALUE_BYTES,
  ParamWriter,
  planRowsWrite,
  quoteIdentifier,
  Relation,
  type ResolvedModel,
  rowsWhereTerms,
  type RowsWritePlan,
  Statement,
  storedWithinD1Limit,
  updateAllStatement,
  utf8Length,
  valuesToWrite,
  type WriteMeta,
} from "../kernel/index.js";

/** Options of `insert` and `insertAll`. */
export interface InsertOptions {
  /** `"skip"` leaves out rows that would duplicate a unique key; by default a duplicate throws `RecordNotUnique`. */
  onDuplicate?: "skip" | "raise";
}

/** Options of `upsert` and `upsertAll`. */
export interface UpsertOptions<A = Record<string, unknown>> {
  /** The attributes of the unique key that decides a conflict; the primary key by default. */
  uniqueBy?: AttributeName<A>[];
}

type Meta = WriteMeta;
type BuildsRecords = Function & { build(attributes: object): object; all(): Relation };

/** The rows of a bulk insert: the attributes written, each row's stored values in their order, and what the caller gave. */
interface RowsToInsert {
  readonly model: ResolvedModel;
  readonly attributes: readonly Attribute[];
  readonly rows: readonly unknown[][];
  readonly given: readonly Attribute[];
}

/**
 * The rows of a bulk insert, with declared defaults, generated ids and timestamps filled in: each row is built as a
 * record (so casting and defaults apply) but no validation or callback runs.
 */
function rowsToInsert(modelClass: BuildsRecords, list: readonly object[], operation: "insertAll" | "upsertAll"): RowsToInsert {
  const model = modelClass.all().model;
  refuseUninspectable(`${model.name}.${operation}`, "a non-empty array of attribute objects", list);
  if (!Array.isArray(list) || list.length === 0) throw new TypeError(`${model.name}.${operation} takes a non-empty array of attribute objects`);
  const written = list.map((attributes) => valuesToWrite(modelClass.build(attributes), "create"));
  const attributes = [...written[0]!.keys()].map((name) => model.byName.get(name)!);
  const rows = written.map((values) => {
    if (values.size !== attributes.length || !attributes.every((attribute) => values.has(attribute.name))) {
      throw new TypeError(`${model.name}.${operation}: every row must give the same attributes`);
    }
    return attributes.map((attribute) => storedWithinD1Limit(model, attribute, values.get(attribute.name)));
  });
  const given = Object.keys(list[0]!).map((name) => attributeNamed(model, name));
  return { model, attributes, rows, given };
}

const WHOLE_NUMBER = /^-?\d+$/;

/** A stored value as JSON; a whole real keeps a decimal point, so that SQLite reads it back as REAL. */
function valueJson(attribute: Attribute, stored: unknown): string {
  const json = JSON.stringify(stored);
  return attribute.typeName === "real" && WHOLE_NUMBER.test(json) ? `${json}.0` : json;
}

/** A row as a JSON array: the value of `attributes[i]` at position i, so no column name goes into a JSON path. */
function rowJson(attributes: readonly Attribute[], row: readonly unknown[]): string {
  return `[${row.map((stored, index) => valueJson(attributes[index]!, stored)).join(",")}]`;
}

function columnList(attributes: readonly Attribute[]): string {
  return attributes.map((attribute) => quoteIdentifier(attribute.column)).join(", ");
}

/** `SELECT json_extract(value, '$[0]'), ... FROM json_each(?)`: the bound JSON rows, read by position. */
function selectFromJson(attributes: readonly Attribute[], json: string, params: ParamWriter): string {
  const placeholder = params.bind(json, { kind: "rows", columns: attributes });
  const picks = attributes.map((_, index) => `json_extract(value, '$[${index}]')`).join(", ");
  return `SELECT ${picks} FROM json_each(${placeholder})`;
}

/** Rows bound as one JSON value, or one row whose JSON alone is over D1's limit, bound value by value. */
type InsertChunk = { readonly json: string } | { readonly row: readonly unknown[] };

/** The rows in order, as JSON values of at most D1's limit for one value each. */
function insertChunks(attributes: readonly Attribute[], rows: readonly unknown[][]): InsertChunk[] {
  const chunks: InsertChunk[] = [];
  let texts: string[] = [];
  let bytes = 2;
  const flush = () => {
    if (texts.length > 0) chunks.push({ json: `[${texts.join(",")}]` });
    texts = [];
    bytes = 2;
  };
  for (const row of rows) {
    const text = rowJson(attributes, row);
    const size = utf8Length(text) + 1;
    if (size + 2 > MAX_VALUE_BYTES) {
      flush();
      chunks.push({ row });
      continue;
    }
    if (bytes + size > MAX_VALUE_BYTES) flush();
    texts.push(text);
    bytes += size;
  }
  flush();
  return chunks;
}

function metaStatement(model: ResolvedModel, sql: string, params: ParamWriter): Statement<Meta> {
  return new Statement({ sql, params: params.params, sources: params.sources }, model, "meta", (_rows, meta) => meta);
}

/**
 * What follows the rows of an INSERT: nothing (undefined), `ON CONFLICT DO NOTHING`, or an upsert's clause, whose
 * WHERE binds values after the rows' own (so each INSERT writes it with its own ParamWriter).
 */
type ConflictClause = ((params: ParamWriter) => string) | undefined;

/** One INSERT of a chunk of rows: `... SELECT ... FROM json_each(?) WHERE true` (the WHERE keeps an ON CONFLICT unambiguous). */
function chunkInsert(model: ResolvedModel, attributes: readonly Attribute[], chunk: InsertChunk, conflict: ConflictClause): Statement<Meta> {
  const params = new ParamWriter();
  const rows =
    "json" in chunk
      ? `${selectFromJson(attributes, chunk.json, params)} WHERE true`
      : `VALUES (${chunk.row.map((stored, index) => params.bind(stored, { kind: "value", attribute: attributes[index]! })).join(", ")})`;
  return metaStatement(model, `INSERT INTO ${model.quotedTable} (${columnList(attributes)}) ${rows}${conflict?.(params) ?? ""}`, params);
}

/**
 * The INSERTs of rows that give no value at all (every column has a default): one row alone is `DEFAULT VALUES`,
 * as `create({})` sends; several, or one with a conflict clause (which `DEFAULT VALUES` cannot take), give the
 * integer key NULL in one statement so that SQLite numbers them.
 */
function defaultRowInserts(model: ResolvedModel, count: number, conflict: ConflictClause, operation: string): Statement<Meta>[] {
  const key = model.primaryKey;
  if (count === 1 && conflict === undefined) return [metaStatement(model, `INSERT INTO ${model.quotedTable} DEFAULT VALUES`, new ParamWriter())];
  if (key.typeName !== "integer") {
    throw new TypeError(`${model.name}.${operation}: rows that give no value can be written only one at a time, without onDuplicate, unless the primary key is an integer`);
  }
  return rowInserts(model, [key], Array.from({ length: count }, () => [null]), conflict, operation);
}

/** The INSERTs of rows: as many as keep each bound value within D1's limit, sent together in one atomic batch. */
function rowInserts(model: ResolvedModel, attributes: readonly Attribute[], rows: readonly unknown[][], conflict: ConflictClause, operation: string): Statement<Meta>[] {
  if (attributes.length === 0) return defaultRowInserts(model, rows.length, conflict, operation);
  return insertChunks(attributes, rows).map((chunk) => chunkInsert(model, attributes, chunk, conflict));
}

/** One Statement of the INSERTs: itself when there is one, else one sent as its parts in one atomic batch. */
function insertStatement(modelClass: BuildsRecords, parts: Statement<Meta>[]): Statement<Meta> {
  const database = databaseOfModel(modelClass);
  if (parts.length > 1) return Statement.ofParts(parts, (_rows, meta) => meta, database);
  const only = parts[0]!;
  return new Statement(only, only.model, "meta", only.read, database);
}

function toInsertAll(this: BuildsRecords, list: readonly object[], options?: InsertOptions): Statement<Meta> {
  const { model, attributes, rows } = rowsToInsert(this, list, "insertAll");
  const { onDuplicate } = optionsArgument(`${model.name}.insertAll`, options);
  if (onDuplicate !== undefined && onDuplicate !== "skip" && onDuplicate !== "raise") {
    throw argumentError(`${model.name}.insertAll: onDuplicate`, `"skip" or "raise"`, onDuplicate);
  }
  const conflict: ConflictClause = onDuplicate === "skip" ? () => " ON CONFLICT DO NOTHING" : undefined;
  return insertStatement(this, rowInserts(model, attributes, rows, conflict, "insertAll"));
}

/**
 * What an upsert does to an existing row: sets the attributes the caller gave (never defaults, keys or createdAt),
 * and the update timestamps a plugin filled in (the `updateTimestamp` attributes: `updatedAt` with the timestamps
 * plugin) only when one of their values changes, as Rails' upsert_all does and as a save with nothing to change
 * leaves them alone; only where the row meets the conditions `rows:planWrite` hooks added (tenancy's). With nothing
 * to set, the row is left as it is.
 */
function conflictAction(model: ResolvedModel, updates: string[], touched: string[], plan: RowsWritePlan, params: ParamWriter): string {
  if (updates.length === 0) return "DO NOTHING";
  const existing = (column: string) => `${model.quotedTable}.${quoteIdentifier(column)}`;
  const incoming = (column: string) => `excluded.${quoteIdentifier(column)}`;
  const assignments = updates.map((column) => `${quoteIdentifier(column)} = ${incoming(column)}`);
  const unchanged = updates.map((column) => `${existing(column)} IS ${incoming(column)}`).join(" AND ");
  for (const column of touched) {
    assignments.push(`${quoteIdentifier(column)} = CASE WHEN ${unchanged} THEN ${existing(column)} ELSE ${incoming(column)} END`);
  }
  const conditions = rowsWhereTerms(plan, params);
  return `DO UPDATE SET ${assignments.join(", ")}${conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : ""}`;
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
  const { model, attributes, rows, given } = rowsToInsert(this, list, "upsertAll");
  const uniqueBy = uniqueColumns(model, options);
  const columns = attributes.map((attribute) => attribute.column);
  const givenColumns = given.map((attribute) => attribute.column);
  const updates = columns.filter((column) => givenColumns.includes(column) && !uniqueBy.includes(column) && column !== model.primaryKey.column);
  // An update timestamp the caller gave is set as given; one a plugin filled in is touched only on a change.
  const touched = attributes.filter((attribute) => attribute.updateTimestamp && !givenColumns.includes(attribute.column)).map((attribute) => attribute.column);
  const plan = planRowsWrite(model, "upsertAll");
  const conflict = (params: ParamWriter) => ` ON CONFLICT (${uniqueBy.map(quoteIdentifier).join(", ")}) ${conflictAction(model, updates, touched, plan, params)}`;
  return insertStatement(this, rowInserts(model, attributes, rows, conflict, "upsertAll"));
}

// The callers are async and build their Statement inside, so bad input rejects rather than throws.
function runOn<T>(model: BuildsRecords, statement: Statement<T>): Promise<T> {
  return model.all().run(statement);
}

// The Statement is built even for none(), so bad input is refused alike whether or not anything could match.
function changedRows(relation: Relation, statement: Statement<number>): Promise<number> {
  return relation.description.none ? Promise.resolve(0) : relation.run(statement);
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

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** Sets attributes on every matching row, skipping validations and callbacks; resolves to the rows changed. */
    updateAll(attributes: AssignAttributes<AttributesOfRecord<R>>): Promise<number>;
    /** Deletes every matching row, skipping callbacks; resolves to the rows deleted. */
    deleteAll(): Promise<number>;
    /** `updateAll` as a Statement for `batch`. */
    toUpdateAll(attributes: AssignAttributes<AttributesOfRecord<R>>): Statement<number>;
    /** `deleteAll` as a Statement for `batch`. */
    toDeleteAll(): Statement<number>;
  }

  interface PluginStatics<A> {
    /** `all().updateAll(attributes)`. */
    updateAll<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>): Promise<number>;
    /** `all().deleteAll()`. */
    deleteAll(): Promise<number>;
    /** `all().toUpdateAll(attributes)`. */
    toUpdateAll<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>): Statement<number>;
    /** `all().toDeleteAll()`. */
    toDeleteAll(): Statement<number>;
    /** Inserts one row, skipping validations and callbacks; resolves to D1's `meta`. */
    insert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: InsertOptions): Promise<WriteMeta>;
    /** Inserts rows in one statement (bound as one JSON value); resolves to D1's `meta`. */
    insertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: InsertOptions): Promise<WriteMeta>;
    /** Inserts a row, or updates it when its key exists. */
    upsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: UpsertOptions<AttributesOfModel<M>>): Promise<WriteMeta>;
    /** Inserts rows, updating those whose key exists. */
    upsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: UpsertOptions<AttributesOfModel<M>>): Promise<WriteMeta>;
    /** `insert` as a Statement for `batch`. */
    toInsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: InsertOptions): Statement<WriteMeta>;
    /** `insertAll` as a Statement for `batch`. */
    toInsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: InsertOptions): Statement<WriteMeta>;
    /** `upsert` as a Statement for `batch`. */
    toUpsert<M extends AnyModel>(this: M, attributes: AssignAttributes<AttributesOfModel<M>>, options?: UpsertOptions<AttributesOfModel<M>>): Statement<WriteMeta>;
    /** `upsertAll` as a Statement for `batch`. */
    toUpsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<AttributesOfModel<M>>[], options?: UpsertOptions<AttributesOfModel<M>>): Statement<WriteMeta>;
  }
}
