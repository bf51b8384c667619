/**
 * What `g migration <Name> <column>...` writes, read from the name as Rails does:
 * `Add<Columns>To<Table>` adds the columns, `Remove<Columns>From<Table>` drops them, `Create<Table>` makes a table
 * in recordflare's shape, and any other name (or one given no columns) gives an empty migration to fill in.
 * `Add...To<Table>` also adds indexes, on columns the table has (`AddIndexToVotes 'user_id+link_id:unique'`).
 * The table of Add and Remove must exist in the migrations so far; the columns are checked against it, and so is
 * the table each reference points at.
 */
import { underscore } from "../kernel/index.js";
import { attributeTypeOf } from "./column-types.js";
import { type ColumnSpec, columnsOf, type GeneratorArguments, indexOfColumn, parseArguments } from "./columns.js";
import { addColumnStatements, createTableStatements, dropColumnStatements, type IdType, referencedKeys } from "./ddl.js";
import { CliError } from "./errors.js";
import { indexName, type IndexSpec, resolveIndex } from "./index-specs.js";
import { refuseLongName } from "./name-length.js";
import { isWordsName } from "./name-words.js";
import { refuseReservedTable } from "./reserved-table-names.js";
import type { MigratedDatabase, TableInfo } from "./schema-reader.js";

/** A migration to write: its name in snake_case (the file is `<nnnn>_<slug>.sql`) and its statements. */
export interface MigrationPlan {
  readonly slug: string;
  readonly statements: readonly string[];
}


/** The comment an empty migration holds. */
export const EMPTY_MIGRATION_COMMENT =
  "-- Write the SQL of this migration here, then run `npx recordflare schema` to update src/db/schema.ts.";

// The table of `add_..._to_<table>` or `remove_..._from_<table>`: the first split whose table exists.
function tableAfter(slug: string, verb: string, joiner: string, database: MigratedDatabase): { name: string; table?: TableInfo } | undefined {
  if (!slug.startsWith(`${verb}_`)) return undefined;
  const candidates: string[] = [];
  for (let at = slug.indexOf(joiner, verb.length); at !== -1; at = slug.indexOf(joiner, at + 1)) {
    const name = slug.slice(at + joiner.length);
    if (name !== "" && at > verb.length) candidates.push(name);
  }
  if (candidates.length === 0) return undefined;
  for (const name of candidates) {
    const table = database.table(name);
    if (table) return { name, table };
  }
  return { name: candidates[candidates.length - 1]! };
}

function existingTable(found: { name: string; table?: TableInfo }, name: string, database: MigratedDatabase): TableInfo {
  if (found.table) return found.table;
  refuseReservedTable(found.name, name, "a generated migration changes only the app's own tables");
  const known = database.tables().map((table) => table.name);
  const list = known.length === 0 ? "the migrations make no tables yet" : `tables: ${known.join(", ")}`;
  throw new CliError(`${name}: there is no table ${found.name} (${list}).`);
}

/**
 * The statements of `Add...To<Table>`: each column added, with its index; a column the table has, given with an
 * index modifier only (`url:index`), gets the index alone; an index of several columns may name the table's columns
 * and those added.
 */
function addStatements(table: TableInfo, { columns: specs, indexes }: GeneratorArguments, idType: IdType, database: MigratedDatabase): string[] {
  const has = (name: string) => table.columns.some((column) => column.name === name);
  const indexedOnly = specs.filter((spec) => spec.onlyIndexed && has(spec.column));
  const added = specs.filter((spec) => !indexedOnly.includes(spec));
  for (const spec of added) {
    for (const name of columnsOf(spec)) {
      if (has(name)) throw new CliError(`Column "${spec.source}": ${table.name} already has a column ${name}.`);
    }
    if (spec.type !== "references" && spec.required && spec.defaultSql === undefined) {
      throw new CliError(
        `Column "${spec.source}": a NOT NULL column added to an existing table needs a default, which its existing rows take (for example ${spec.source}=<value>).`,
      );
    }
  }
  for (const spec of indexedOnly) refuseNocaseOfOtherType(spec, table);
  const columns = [...table.columns.map((column) => column.name), ...added.flatMap(columnsOf)];
  const newIndexes = [...indexedOnly.map((spec) => indexOfColumn(spec)!), ...indexes.map((index) => resolveIndex(index, table.name, columns))];
  for (const index of [...newIndexes, ...added.flatMap((spec) => indexOfColumn(spec) ?? [])]) refuseExistingIndex(table, index);
  return addColumnStatements(table.name, added, newIndexes, idType, referencedKeys(database, undefined, idType));
}

// NOCASE folds letters of text: on a column the table holds as another type it would only make a plain unique index
// look case-insensitive, as for a new column (see `parseColumn`).
function refuseNocaseOfOtherType(spec: ColumnSpec, table: TableInfo): void {
  if (spec.index !== "uniqueNocase") return;
  const column = table.columns.find((candidate) => candidate.name === spec.column)!;
  const type = attributeTypeOf(column.declaredType, column.jsonChecked);
  if (type !== "string") throw new CliError(`Column "${spec.source}": :unique_nocase is for string columns, not ${type ?? "a column of no type"} (${table.name}.${column.name}).`);
}

// Throws `CliError` for an index whose name an index of the table has.
function refuseExistingIndex(table: TableInfo, index: IndexSpec): void {
  const name = indexName(table.name, index.label);
  const existing = table.indexes.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
  if (existing) throw new CliError(`Index "${index.source}": ${table.name} already has the index ${existing.name}, on ${existing.columns.join(", ")}.`);
}

function removeStatements(table: TableInfo, specs: readonly ColumnSpec[]): string[] {
  const indexes = new Set<string>();
  for (const spec of specs) {
    for (const name of columnsOf(spec)) {
      const column = table.columns.find((candidate) => candidate.name === name);
      if (!column) throw new CliError(`Column "${spec.source}": ${table.name} has no column ${name}.`);
      if (column.primaryKey > 0) throw new CliError(`Column "${spec.source}": ${name} is the primary key of ${table.name}; it cannot be dropped.`);
      for (const index of table.indexes.filter((candidate) => candidate.columns.includes(name))) {
        if (index.origin !== "c") {
          throw new CliError(
            `Column "${spec.source}": ${table.name}.${name} has a UNIQUE constraint, which SQLite cannot drop with ALTER TABLE; write a migration that rebuilds the table.`,
          );
        }
        indexes.add(index.name);
      }
    }
  }
  return dropColumnStatements(table.name, specs.flatMap(columnsOf), [...indexes].sort());
}

/**
 * The migration `g migration` writes for a name and column arguments, checked against the tables the existing
 * migrations make. Throws `CliError` for a bad name or column, an unknown table or column, or columns given to
 * a name that takes none.
 */
export function planMigration(name: string | undefined, columnArguments: readonly string[], idType: IdType, database: MigratedDatabase): MigrationPlan {
  if (name === undefined || name === "") throw new CliError("Give the migration's name: recordflare g migration <Name> [column...]");
  refuseLongName("migration", name);
  if (!isWordsName(name, "_")) {
    throw new CliError(`"${name}" is not a migration name: use letters, digits and _, starting with a letter, with one _ between words and none at the end (AddEmailToUsers).`);
  }
  const slug = underscore(name);
  const parsed = parseArguments(columnArguments);
  if (parsed.columns.length + parsed.indexes.length === 0) return { slug, statements: [EMPTY_MIGRATION_COMMENT] };

  const created = /^create_([a-z0-9_]+)$/.exec(slug);
  if (created) {
    const table = created[1]!;
    refuseReservedTable(table, name, "choose another table name");
    if (database.table(table)) throw new CliError(`${name}: the table ${table} already exists.`);
    return { slug, statements: createTableStatements(table, parsed, idType, referencedKeys(database, table, idType)) };
  }
  const added = tableAfter(slug, "add", "_to_", database);
  if (added) return { slug, statements: addStatements(existingTable(added, name, database), parsed, idType, database) };
  const removed = tableAfter(slug, "remove", "_from_", database);
  if (removed) {
    const [index] = parsed.indexes;
    if (index) throw new CliError(`Index "${index.source}": ${name} drops columns; to drop an index alone, give no columns and write DROP INDEX <name>.`);
    return { slug, statements: removeStatements(existingTable(removed, name, database), parsed.columns) };
  }
  throw new CliError(
    `${name}: columns are given only to Add<Columns>To<Table>, Remove<Columns>From<Table> or Create<Table>; for another change, give no columns and write the SQL.`,
  );
}
