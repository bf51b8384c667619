/**
 * The SQL statements generated migrations are made of: CREATE TABLE with recordflare's table shape, ADD COLUMN,
 * DROP COLUMN, and the indexes named `index_<table>_on_<column>`.
 */
import { type AttributeTypeName, SQL_TYPES } from "./column-types.js";
import { type ColumnSpec, columnsOf } from "./columns.js";
import type { TableInfo } from "./schema-reader.js";
import { CliError } from "./errors.js";
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
 * migrations already make that table, otherwise `id` of the type the new table's own keys have.
 */
export function referencedKey(parent: TableInfo | undefined, idType: IdType): ReferencedKey {
  const keys = parent?.columns.filter((column) => column.primaryKey > 0) ?? [];
  if (keys.length === 1) {
    const [key] = keys;
    return { column: key!.name, sqlType: /INT/i.test(key!.declaredType) ? "INTEGER" : "TEXT" };
  }
  return { column: "id", sqlType: idType === "integer" ? "INTEGER" : "TEXT" };
}

/** How a column definition is written: NOT NULL of references, and the key each reference points at. */
export interface ColumnContext {
  /** Whether references are NOT NULL (in CREATE TABLE) or nullable (added to an existing table). */
  readonly requiredReferences: boolean;
  readonly keyOf: (parentTable: string) => ReferencedKey;
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
  const notNull = context.requiredReferences ? " NOT NULL" : "";
  const keyType = context.idType === "integer" ? "INTEGER" : "TEXT";
  return [`${sqlIdentifier(spec.typeColumn)} TEXT${notNull}`, `${sqlIdentifier(spec.column)} ${keyType}${notNull}`];
}

/** One column definition: `name TEXT NOT NULL DEFAULT 'x'`, a json CHECK, a REFERENCES clause. */
function columnDefinition(spec: ColumnSpec, context: ColumnContext): string {
  const name = sqlIdentifier(spec.column);
  if (spec.type === "references") {
    const key = context.keyOf(spec.parentTable!);
    const notNull = context.requiredReferences ? " NOT NULL" : "";
    return `${name} ${key.sqlType}${notNull} REFERENCES ${sqlIdentifier(spec.parentTable!)} (${sqlIdentifier(key.column)})`;
  }
  const type = spec.type as AttributeTypeName;
  let definition = `${name} ${SQL_TYPES[type]}`;
  if (spec.required) definition += " NOT NULL";
  if (spec.defaultSql !== undefined) definition += ` DEFAULT ${spec.defaultSql}`;
  if (type === "json") definition += spec.required ? ` CHECK (json_valid(${name}))` : ` CHECK (${name} IS NULL OR json_valid(${name}))`;
  return definition;
}

/** The name of the index on one column: `index_users_on_email`. */
export function indexName(table: string, column: string): string {
  return `index_${table}_on_${column}`;
}

/**
 * CREATE INDEX statements for the columns that ask for one (`:unique`, `:unique_nocase`, `:index`, references), in
 * column order. `:unique_nocase` indexes the column `COLLATE NOCASE`, which SQLite uses for `column = ? COLLATE NOCASE`.
 * A polymorphic reference has one index on its type and key, named for the association as Rails names it
 * (`index_comments_on_commentable`): its rows are always looked up by both.
 */
export function indexStatements(table: string, specs: readonly ColumnSpec[]): string[] {
  return specs
    .filter((spec) => spec.index !== undefined)
    .map((spec) => {
      const unique = spec.index === "unique" || spec.index === "uniqueNocase" ? "UNIQUE " : "";
      const collation = spec.index === "uniqueNocase" ? " COLLATE NOCASE" : "";
      const named = spec.typeColumn === undefined ? spec.column : spec.column.slice(0, -"_id".length);
      const columns = columnsOf(spec).map((column) => `${sqlIdentifier(column)}${collation}`).join(", ");
      return `CREATE ${unique}INDEX ${sqlIdentifier(indexName(table, named))} ON ${sqlIdentifier(table)} (${columns});`;
    });
}

/**
 * CREATE TABLE in recordflare's shape, then its indexes: `id` (UUID text, or an integer the database assigns),
 * the references, the other declared columns in the order given, `created_at` and `updated_at`.
 */
export function createTableStatements(table: string, specs: readonly ColumnSpec[], idType: IdType, keyOf: ColumnContext["keyOf"]): string[] {
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
  return [create, ...indexStatements(table, ordered)];
}

/** ALTER TABLE ... ADD COLUMN for each column, then their indexes. References are nullable here (see `g migration`). */
export function addColumnStatements(table: string, specs: readonly ColumnSpec[], idType: IdType, keyOf: ColumnContext["keyOf"]): string[] {
  const context: ColumnContext = { requiredReferences: false, keyOf, idType };
  return [
    ...specs.flatMap((spec) => columnDefinitions(spec, context)).map((definition) => `ALTER TABLE ${sqlIdentifier(table)} ADD COLUMN ${definition};`),
    ...indexStatements(table, specs),
  ];
}

/** DROP INDEX for the given indexes, then ALTER TABLE ... DROP COLUMN for each column. */
export function dropColumnStatements(table: string, columns: readonly string[], indexes: readonly string[]): string[] {
  return [
    ...indexes.map((index) => `DROP INDEX ${sqlIdentifier(index)};`),
    ...columns.map((column) => `ALTER TABLE ${sqlIdentifier(table)} DROP COLUMN ${sqlIdentifier(column)};`),
  ];
}
