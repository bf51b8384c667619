import { argumentError, type D1DatabaseLike, optionsArgument } from "../kernel/index.js";
import { bindingOf, checkedWork } from "./arguments.js";
import { costsOf, type QueryCostOptions } from "./query-costs.js";
import type { SentStatement } from "./recording-binding.js";

/** Options of `expectNoTableScans`. */
export interface TableScanOptions extends QueryCostOptions {
  /** Tables a scan of is fine (a table of a few rows, read whole on purpose). */
  allow?: readonly string[];
}

/** A table the query plan of a statement reads row by row. */
interface TableScan {
  readonly table: string;
  readonly sql: string;
}

/**
 * A statement whose plan can be asked: a read, an UPDATE or DELETE (an INSERT of values reads no table), after any
 * comments (`connect`'s `comment` puts one before every statement).
 */
const PLANNED = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*(SELECT|WITH|UPDATE|DELETE)\b/i;

/**
 * Runs `work` (see `countQueries`), then asks SQLite for the query plan of each statement it sent (`EXPLAIN QUERY
 * PLAN`, with the values it bound), and throws, naming each table and statement, when a plan reads a table of the
 * app row by row (`SCAN`) where it should search it with a key or an index; tables in `allow` may be scanned.
 * Resolves to what `work` returned. Throws `TypeError` naming `expectNoTableScans` for work that is no function, an
 * option other than `allow` and `binding`, and an `allow` that is not a list of table names.
 */
export async function expectNoTableScans<T>(work: () => T | Promise<T>, options?: TableScanOptions): Promise<T> {
  checkedWork("expectNoTableScans", work);
  const given = optionsArgument("expectNoTableScans", options, ["allow", "binding"]);
  const allow = allowedTables(given.allow);
  const binding = await bindingOf("expectNoTableScans", given.binding);
  const { result, roundTrips } = await costsOf(work, binding);
  const tables = await binding.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
  const scannable = new Set(tables.results.map((row) => row.name.toLowerCase()));
  for (const allowed of allow) scannable.delete(allowed.toLowerCase());
  const scans: TableScan[] = [];
  const seen = new Set<string>();
  for (const statement of roundTrips.flat()) {
    const key = `${statement.sql}\n${JSON.stringify(statement.params)}`;
    if (!PLANNED.test(statement.sql) || seen.has(key)) continue;
    seen.add(key);
    scans.push(...(await scansOf(binding, statement, scannable)));
  }
  if (scans.length > 0) {
    throw new Error(`expected no table scans, got ${scans.length}:\n${scans.map((scan) => `  SCAN ${scan.table} in ${scan.sql}`).join("\n")}`);
  }
  return result;
}

/** `allow`, checked: a list of table names. */
function allowedTables(allow: unknown): readonly string[] {
  if (allow === undefined) return [];
  if (!Array.isArray(allow) || !allow.every((table) => typeof table === "string")) throw argumentError("expectNoTableScans: allow", "a list of table names", allow);
  return allow;
}

/** The tables of the app that the plan of a statement scans. */
async function scansOf(binding: D1DatabaseLike, statement: SentStatement, tables: ReadonlySet<string>): Promise<TableScan[]> {
  const explain = binding.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`);
  const { results } = await (statement.params.length > 0 ? explain.bind(...statement.params) : explain).all<{ detail: string }>();
  return results.flatMap((step) => {
    const table = /^SCAN (\S+)/.exec(step.detail)?.[1];
    return table !== undefined && tables.has(table.toLowerCase()) ? [{ table, sql: statement.sql }] : [];
  });
}
