/**
 * Wall time on a real local D1 (Miniflare: workerd with its SQLite-backed D1), recordflare side by side with
 * raw D1 prepared statements. Each round is one request that interleaves the two implementations call by call;
 * the ratio reported is the median over rounds of recordflare's time over raw D1's.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { bundleWorker } from "../lib/esbuild-worker.mjs";
import { summarize } from "../lib/stats.mjs";
import { RAW_SQL } from "../shared/raw-sql.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Same date as vitest.config.ts (must not exceed the installed workerd's). */
const COMPATIBILITY_DATE = "2026-11-01";
const OPS = ["find", "query", "paginate", "update", "create"]; // create last: it grows the table the others read
const IMPLS = ["recordflare", "raw"];
/** An index an app would have for the `query` op's where + order. */
const EXTRA_SCHEMA = ['CREATE INDEX "users_admin_created_at" ON "users" ("admin", "created_at")'];

/** Rounds per op stop early (but not below minRounds) once an op has taken budgetMs, so a slow machine still finishes. */
export const DEFAULTS = { users: 1000, rounds: 40, minRounds: 10, warmupRounds: 2, iterations: 100, budgetMs: 30_000 };

async function readSchema() {
  const migration = await readFile(here("../../test/fixtures/migrations/0001_create_users.sql"), "utf8");
  const statements = migration
    .replace(/^--.*$/gm, "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);
  return [...statements, ...EXTRA_SCHEMA];
}

async function startWorker() {
  const { code } = await bundleWorker(here("./worker.mjs"));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: code,
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: ["nodejs_compat"],
      d1Databases: ["DB"],
    }),
  );
  await mf.ready;
  const post = async (path, body = {}) => {
    const response = await mf.dispatchFetch(`http://bench.local${path}`, { method: "POST", body: JSON.stringify(body) });
    const json = await response.json();
    if (!response.ok) throw new Error(`${path} failed: ${json.error}`);
    return json;
  };
  return { mf, post };
}

/** Checks that raw D1 sends exactly the SQL recordflare generates, so the comparison is like for like. */
function compareSql(sent) {
  const mismatches = [];
  for (const op of OPS) {
    const ours = sent.recordflare[op];
    const raw = sent.raw[op];
    if (JSON.stringify(ours) !== JSON.stringify(raw) || raw.at(-1) !== RAW_SQL[op]) mismatches.push({ op, recordflare: ours, raw });
  }
  return mismatches;
}

export async function runWallTime(options = {}) {
  const { users, rounds, minRounds, warmupRounds, iterations, budgetMs } = { ...DEFAULTS, ...options };
  const { mf, post } = await startWorker();
  try {
    await post("/setup", { schema: await readSchema(), users });
    const sql = await post("/sql");
    const samples = Object.fromEntries(OPS.map((op) => [op, { recordflare: [], raw: [] }]));
    for (const op of OPS) {
      const started = performance.now();
      for (let round = -warmupRounds; round < rounds; round++) {
        if (round >= minRounds && performance.now() - started > budgetMs) break;
        const elapsed = await post("/run", { op, iterations, round, tag: `${op}-${round}` });
        if (round < 0) continue;
        for (const impl of IMPLS) samples[op][impl].push((elapsed[impl] * 1000) / iterations);
      }
    }
    const results = OPS.map((op) => {
      const { recordflare, raw } = samples[op];
      const ratios = recordflare.map((value, round) => value / raw[round]);
      return {
        op,
        recordflareUs: summarize(recordflare, 1),
        rawUs: summarize(raw, 1),
        ratio: summarize(ratios, 3),
        sql: sql.recordflare[op],
      };
    });
    const roundsRun = Math.min(...results.map((r) => r.ratio.n));
    return {
      config: { users, rounds: roundsRun, warmupRounds, iterations, budgetMs, compatibilityDate: COMPATIBILITY_DATE },
      sqlMismatches: compareSql(sql),
      results,
    };
  } finally {
    await mf.dispose();
  }
}
