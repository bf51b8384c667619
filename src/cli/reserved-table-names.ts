/**
 * Table names that D1, Wrangler, SQLite and recordflare keep for themselves. A generated migration that made one
 * would break the app's database: `wrangler d1 migrations apply` records applied migrations in `d1_migrations`, so a
 * Model `D1Migration` would make every later migration fail to apply; and a Model on a `recordflare_` table is
 * refused at its first use.
 */
import { RESERVED_PREFIX } from "../kernel/sql/reserved-names.js";
import { CliError } from "./errors.js";

// Each reserved prefix (compared case-insensitively, as SQLite compares names) and who keeps it.
const RESERVED_PREFIXES: ReadonlyArray<{ readonly prefix: string; readonly keeper: string }> = [
  { prefix: "d1_", keeper: "D1 and Wrangler, which records applied migrations in d1_migrations" },
  { prefix: "_cf_", keeper: "D1's own tables" },
  { prefix: "sqlite_", keeper: "SQLite's own tables" },
  { prefix: RESERVED_PREFIX, keeper: "the names recordflare adds to its queries" },
];

/** Why a table name is reserved (`names starting with d1_ are kept for ...`), or undefined when it is the app's to use. */
export function reservedTableReason(table: string): string | undefined {
  const lower = table.toLowerCase();
  const reserved = RESERVED_PREFIXES.find(({ prefix }) => lower.startsWith(prefix));
  return reserved && `names starting with ${reserved.prefix} are kept for ${reserved.keeper}`;
}

/**
 * Throws `CliError` when a table the user's input names is reserved; `source` says where the name comes from
 * (`Model D1Migration`, `Column "d1_migration:references"`) and `advice` what to do instead.
 */
export function refuseReservedTable(table: string, source: string, advice: string): void {
  const reason = reservedTableReason(table);
  if (reason !== undefined) throw new CliError(`${source}: the table ${table} has a reserved name (${reason}); ${advice}.`);
}
