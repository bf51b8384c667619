/**
 * The SQL statements generated migrations are made of: CREATE TABLE with recordflare's table shape, ADD COLUMN,
 * DROP COLUMN, and the indexes named `index_<table>_on_<column>`.
 */
import { type AttributeTypeName, SQL_TYPES } from "./column-types.js";
import { type ColumnSpec, columnsOf, type GeneratorArguments, indexOfColumn } from "./columns.js";
import type { MigratedDatabase, TableInfo } from "./schema-reader.js";
import { CliError } from "./errors.js";
import { indexStatement, type IndexSpec, resolveIndex } from "./index-specs.js";
import { sqlIdentifier } from "./sql-identifiers.js";

// Columns every generated table has.
const GENERATED_COLUMNS: readonly string[] = ["id", "created_at", "updated_at"];

/** Kind of primary key of a new table: UUID text generated in code, or an integer assigned by the database. */
export type IdType = "uuid" | "integer";

/** The `--id` option: `uuid` (the default) or `integer`; throws `CliError` for anything else. */
export function parseIdType(value: string | undefined): IdType {
  if (value === undefined || value === "uuid" || value === "integer") return value ?? "uuid";
  throw new CliError(`--id ${value}: the key types are uuid (text generated in code, the default) and integer (assigned by the database).`);
}

/** The key a reference points at: the parent's primary key column and its SQL type. */
export interface ReferencedKey {
  readonly column: string;
  readonly sqlType: "TEXT" | "INTEGER";
}

/**
 * The key `<parent>_id` references: the parent table's single primary key (INTEGER or TEXT) when the
 * migrations already make that table, otherwise (the table the migration creates) `id` of the type its keys have.
 */
export function referencedKey(parent: TableInfo | undefined, idType: IdType): ReferencedKey {
  const keys = parent?.columns.filter((column) => column.primaryKey > 0) ?? [];
  if (keys.length === 1) {
    const [key] = keys;
    return { column: key!.name, sqlType: /INT/i.test(key!.declaredType) ? "INTEGER" : "TEXT" };
  }
  return { column: "id", sqlType: idType === "integer" ? "INTEGER" : "TEXT" };
}

/**
 * The key each reference of a migration points at, read from the tables the migrations so far make; `creating` is the
 * table the migration creates, which a self reference points at. Throws `CliError` naming the argument and the table
 * for a reference to a table no migration makes.
 */
export function referencedKeys(database: MigratedDatabase, creating: string | undefined, idType: IdType): (spec: ColumnSpec) => ReferencedKey {
  return (spec) => {
    const parentTable = spec.parentTable!;
    const parent = database.table(parentTable);
    // Table names compare in any case in SQLite, so `{Comments}` is a self reference of `comments` too.
    if (parent || parentTable.toLowerCase() === creating?.toLowerCase()) return referencedKey(parent, idType);
    const known = database.tables().map((table) => table.name);
    const tables = known.length === 0 ? "the migrations make no tables yet" : `tables: ${known.join(", ")}`;
    throw new CliError(`Column "${spec.source}": no migration makes the table ${parentTable} (${tables}); ${unknownTableAdvice(spec)}.`);
  };
}

// What to do instead: name a table in braces, or (having named one) name one that exists or ask for a polymorphic pair.
function unknownTableAdvice(spec: ColumnSpec): string {
  // A column name holds no brace and a reference takes no default, so a brace in the argument is its table in braces.
  if (spec.source.includes("{")) return "name a table the migrations make, or {polymorphic} for a parent of any table";
  return `generate its Model first, or name the parent's table in braces (${spec.source.split(":")[0]}:references{<table>})`;
}

/** How a column definition is written: NOT NULL of references, and the key each reference points at. */
export interface ColumnContext {
  /** Whether required references are NOT NULL (in CREATE TABLE) or nullable (added to an existing table). */
  readonly requiredReferences: boolean;
  readonly keyOf: (spec: ColumnSpec) => ReferencedKey;
  /** The app's kind of keys (`--id`), which a polymorphic reference's key column takes: its parents are of any table. */
  readonly idType: IdType;
}

/**
 * The column definitions of one argument: one, or for a polymorphic reference its type (`commentable_type TEXT`,
 * the parent's Model name) and its key, of the app's key type, with no REFERENCES clause (its parents are in
 * several tables).
 */
export function columnDefinitions(spec: ColumnSpec, context: ColumnContext): string[] {
  if (spec.typeColumn === undefined) return [columnDefinition(spec, context)];
  const notNull = context.requiredReferences && spec.required ? " NOT NULL" : "";
  const keyType = context.idType === "integer" ? "INTEGER" : "TEXT";
  return [`${sqlIdentifier(spec.typeColumn)} TEXT${notNull}`, `${sqlIdentifier(spec.column)} ${keyType}${notNull}`];
}

/** One column definition: `name TEXT NOT NULL DEFAULT 'x'`, a json CHECK, a REFERENCES clause. */
function columnDefinition(spec: ColumnSpec, context: ColumnContext): string {
  const name = sqlIdentifier(spec.column);
  if (spec.type === "references") {
    const key = context.keyOf(spec);
    const notNull = context.requiredReferences && spec.required ? " NOT NULL" : "";
    return `${name} ${key.sqlType}${notNull} REFERENCES ${sqlIdentifier(spec.parentTable!)} (${sqlIdentifier(key.column)})`;
  }
  const type = spec.type as AttributeTypeName;
  let definition = `${name} ${SQL_TYPES[type]}`;
  if (spec.required) definition += " NOT NULL";
  if (spec.defaultSql !== undefined) definition += ` DEFAULT ${spec.defaultSql}`;
  if (type === "json") definition += spec.required ? ` CHECK (json_valid(${name}))` : ` CHECK (${name} IS NULL OR json_valid(${name}))`;
  return definition;
}

/** CREATE INDEX for the columns that ask for one (`:unique`, `:index`, references), in column order, then the indexes of several columns. */
function indexStatements(table: string, columns: readonly ColumnSpec[], indexes: readonly IndexSpec[]): string[] {
  return [...columns.flatMap((spec) => indexOfColumn(spec) ?? []), ...indexes].map((spec) => indexStatement(table, spec));
}

/**
 * CREATE TABLE in recordflare's shape, then its indexes: `id` (UUID text, or an integer the database assigns),
 * the references, the other declared columns in the order given, `created_at` and `updated_at`. Throws `CliError`
 * for an index of several columns naming one the table will not have (see `resolveIndex`).
 */
export function createTableStatements(table: string, { columns: specs, indexes }: GeneratorArguments, idType: IdType, keyOf: ColumnContext["keyOf"]): string[] {
  const generated = specs.find((spec) => GENERATED_COLUMNS.includes(spec.column));
  if (generated) throw new CliError(`Column "${generated.source}": ${generated.column} is added to every table by the generator; leave it out.`);
  const context: ColumnContext = { requiredReferences: true, keyOf, idType };
  const ordered = [...specs.filter((spec) => spec.type === "references"), ...specs.filter((spec) => spec.type !== "references")];
  const definitions = [
    idType === "integer" ? "id INTEGER PRIMARY KEY" : "id TEXT PRIMARY KEY NOT NULL",
    ...ordered.flatMap((spec) => columnDefinitions(spec, context)),
    "created_at DATETIME NOT NULL",
    "updated_at DATETIME NOT NULL",
  ];
  const create = `CREATE TABLE ${sqlIdentifier(table)} (\n${definitions.map((definition) => `  ${definition}`).join(",\n")}\n);`;
  const columns = [GENERATED_COLUMNS[0]!, ...ordered.flatMap(columnsOf), ...GENERATED_COLUMNS.slice(1)];
  return [create, ...indexStatements(table, ordered, indexes.map((index) => resolveIndex(index, table, columns)))];
}

/**
 * ALTER TABLE ... ADD COLUMN for each column, then their indexes and `indexes` (whose columns the caller checked).
 * References are nullable here (see `g migration`).
 */
export function addColumnStatements(table: string, specs: readonly ColumnSpec[], indexes: readonly IndexSpec[], idType: IdType, keyOf: ColumnContext["keyOf"]): string[] {
  const context: ColumnContext = { requiredReferences: false, keyOf, idType };
  return [
    ...specs.flatMap((spec) => columnDefinitions(spec, context)).map((definition) => `ALTER TABLE ${sqlIdentifier(table)} ADD COLUMN ${definition};`),
    ...indexStatements(table, specs, indexes),
  ];
}

/** DROP INDEX for the given indexes, then ALTER TABLE ... DROP COLUMN for each column. */
export function dropColumnStatements(table: string, columns: readonly string[], indexes: readonly string[]): string[] {
  return [
    ...indexes.map((index) => `DROP INDEX ${sqlIdentifier(index)};`),
    ...columns.map((column) => `ALTER TABLE ${sqlIdentifier(table)} DROP COLUMN ${sqlIdentifier(column)};`),
  ];
}
