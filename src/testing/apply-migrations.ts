import type { D1DatabaseLike } from "../kernel/index.js";
import { quoteIdentifier } from "../kernel/index.js";

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

/**
 * Applies the migrations not yet recorded in the migrations table, in order, each with its record in one atomic
 * batch (as `wrangler d1 migrations apply` does), so that a failed migration leaves nothing half-applied and the
 * next run starts from it; resolves to the names applied. Run it in a test setup file, before each test file.
 */
export async function applyMigrations(db: D1DatabaseLike, migrations: readonly Migration[], options: ApplyMigrationsOptions = {}): Promise<string[]> {
  if (!Array.isArray(migrations)) throw new TypeError("applyMigrations takes the list readMigrations gives, as { name, queries } objects");
  const table = quoteIdentifier(options.table ?? "d1_migrations");
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
