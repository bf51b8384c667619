/**
 * Where one subject's op spends its CPU: runs measure.mjs under `node --cpu-prof` and sums self time per
 * function, and per area (recordflare's dist, other packages, Node internals, GC, the bench itself).
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { measure } from "./run.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function areaOf(url, functionName) {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.includes("/dist/index.mjs")) return "recordflare dist";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/bench/")) return "bench harness + fake D1";
  return url;
}

/** Self time per function and per area from a .cpuprofile, excluding the idle time. */
function summarize(profile, top) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map();
  const byArea = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === "(idle)") return;
    const dt = profile.timeDeltas[index] ?? 0;
    total += dt;
    const location = url ? `${url.startsWith("file://") ? relative(ROOT, fileURLToPath(url)) : url}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"}\t${location}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + dt);
  });
  const percent = (dt) => Number(((dt / total) * 100).toFixed(1));
  return {
    areas: [...byArea].sort((a, b) => b[1] - a[1]).map(([area, dt]) => ({ area, percent: percent(dt) })),
    functions: [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, dt]) => {
        const [name, location] = key.split("\t");
        return { function: name, location, percent: percent(dt) };
      }),
  };
}

/** Profiles `subject`'s `op` (measure.mjs's warmup plus rounds); returns the top self-time functions. */
export async function profileOp(subject, op, { top = 15, rounds = 80 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "recordflare-prof-"));
  try {
    await measure(subject, { ops: [op], rounds, warmupMs: 300, batchMs: 20 }, ["--cpu-prof", "--cpu-prof-dir", dir]);
    const [file] = (await readdir(dir)).filter((name) => name.endsWith(".cpuprofile"));
    return { subject, op, ...summarize(JSON.parse(await readFile(join(dir, file), "utf8")), top) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
