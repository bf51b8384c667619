/**
 * recordflare's benchmark suite (`npm run bench`, after a build): prints a table per section and writes
 * bench/results.json.
 *   node bench/run.mjs [--only=wall,cpu,size,costs] [--profile] [--quick]
 * --profile adds a CPU profile of recordflare's find and create; --quick runs fewer rounds (a smoke test).
 * Targets are reported, never asserted; the exit code is non-zero only if a section failed to run.
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runCpu } from "./cpu/run.mjs";
import { environment, loadAverage } from "./lib/environment.mjs";
import { runCosts, SCENARIOS } from "./costs/run.mjs";
import { costsReport, cpuReport, profileReport, sizeReport, TARGETS, wallTimeReport } from "./lib/report.mjs";
import { runSize } from "./size/run.mjs";
import { runWallTime } from "./wall-time/run.mjs";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));

const { values } = parseArgs({
  options: {
    only: { type: "string", default: "wall,cpu,size,costs" },
    profile: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
  },
});

const QUICK = {
  wall: { rounds: 3, minRounds: 3, warmupRounds: 1, iterations: 20 },
  cpu: { passes: 1, rounds: 4, warmupMs: 200 },
};

const SECTIONS = {
  wall: { key: "wallTime", run: () => runWallTime(values.quick ? QUICK.wall : {}), report: wallTimeReport },
  cpu: { key: "cpu", run: () => runCpu(values.quick ? QUICK.cpu : {}), report: cpuReport },
  size: { key: "size", run: () => runSize(), report: sizeReport },
  costs: { key: "costs", run: () => runCosts(), report: (result) => costsReport(result, SCENARIOS) },
};

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) console.warn(`warning: Node ${process.version}; the suite is meant for Node 22 (run it with \`npm run bench\`).`);

const env = environment();
const results = { generatedAt: new Date().toISOString(), environment: { ...env, loadAverageAtStart: loadAverage() }, targets: TARGETS };
console.log(`recordflare benchmarks: ${env.node}, workerd ${env.packages.workerd}, ${env.cpu}, git ${env.git.commit}${env.git.srcChanged ? " + uncommitted src changes" : ""}`);
console.log(`load average at start: ${results.environment.loadAverageAtStart.join(" ")}`);

let failed = false;
for (const name of values.only.split(",")) {
  const section = SECTIONS[name];
  if (!section) throw new Error(`unknown section ${name}; use wall, cpu, size or costs`);
  const started = performance.now();
  try {
    results[section.key] = await section.run();
    results[section.key].seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    console.log(section.report(results[section.key]));
  } catch (error) {
    failed = true;
    results[section.key] = { error: String(error?.stack ?? error) };
    console.error(`\n${name} failed: ${error?.stack ?? error}`);
  }
}

if (values.profile) {
  try {
    const { profileOp } = await import("./cpu/profile.mjs");
    results.profile = [await profileOp("recordflare", "find"), await profileOp("recordflare", "create")];
    console.log(profileReport(results.profile));
  } catch (error) {
    failed = true;
    results.profile = { error: String(error?.stack ?? error) };
    console.error(`\nprofile failed: ${error?.stack ?? error}`);
  }
}

results.environment.loadAverageAtEnd = loadAverage();
await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nload average at end: ${results.environment.loadAverageAtEnd.join(" ")}; results written to bench/results.json`);
process.exitCode = failed ? 1 : 0;
