/**
 * CPU cost per op over the in-memory D1 stand-in: each subject measured in its own Node process, in passes
 * whose order flips (A B C, C B A, ...) so that drift in machine load spreads over every subject.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { summarize } from "../lib/stats.mjs";

const execFileAsync = promisify(execFile);
const MEASURE = fileURLToPath(new URL("./measure.mjs", import.meta.url));

export const SUBJECTS = ["raw", "recordflare", "kysely", "drizzle", "drizzle-prepared"];
export const OPS = ["find", "create"];
export const DEFAULTS = { passes: 2, rounds: 12, warmupMs: 600, batchMs: 15 };

/** Runs measure.mjs for one subject; resolves to its JSON (the last stdout line) and any other output. */
export async function measure(subject, { ops = OPS, rounds, warmupMs, batchMs }, nodeArgs = []) {
  const args = [...nodeArgs, MEASURE, subject, `--ops=${ops.join(",")}`, `--rounds=${rounds}`, `--warmup-ms=${warmupMs}`, `--batch-ms=${batchMs}`];
  const { stdout, stderr } = await execFileAsync(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const lines = stdout.trim().split("\n");
  return { result: JSON.parse(lines.pop()), output: [...lines, ...stderr.split("\n")].filter(Boolean) };
}

export async function runCpu(options = {}) {
  const config = { ...DEFAULTS, ...options };
  const samples = Object.fromEntries(SUBJECTS.map((subject) => [subject, {}]));
  const sql = Object.fromEntries(SUBJECTS.map((subject) => [subject, {}]));
  const output = new Set();
  for (let pass = 0; pass < config.passes; pass++) {
    const order = pass % 2 === 0 ? SUBJECTS : [...SUBJECTS].reverse();
    for (const subject of order) {
      const { result, output: lines } = await measure(subject, config);
      for (const line of lines) output.add(`${subject}: ${line}`);
      Object.assign(sql[subject], result.sql);
      for (const [op, values] of Object.entries(result.samples)) (samples[subject][op] ??= []).push(...values);
    }
  }
  const results = SUBJECTS.map((subject) => ({
    subject,
    ...Object.fromEntries(OPS.map((op) => [op, samples[subject][op] ? summarize(samples[subject][op], 2) : null])),
    sql: sql[subject],
  }));
  return { config: { ...config, node: process.version }, results, output: [...output] };
}
