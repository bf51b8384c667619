/**
 * recordflare/testing/config: reads an app's D1 migrations the way `wrangler d1 migrations apply` finds and splits
 * them, for a Vitest config (Node) to hand to the tests, which apply them with `applyMigrations` from
 * `recordflare/testing`.
 * @packageDocumentation
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { argumentError, optionsArgument } from "../kernel/index.js";

/** A migration as the tests apply it: its name (its path under the migrations folder) and its statements. */
export type MigrationOfTests = {
  readonly name: string;
  readonly queries: string[];
};

/** Options of `readMigrations`. */
export interface ReadMigrationsOptions {
  /** The wrangler configuration file (`wrangler.jsonc`, `wrangler.json` or `wrangler.toml`). Default: wrangler's own search from the working folder. */
  config?: string;
  /** The D1 binding whose migrations to read. Default: `"DB"`. */
  binding?: string;
  /**
   * A migrations folder to read instead of the wrangler configuration's (relative to the working folder); its
   * `*.sql` files, or those `migrationsPattern` (relative to it) matches.
   */
  migrationsDir?: string;
  /** With `migrationsDir`: a glob of the files to read, relative to it (`*\/migration.sql`). Default: `*.sql`. */
  migrationsPattern?: string;
}

/** What the D1 binding of the wrangler configuration says of its migrations. */
interface MigrationsSettings {
  readonly root: string;
  readonly dir: string;
  readonly pattern: string;
  readonly table: string;
}

type Wrangler = {
  unstable_readConfig(args: { config?: string }): { configPath?: string; d1_databases?: Record<string, unknown>[] };
  unstable_splitSqlQuery(sql: string): string[];
};

/** The number a path segment starts with (`0003_add_email.sql` gives 3), as wrangler orders migrations. */
function leadingNumber(segment: string): number {
  return Number.parseInt(segment.split("_")[0]!, 10);
}

/** Wrangler's order of migration paths: segment by segment, by leading number, then by name. */
function compareMigrationPaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const [x, y] = [left[index]!, right[index]!];
    const [m, n] = [leadingNumber(x), leadingNumber(y)];
    if (m !== n && (Number.isFinite(m) || Number.isFinite(n))) return !Number.isFinite(m) ? 1 : !Number.isFinite(n) ? -1 : m - n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/** A glob (`*`, `**`, `?`; a name starting with a dot is matched only by a dot) as a regular expression over `/` paths. */
function globExpression(glob: string): RegExp {
  const noDot = "(?!\\.)";
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    const segmentStart = index === 0 || glob[index - 1] === "/";
    if (glob.startsWith("**/", index)) {
      source += `(?:${noDot}[^/]+/)*`;
      index += 2;
    } else if (glob.startsWith("**", index)) {
      source += `(?:${noDot}[^/]*(?:/${noDot}[^/]*)*)`;
      index += 1;
    } else if (char === "*") {
      source += segmentStart ? `${noDot}[^/]*` : "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

/** The files under `folder`, as `/` paths relative to it. */
function filesUnder(folder: string, prefix = ""): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const relative = `${prefix}${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path.join(folder, entry.name), `${relative}/`);
    return entry.isFile() ? [relative] : [];
  });
}

async function wrangler(): Promise<Wrangler> {
  try {
    return (await import("wrangler")) as unknown as Wrangler;
  } catch (cause) {
    throw new Error("recordflare/testing/config: wrangler is not installed; npm install --save-dev wrangler", { cause });
  }
}

function migrationsSettings(config: ReturnType<Wrangler["unstable_readConfig"]>, binding: string): MigrationsSettings {
  const database = config.d1_databases?.find((entry) => entry["binding"] === binding);
  const where = config.configPath ?? "the wrangler configuration";
  if (!database) throw new Error(`recordflare/testing/config: ${where} has no D1 binding named ${JSON.stringify(binding)}`);
  const dir = path.posix.normalize(String(database["migrations_dir"] ?? "migrations")).replace(/\/$/, "");
  const pattern = path.posix.normalize(String(database["migrations_pattern"] ?? `${dir}/*.sql`));
  if (dir !== "." && !pattern.startsWith(`${dir}/`)) {
    throw new Error(`recordflare/testing/config: ${where}: migrations_pattern ${JSON.stringify(pattern)} must start with migrations_dir ${JSON.stringify(`${dir}/`)}`);
  }
  const root = config.configPath ? path.dirname(config.configPath) : process.cwd();
  return { root, dir, pattern: dir === "." ? pattern : pattern.slice(dir.length + 1), table: String(database["migrations_table"] ?? "d1_migrations") };
}

/** `readMigrations`' options, checked: known ones only, each a string; `migrationsPattern` only with `migrationsDir`. */
function checkedOptions(options: ReadMigrationsOptions | undefined): ReadMigrationsOptions {
  const given = optionsArgument("readMigrations", options, ["config", "binding", "migrationsDir", "migrationsPattern"]);
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined && typeof value !== "string") throw argumentError(`readMigrations: ${name}`, "a string", value);
  }
  if (given.migrationsPattern !== undefined && given.migrationsDir === undefined) {
    throw new TypeError("readMigrations: migrationsPattern is read with migrationsDir only; the wrangler configuration's migrations_pattern applies otherwise");
  }
  return given;
}

/**
 * The migrations of a D1 binding, as `wrangler d1 migrations apply` finds them: the files of its `migrations_dir`
 * (`migrations` by default) that match its `migrations_pattern` (`*.sql` in that folder by default; nested layouts
 * such as `migrations/*\/migration.sql` too), in wrangler's order, each split into statements by wrangler's own
 * splitter (so a file ending in a comment applies as wrangler applies it). Also the name of the table that records
 * applied migrations (`migrations_table`). Needs Node.js and the app's wrangler.
 */
export async function readMigrations(options?: ReadMigrationsOptions): Promise<{ migrations: MigrationOfTests[]; table: string }> {
  options = checkedOptions(options);
  const { unstable_readConfig, unstable_splitSqlQuery } = await wrangler();
  const settings = options.migrationsDir
    ? { root: process.cwd(), dir: options.migrationsDir, pattern: options.migrationsPattern ?? "*.sql", table: "d1_migrations" }
    : migrationsSettings(unstable_readConfig({ config: options.config }), options.binding ?? "DB");
  const folder = path.resolve(settings.root, settings.dir);
  const matches = globExpression(settings.pattern);
  const names = filesUnder(folder).filter((name) => matches.test(name)).sort(compareMigrationPaths);
  const migrations = names.map((name) => ({ name, queries: unstable_splitSqlQuery(readFileSync(path.join(folder, name), "utf8")).filter((query) => query.trim() !== "") }));
  return { migrations, table: settings.table };
}
