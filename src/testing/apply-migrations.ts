import { argumentError, checkedBinding, type D1DatabaseLike, isPlainObject, optionsArgument, quoteIdentifier } from "../kernel/index.js";

/** A migration to apply: its name (as recorded in the migrations table) and its statements (`readMigrations` gives them). */
export interface Migration {
  readonly name: string;
  readonly queries: readonly string[];
}

/** Options of `applyMigrations`. */
export interface ApplyMigrationsOptions {
  /** The table that records applied migrations (`readMigrations` gives the binding's `migrations_table`). Default: `"d1_migrations"`. */
  table?: string;
}

/** Whether an item of the list is a migration as `readMigrations` gives it: a name and its statements. */
function isMigration(migration: unknown): boolean {
  const { name, queries } = (isPlainObject(migration) ? migration : {}) as Partial<Migration>;
  return typeof name === "string" && Array.isArray(queries) && queries.every((query) => typeof query === "string");
}

/**
 * Applies the migrations not yet recorded in the migrations table, in order, each with its record in one atomic
 * batch (as `wrangler d1 migrations apply` does), so that a failed migration leaves nothing half-applied and the
 * next run starts from it; resolves to the names applied. Run it in a test setup file, before each test file.
 * Throws `TypeError` naming `applyMigrations` for a `db` that is no D1 binding, a list not as `readMigrations`
 * gives it, and an option other than `table`.
 */
export async function applyMigrations(db: D1DatabaseLike, migrations: readonly Migration[], options?: ApplyMigrationsOptions): Promise<string[]> {
  checkedBinding("applyMigrations", db);
  if (!Array.isArray(migrations) || !migrations.every(isMigration)) throw new TypeError("applyMigrations takes the list readMigrations gives, as { name, queries } objects");
  const { table: name = "d1_migrations" } = optionsArgument("applyMigrations", options, ["table"]);
  if (typeof name !== "string") throw argumentError("applyMigrations: table", "the name of a table", name);
  const table = quoteIdentifier(name);
  await db.prepare(`CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`).run();
  const recorded = await db.prepare(`SELECT name FROM ${table}`).all<{ name: string }>();
  const applied = new Set(recorded.results.map((row) => row.name));
  const names: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue;
    const statements = [...migration.queries.map((query: string) => db.prepare(query)), db.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(migration.name)];
    try {
      await db.batch(statements);
    } catch (cause) {
      throw new Error(`applyMigrations: migration ${migration.name} failed: ${(cause as Error).message}`, { cause });
    }
    names.push(migration.name);
  }
  return names;
}
