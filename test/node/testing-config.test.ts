// recordflare/testing/config: reading an app's migrations as wrangler finds and splits them, for its Vitest config.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "../../src/testing/migration-files.js";

let folder: string | undefined;

// Loading wrangler, which reads the configuration and splits the SQL, takes seconds on a busy machine.
beforeAll(async () => {
  await import("wrangler");
}, 120_000);

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** An app folder with the given files (path to text). */
function app(files: Record<string, string>): string {
  folder = mkdtempSync(path.join(tmpdir(), "recordflare-testing-config-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

const jsonc = (database: object) => `{
  // the app's Worker
  "name": "app",
  "main": "src/index.ts",
  "compatibility_date": "2026-11-01",
  "d1_databases": [${JSON.stringify({ binding: "DB", database_name: "app", database_id: "00000000-0000-4000-8000-000000000000", ...database })}]
}`;

describe("readMigrations", () => {
  it("reads the binding's migrations_dir in wrangler's order (by number), split into statements, trailing comments left out", async () => {
    const root = app({
      "wrangler.jsonc": jsonc({ migrations_dir: "db/migrations", migrations_table: "schema_versions" }),
      "db/migrations/0010_add_index.sql": "CREATE INDEX i ON notes (title);\n-- a trailing comment\n",
      "db/migrations/0002_create_notes.sql": "-- Migration number: 0002\nCREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT DEFAULT 'a;b');\nINSERT INTO notes (title) VALUES ('x'); -- seed\n",
      "db/migrations/README.md": "not a migration",
    });
    const { migrations, table } = await readMigrations({ config: path.join(root, "wrangler.jsonc") });
    expect(table).toBe("schema_versions");
    expect(migrations.map((migration) => migration.name)).toEqual(["0002_create_notes.sql", "0010_add_index.sql"]);
    expect(migrations[0]!.queries).toHaveLength(2);
    expect(migrations[0]!.queries[0]).toContain("DEFAULT 'a;b'");
    expect(migrations[1]!.queries).toEqual(["CREATE INDEX i ON notes (title)"]);
  });

  it("reads nested layouts through migrations_pattern, as drizzle writes them, and a wrangler.toml", async () => {
    const root = app({
      "wrangler.toml": `name = "app"\nmain = "src/index.ts"\ncompatibility_date = "2026-11-01"\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "app"\ndatabase_id = "00000000-0000-4000-8000-000000000000"\nmigrations_dir = "drizzle"\nmigrations_pattern = "drizzle/*/migration.sql"\n`,
      "drizzle/0001_init/migration.sql": "CREATE TABLE a (id INTEGER PRIMARY KEY);",
      "drizzle/0000_first/migration.sql": "CREATE TABLE b (id INTEGER PRIMARY KEY);",
      "drizzle/0001_init/snapshot.json": "{}",
      "drizzle/meta/_journal.json": "{}",
    });
    const { migrations, table } = await readMigrations({ config: path.join(root, "wrangler.toml") });
    expect(migrations.map((migration) => migration.name)).toEqual(["0000_first/migration.sql", "0001_init/migration.sql"]);
    expect(table).toBe("d1_migrations");
  });

  it("reads a folder given directly, with a pattern of its own", async () => {
    const root = app({ "sql/0001_x.sql": "CREATE TABLE x (id INTEGER);", "sql/deep/0002_y.sql": "CREATE TABLE y (id INTEGER);" });
    const flat = await readMigrations({ migrationsDir: path.join(root, "sql") });
    expect(flat.migrations.map((migration) => migration.name)).toEqual(["0001_x.sql"]);
    const deep = await readMigrations({ migrationsDir: path.join(root, "sql"), migrationsPattern: "**/*.sql" });
    expect(deep.migrations.map((migration) => migration.name)).toEqual(["0001_x.sql", "deep/0002_y.sql"]);
  });

  it("a binding the configuration lacks, or a pattern outside migrations_dir, is refused naming the file and the setting", async () => {
    const root = app({ "wrangler.jsonc": jsonc({ migrations_dir: "migrations", migrations_pattern: "other/*.sql" }) });
    const config = path.join(root, "wrangler.jsonc");
    await expect(readMigrations({ config, binding: "ANALYTICS" })).rejects.toThrow(`has no D1 binding named "ANALYTICS"`);
    await expect(readMigrations({ config })).rejects.toThrow(/migrations_pattern "other\/\*\.sql" must start with migrations_dir "migrations\/"/);
  });

  it("a misspelt or wrongly typed option, or a pattern given without its folder, is refused naming readMigrations and the option", async () => {
    await expect(readMigrations({ migrationDir: "sql" } as never)).rejects.toThrow('readMigrations: "migrationDir" is not an option; the options are config, binding, migrationsDir, migrationsPattern');
    await expect(readMigrations({ binding: 5 } as never)).rejects.toThrow("readMigrations: binding takes a string, not 5");
    await expect(readMigrations({ migrationsPattern: "**/*.sql" })).rejects.toThrow("readMigrations: migrationsPattern is read with migrationsDir only");
    await expect(readMigrations("./wrangler.jsonc" as never)).rejects.toThrow(`readMigrations takes an options object, not "./wrangler.jsonc"`);
  });
});
