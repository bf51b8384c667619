/**
 * The schema the migrations make, read back from SQLite itself: the migrations are applied in order to an
 * in-memory `node:sqlite` database, and tables, columns, indexes and foreign keys are read with PRAGMAs.
 * No SQL is parsed here; SQLite is the parser.
 */
import type { DatabaseSync } from "node:sqlite";
import { CliError } from "./errors.js";
import { NodeTooOldError } from "./node-version.js";
import { reservedTableReason } from "./reserved-table-names.js";

/** A migration to apply: where it comes from (for messages) and its SQL. */
export interface MigrationSource {
  readonly file: string;
  readonly sql: string;
}

/** A column, as `PRAGMA table_info` shows it, plus whether a CHECK validates it with `json_valid`. */
export interface ColumnInfo {
  readonly name: string;
  /** The declared type as written (`TEXT`, `VARCHAR(40)`), empty when none was. */
  readonly declaredType: string;
  readonly notNull: boolean;
  /** The DEFAULT as SQL text (`0`, `'member'`, `CURRENT_TIMESTAMP`), null when none. */
  readonly defaultSql: string | null;
  /** Position in the primary key from 1, 0 when not part of it. */
  readonly primaryKey: number;
  readonly jsonChecked: boolean;
}

/** An index, as `PRAGMA index_list` and `index_info` show it. */
export interface IndexInfo {
  readonly name: string;
  readonly unique: boolean;
  /** `c` made by CREATE INDEX, `u` by a UNIQUE constraint, `pk` by the PRIMARY KEY. */
  readonly origin: string;
  /** Indexed columns; null for an expression. */
  readonly columns: readonly (string | null)[];
}

/** A foreign key column, as `PRAGMA foreign_key_list` shows it. */
export interface ForeignKeyInfo {
  readonly from: string;
  readonly table: string;
  /** The parent column; null when the REFERENCES clause names none (the parent's primary key). */
  readonly to: string | null;
}

/** A table of the app. */
export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  readonly indexes: readonly IndexInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
}

// Tables that belong to SQLite, to wrangler's migration tracking, or to D1 itself are not the app's.
function isAppTable(name: string): boolean {
  return reservedTableReason(name) === undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Whether the table's CREATE statement calls json_valid on the column: a search in SQLite's stored text, not a parse.
function hasJsonCheck(createSql: string, column: string): boolean {
  const name = escapeRegExp(column);
  const quotedColumn = `(?:"${name}"|\`${name}\`|\\[${name}\\]|${name})`;
  return new RegExp(`json_valid\\s*\\(\\s*${quotedColumn}\\s*\\)`, "i").test(createSql);
}

/**
 * Imports `node:sqlite` without its ExperimentalWarning, so a command's output stays clean. Only that warning is
 * silenced, only during the import.
 */
async function importSqlite(): Promise<typeof import("node:sqlite")> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === "ExperimentalWarning" && String(warning).includes("SQLite")) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await import("node:sqlite");
  } finally {
    process.emitWarning = emitWarning;
  }
}

type Row = Record<string, unknown>;

/** An in-memory SQLite database with the app's migrations applied; reads the tables they make. */
export class MigratedDatabase {
  private constructor(private readonly database: DatabaseSync) {}

  /**
   * An empty in-memory database with foreign keys enforced, as on D1. Throws `NodeTooOldError` when
   * `node:sqlite` is missing (Node.js older than 22.13).
   */
  static async open(): Promise<MigratedDatabase> {
    let sqlite: typeof import("node:sqlite");
    try {
      sqlite = await importSqlite();
    } catch {
      throw new NodeTooOldError();
    }
    const database = new sqlite.DatabaseSync(":memory:");
    database.exec("PRAGMA foreign_keys = ON");
    return new MigratedDatabase(database);
  }

  /** Applies migrations in the order given; throws `CliError` naming the first one SQLite refuses, with its reason. */
  apply(...migrations: readonly MigrationSource[]): this {
    for (const migration of migrations) {
      try {
        this.database.exec(migration.sql);
      } catch (error) {
        throw new CliError(`${migration.file} does not apply: ${(error as Error).message}`);
      }
    }
    return this;
  }

  /** The app's tables, sorted by name (the reserved `sqlite_*`, `d1_*` and `_cf_*`, views and virtual tables left out). */
  tables(): TableInfo[] {
    const names = this.all("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'")
      .map((row) => row.name as string)
      .filter(isAppTable)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return names.map((name) => this.table(name)!);
  }

  /**
   * One table by name, compared in any case as SQLite compares table names (a hand-written `CREATE TABLE Teams` is
   * the table `teams`), with the name as created; undefined when the migrations make no such table.
   */
  table(lookedUp: string): TableInfo | undefined {
    const created = this.all("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", lookedUp)[0];
    if (!created || !isAppTable(lookedUp)) return undefined;
    const name = created.name as string;
    const createSql = String(created.sql ?? "");
    const columns = this.all("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", name).map(
      (row): ColumnInfo => ({
        name: row.name as string,
        declaredType: (row.type as string | null) ?? "",
        notNull: row.notnull === 1,
        defaultSql: (row.dflt_value as string | null) ?? null,
        primaryKey: Number(row.pk),
        jsonChecked: hasJsonCheck(createSql, row.name as string),
      }),
    );
    const indexes = this.all("SELECT name, \"unique\", origin FROM pragma_index_list(?) ORDER BY name", name).map(
      (row): IndexInfo => ({
        name: row.name as string,
        unique: row.unique === 1,
        origin: row.origin as string,
        columns: this.all("SELECT name FROM pragma_index_info(?) ORDER BY seqno", row.name).map((info) => info.name as string | null),
      }),
    );
    const foreignKeys = this.all("SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", name).map(
      (row): ForeignKeyInfo => ({ from: row.from as string, table: row.table as string, to: (row.to as string | null) ?? null }),
    );
    return { name, columns, indexes, foreignKeys };
  }

  /** Frees the database. */
  close(): void {
    this.database.close();
  }

  private all(sql: string, ...params: unknown[]): Row[] {
    return this.database.prepare(sql).all(...(params as never[])) as Row[];
  }
}
