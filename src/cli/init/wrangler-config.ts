/**
 * The app's wrangler configuration, as `init` needs it: a D1 binding named `DB` whose migrations are in
 * `migrations/`, `nodejs_compat`, a compatibility date and the Worker's entry. A new project gets a commented
 * wrangler.jsonc; an existing wrangler.jsonc or wrangler.json gets only what it lacks, through edits that keep
 * its comments and layout; a wrangler.toml is left to the user, with what to add.
 */
import jsonc from "jsonc-parser";
import { outputLine, PATHS, type FileToWrite, type Project } from "../project.js";
import type { CompatibilityDate } from "./compatibility-date.js";
import { tomlMain } from "./wrangler-toml.js";

/** The Worker's entry that `init` writes when the app has none. */
export const WORKER_ENTRY = "src/index.ts";

/** The `database_id` of a new project: any UUID does for local work, which never reaches Cloudflare. */
export const PLACEHOLDER_DATABASE_ID = "00000000-0000-4000-8000-000000000000";

// Put before the placeholder database_id.
function databaseIdComment(databaseName: string): string {
  return `// A placeholder, enough for local work (--local). To deploy, run \`npx wrangler d1 create ${databaseName}\` and put the id it prints here.`;
}

/** What `init` decided about the wrangler configuration. */
export interface WranglerPlan {
  /** The file to write, if any. */
  readonly file: FileToWrite | undefined;
  /** Output lines for what is left to the user (a wrangler.toml, a setting that differs). */
  readonly notes: string[];
  /** The Worker's entry the configuration names (`main`), relative to the app's folder. */
  readonly entry: string;
  /** The configuration file: `wrangler.toml`, `wrangler.json` or `wrangler.jsonc`. */
  readonly configFile: string;
}

interface D1Entry {
  binding?: unknown;
  migrations_dir?: unknown;
}

interface WranglerSettings {
  name?: unknown;
  main?: unknown;
  compatibility_date?: unknown;
  compatibility_flags?: unknown;
  d1_databases?: unknown;
}

/** A Worker's name from a folder's or package's name: lowercase letters, digits and dashes. */
export function workerName(name: string): string {
  const cleaned = name.replace(/^@[^/]*\//, "").toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 63);
  return cleaned || "app";
}

/** The text of a new wrangler.jsonc. */
export function newWranglerConfig(name: string, date: CompatibilityDate): string {
  return `{
  "$schema": "node_modules/wrangler/config-schema.json",
  "name": ${JSON.stringify(name)},
  "main": ${JSON.stringify(WORKER_ENTRY)},
  // compatibility_date: ${date.source}.
  "compatibility_date": ${JSON.stringify(date.date)},
  // recordflare keeps each request's database in AsyncLocalStorage (node:async_hooks).
  "compatibility_flags": ["nodejs_compat"],
  "d1_databases": [
    {
      "binding": "DB",
      "database_name": ${JSON.stringify(name)},
      ${databaseIdComment(name)}
      "database_id": ${JSON.stringify(PLACEHOLDER_DATABASE_ID)},
      "migrations_dir": ${JSON.stringify(PATHS.migrations)}
    }
  ]
}
`;
}

const FORMATTING: jsonc.ModificationOptions = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: "\n" } };

function edited(text: string, at: jsonc.JSONPath, value: unknown): string {
  return jsonc.applyEdits(text, jsonc.modify(text, at, value, FORMATTING));
}

// Puts the placeholder's comment on the line before the `database_id` of the d1_databases entry at `index`.
function withDatabaseIdComment(text: string, index: number, databaseName: string): string {
  const property = jsonc.findNodeAtLocation(jsonc.parseTree(text)!, ["d1_databases", index, "database_id"])!.parent!;
  const lineStart = text.lastIndexOf("\n", property.offset) + 1;
  const indent = text.slice(lineStart, property.offset);
  return `${text.slice(0, property.offset)}${databaseIdComment(databaseName)}\n${indent}${text.slice(property.offset)}`;
}

/**
 * The existing configuration with what it lacks added, and notes on what differs from what recordflare expects
 * and is left as the user wrote it.
 */
function completedConfig(file: string, original: string, fallbackName: string, date: CompatibilityDate): { text: string; notes: string[]; entry: string } {
  const errors: jsonc.ParseError[] = [];
  const settings = jsonc.parse(original, errors, { allowTrailingComma: true }) as WranglerSettings;
  if (errors.length > 0 || typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    return { text: original, notes: [outputLine("skip", file, "not a JSON object wrangler can read; left as it is")], entry: WORKER_ENTRY };
  }
  const notes: string[] = [];
  const name = typeof settings.name === "string" ? workerName(settings.name) : fallbackName;
  let text = original;
  const entry = typeof settings.main === "string" ? settings.main : WORKER_ENTRY;
  if (settings.main === undefined) text = edited(text, ["main"], WORKER_ENTRY);
  if (settings.compatibility_date === undefined) text = edited(text, ["compatibility_date"], date.date);
  else if (date.installed && typeof settings.compatibility_date === "string" && settings.compatibility_date > date.date) {
    notes.push(outputLine("skip", file, `compatibility_date ${settings.compatibility_date} is later than ${date.date}, ${date.source}: wrangler will refuse it`));
  }
  const flags = settings.compatibility_flags;
  if (!Array.isArray(flags)) text = edited(text, ["compatibility_flags"], ["nodejs_compat"]);
  else if (!flags.includes("nodejs_compat")) text = edited(text, ["compatibility_flags", -1], "nodejs_compat");
  const databases = Array.isArray(settings.d1_databases) ? (settings.d1_databases as D1Entry[]) : undefined;
  const index = databases?.findIndex((database) => database?.binding === "DB") ?? -1;
  if (index === -1) {
    const database = { binding: "DB", database_name: name, database_id: PLACEHOLDER_DATABASE_ID, migrations_dir: PATHS.migrations };
    text = databases ? edited(text, ["d1_databases", -1], database) : edited(text, ["d1_databases"], [database]);
    text = withDatabaseIdComment(text, databases?.length ?? 0, name);
  } else if (databases![index]!.migrations_dir === undefined) {
    text = edited(text, ["d1_databases", index, "migrations_dir"], PATHS.migrations);
  } else if (databases![index]!.migrations_dir !== PATHS.migrations) {
    notes.push(outputLine("skip", file, `DB's migrations_dir is ${JSON.stringify(databases![index]!.migrations_dir)}; recordflare's generators write ${PATHS.migrations}/`));
  }
  return { text, notes, entry };
}

// A wrangler.toml is left to the user: what to add, and the entry it names (or the one to add).
function tomlPlan(text: string): WranglerPlan {
  const main = tomlMain(text);
  const entry = main ?? WORKER_ENTRY;
  const additions = `${main === undefined ? `main = "${WORKER_ENTRY}", ` : ""}nodejs_compat and a D1 binding DB with migrations_dir = "${PATHS.migrations}"`;
  const note = `init edits only wrangler.jsonc or wrangler.json: add ${additions} by hand`;
  return { file: undefined, notes: [outputLine("skip", "wrangler.toml", note)], entry, configFile: "wrangler.toml" };
}

/** What to write for the app's wrangler configuration (`name` is the Worker's and the new database's). */
export function planWranglerConfig(project: Project, name: string, date: CompatibilityDate): WranglerPlan {
  const toml = project.read("wrangler.toml");
  if (toml !== undefined) return tomlPlan(toml);
  const existing = ["wrangler.jsonc", "wrangler.json"].find((file) => project.exists(file));
  if (existing === undefined) return { file: { path: "wrangler.jsonc", text: newWranglerConfig(name, date) }, notes: [], entry: WORKER_ENTRY, configFile: "wrangler.jsonc" };
  const original = project.read(existing)!;
  const { text, notes, entry } = completedConfig(existing, original, name, date);
  return { file: text === original && notes.length > 0 ? undefined : { path: existing, text }, notes, entry, configFile: existing };
}
