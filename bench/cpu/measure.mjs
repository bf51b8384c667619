/**
 * One subject's CPU cost per op over the in-memory D1 stand-in, in a process of its own (so that no other
 * library's code shares the JIT's type feedback). Prints one JSON line:
 *   { subject, sql: {op: string}, batchSize: {op: number}, samples: {op: number[] (µs per op, one per batch)} }
 * Ops the subject does not define are skipped. Libraries may log warnings: the JSON is the last line.
 * Usage: node measure.mjs <subject> [--ops=find,create] [--rounds=15] [--warmup-ms=700] [--batch-ms=15]
 */
import { parseArgs } from "node:util";
import { USER_COLUMNS, userRow } from "../shared/user-rows.mjs";
import { FakeD1 } from "./fake-d1.mjs";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    ops: { type: "string", default: "find,create" },
    rounds: { type: "string", default: "15" },
    "warmup-ms": { type: "string", default: "700" },
    "batch-ms": { type: "string", default: "15" },
  },
});
const [subjectName] = positionals;
const requestedOps = values.ops.split(",");
const rounds = Number(values.rounds);
const warmupMs = Number(values["warmup-ms"]);
const batchMs = Number(values["batch-ms"]);

const { createSubject } = await import(`./subjects/${subjectName}.mjs`);
const d1 = new FakeD1(userRow(1), USER_COLUMNS);
const subject = createSubject(d1);
const ops = requestedOps.filter((op) => typeof subject[op] === "function");
const id = userRow(1).id;
const call = { find: () => subject.find(id), create: (i) => subject.create(i) };

let counter = 0;
async function runBatch(op, iterations) {
  const fn = call[op];
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn(counter++);
  return performance.now() - start;
}

// Each op must send exactly one statement; note which.
const sql = {};
for (const op of ops) {
  const before = d1.calls;
  await call[op](counter++);
  if (d1.calls !== before + 1) throw new Error(`${subjectName} ${op} sent ${d1.calls - before} statements, expected 1`);
  sql[op] = d1.lastSql;
}

// Warm up each op for warmupMs, then size batches to take about batchMs.
const batchSize = {};
for (const op of ops) {
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < warmupMs) {
    await runBatch(op, 100);
    done += 100;
  }
  batchSize[op] = Math.max(50, Math.round((done / (performance.now() - start)) * batchMs));
}

const samples = Object.fromEntries(ops.map((op) => [op, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ops : [...ops].reverse();
  for (const op of order) samples[op].push(((await runBatch(op, batchSize[op])) * 1000) / batchSize[op]);
}

process.stdout.write(`${JSON.stringify({ subject: subjectName, sql, batchSize, samples })}\n`);
