import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/testing/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { withoutD1Limits } from "../helpers/d1-limits.js";

const db = () => withoutD1Limits(env.DB);
const names = async (table: string) => (await db().prepare(`SELECT name FROM ${table} ORDER BY id`).all<{ name: string }>()).results.map((row) => row.name);

afterEach(async () => {
  await db().exec("DROP TABLE IF EXISTS am_first; DROP TABLE IF EXISTS am_second; DROP TABLE IF EXISTS am_migrations;");
});

const MIGRATIONS = [
  { name: "0001_first.sql", queries: ["CREATE TABLE am_first (id INTEGER PRIMARY KEY)", "INSERT INTO am_first (id) VALUES (1)"] },
  { name: "nested/0002_second/migration.sql", queries: ["CREATE TABLE am_second (id INTEGER PRIMARY KEY)"] },
];

describe("recordflare/testing: applyMigrations", () => {
  it("applies what the migrations table does not record, in order, and records each; a second run applies nothing", async () => {
    expect(await applyMigrations(db(), MIGRATIONS, { table: "am_migrations" })).toEqual(["0001_first.sql", "nested/0002_second/migration.sql"]);
    expect(await names("am_migrations")).toEqual(["0001_first.sql", "nested/0002_second/migration.sql"]);
    expect(await applyMigrations(db(), MIGRATIONS, { table: "am_migrations" })).toEqual([]);
    expect((await db().prepare("SELECT COUNT(*) AS n FROM am_first").first<{ n: number }>())!.n).toBe(1);
  });

  it("refuses a db that is no binding, a list not as readMigrations gives it, and an unknown or wrongly typed option", async () => {
    await expect(applyMigrations("DB" as never, MIGRATIONS)).rejects.toThrow(`applyMigrations takes a D1 binding (env.DB, not its name), not "DB"`);
    await expect(applyMigrations(db(), [{ name: "0001.sql" }] as never)).rejects.toThrow("applyMigrations takes the list readMigrations gives, as { name, queries } objects");
    await expect(applyMigrations(db(), MIGRATIONS, { tabel: "am_migrations" } as never)).rejects.toThrow('applyMigrations: "tabel" is not an option; the options are table');
    await expect(applyMigrations(db(), MIGRATIONS, { table: 5 } as never)).rejects.toThrow("applyMigrations: table takes the name of a table, not 5");
    expect(await db().prepare("SELECT name FROM sqlite_master WHERE name = 'am_first'").first()).toBeNull();
  });

  it("a failing migration names itself and leaves nothing of it applied or recorded", async () => {
    const failing = [MIGRATIONS[0]!, { name: "0002_broken.sql", queries: ["CREATE TABLE am_second (id INTEGER PRIMARY KEY)", "INSERT INTO nowhere VALUES (1)"] }];
    const error = await rejectionOf(applyMigrations(db(), failing, { table: "am_migrations" }));
    expect(error.message).toMatch(/^applyMigrations: migration 0002_broken\.sql failed: .*no such table: nowhere/);
    expect(await names("am_migrations")).toEqual(["0001_first.sql"]);
    expect(await db().prepare("SELECT name FROM sqlite_master WHERE name = 'am_second'").first()).toBeNull();
  });
});
