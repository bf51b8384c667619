/**
 * The wall-time bench Worker. Node (run.mjs) drives it through Miniflare:
 *   POST /setup {schema: string[], users: number}  creates the tables and seeds users 1..n
 *   POST /sql                                      each op once per implementation; returns the SQL each sent
 *   POST /run {op, iterations, tag}                times `iterations` runs of one op per implementation
 * Time is read with performance.now(): 1 ms resolution in local workerd (in production it moves only across
 * I/O; every op here awaits D1 either way).
 */
import { userRow, userRows } from "../shared/user-rows.mjs";
import { rawOps } from "./ops-raw.mjs";
import { recordflareOps } from "./ops-recordflare.mjs";

const IMPLEMENTATIONS = { recordflare: recordflareOps, raw: rawOps };
const SEED_CHUNK = 50;
/** Finds read the first 500 users; updates cycle through the first 20 (recordflare loads those beforehand). */
const FIND_POOL = 500;
const UPDATE_POOL = 20;
/** Calls of one implementation timed together (about 20 ms on local D1). */
const BLOCK = 25;

let seeded = 0;

function fixture(tag) {
  if (seeded === 0) throw new Error("POST /setup first");
  const ids = Array.from({ length: Math.min(seeded, FIND_POOL) }, (_, i) => userRow(i + 1).id);
  return { ids, updateIds: ids.slice(0, UPDATE_POOL), tag };
}

async function setup(env, { schema, users }) {
  for (const statement of schema) await env.DB.prepare(statement).run();
  const rows = userRows(users);
  const columns = Object.keys(rows[0]);
  const insert = env.DB.prepare(`INSERT INTO users (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
  for (let start = 0; start < rows.length; start += SEED_CHUNK) {
    await env.DB.batch(rows.slice(start, start + SEED_CHUNK).map((row) => insert.bind(...columns.map((c) => row[c]))));
  }
  seeded = users;
  return { seeded };
}

/** A D1 binding that records the SQL it is asked to prepare. */
function recording(d1, log) {
  return { prepare: (sql) => (log.push(sql), d1.prepare(sql)), batch: (statements) => d1.batch(statements) };
}

async function sentSql(env) {
  const sent = {};
  for (const [impl, makeOps] of Object.entries(IMPLEMENTATIONS)) {
    sent[impl] = {};
    const log = [];
    for (const [op, { setup, run }] of Object.entries(makeOps(recording(env.DB, log)))) {
      const base = fixture(`sql-${impl}-${op}`);
      const context = setup ? await setup(base) : base;
      log.length = 0;
      await run(context, 0);
      sent[impl][op] = [...log];
    }
  }
  return sent;
}

/**
 * Runs `iterations` of one op for both implementations, in blocks of BLOCK consecutive calls that alternate between
 * them (the order flipping every block, and starting with the other one in odd rounds) so that load on the machine
 * and the position in the request weigh on both alike; returns the time each
 * spent, in ms. The clock has 1 ms resolution: timing a block of calls, rather than each call, keeps its rounding
 * error to about 1 ms per block instead of per call.
 */
async function timeOp(env, { op, iterations, tag, round = 0 }) {
  const impls = Object.keys(IMPLEMENTATIONS);
  const runs = [];
  for (const [index, impl] of impls.entries()) {
    const operation = IMPLEMENTATIONS[impl](env.DB)[op];
    if (!operation) throw new Error(`unknown op ${op}`);
    const base = fixture(`${tag}-${index}`); // same length for both: equal-sized rows
    runs.push({ impl, run: operation.run, context: operation.setup ? await operation.setup(base) : base, elapsedMs: 0 });
  }
  // One untimed call of each first, past the timed indexes: the first block of a request would otherwise also pay
  // for the request's own start (reading its body, the first D1 call), always on the same implementation.
  for (const { run, context } of runs) await run(context, iterations);
  for (let block = 0; block * BLOCK < iterations; block++) {
    for (let k = 0; k < runs.length; k++) {
      // Which implementation leads flips every block and, from one round to the next, every other round too.
      const entry = runs[(block + k + Math.abs(round)) % runs.length];
      const start = performance.now();
      for (let i = block * BLOCK; i < Math.min(iterations, (block + 1) * BLOCK); i++) await entry.run(entry.context, i);
      entry.elapsedMs += performance.now() - start;
    }
  }
  return Object.fromEntries(runs.map(({ impl, elapsedMs }) => [impl, elapsedMs]));
}

const ROUTES = { "/setup": setup, "/sql": sentSql, "/run": timeOp };

export default {
  async fetch(request, env) {
    const route = ROUTES[new URL(request.url).pathname];
    if (!route) return new Response("not found", { status: 404 });
    try {
      const body = request.method === "POST" ? await request.json() : {};
      return Response.json(await route(env, body));
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
