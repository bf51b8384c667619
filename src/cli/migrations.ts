/**
 * The migrations folder: its `.sql` files in the order wrangler applies them, and the name of the next one
 * (`<nnnn>_<name>.sql`, numbered like `wrangler d1 migrations create`: the highest number plus one, from 0001).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { MigrationSource } from "./schema-reader.js";

/** A migration file of the app. */
export interface MigrationFile extends MigrationSource {
  /** The file name, e.g. `0001_create_users.sql`. */
  readonly name: string;
  /** Its leading number, or undefined when the name has none. */
  readonly number: number | undefined;
}

/** The leading number of a migration file name, as wrangler reads it (`0007_x.sql` gives 7). */
export function migrationNumber(fileName: string): number | undefined {
  const number = Number.parseInt(fileName.split("_")[0]!, 10);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * The `.sql` files of a migrations folder (none if it does not exist), sorted by number and then by name;
 * `label` is the folder as messages name it (`migrations`).
 */
export function readMigrations(folder: string, label: string): MigrationFile[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".sql"))
    .map((entry): MigrationFile => ({
      name: entry.name,
      number: migrationNumber(entry.name),
      file: `${label}/${entry.name}`,
      sql: readFileSync(path.join(folder, entry.name), "utf8"),
    }))
    .sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The number of the next migration: one more than the highest, from 1. */
export function nextMigrationNumber(existing: readonly MigrationFile[]): number {
  return Math.max(0, ...existing.map((migration) => migration.number ?? 0)) + 1;
}

/** The file name of a migration: `0003_add_email_to_users.sql`. */
export function migrationFileName(number: number, slug: string): string {
  return `${String(number).padStart(4, "0")}_${slug}.sql`;
}

/** The text of a migration file: wrangler's header line, then the statements, ending with a newline. */
export function migrationText(number: number, slug: string, statements: readonly string[]): string {
  return [`-- Migration number: ${String(number).padStart(4, "0")} \t ${slug}`, ...statements].join("\n") + "\n";
}
