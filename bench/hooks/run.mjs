/**
 * The kernel's hook points against the same points on hookable's public API (`hook`, `callHookWith` with callers of
 * our own, so that synchronous points stay synchronous and no console task is made): CPU per call, and what each adds
 * to a minified, gzipped Worker. hookable is no dependency; give the path of its package:
 *
 *   npm pack hookable@6.1.2 --pack-destination /tmp && tar xzf /tmp/hookable-6.1.2.tgz -C /tmp
 *   node bench/hooks/run.mjs /tmp/package
 */
import { build } from "esbuild";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { WORKER_BUILD_OPTIONS } from "../lib/esbuild-worker.mjs";

const hookablePackage = process.argv[2];
if (!hookablePackage) throw new Error("usage: node bench/hooks/run.mjs <path of hookable's unpacked package>");
const hookableModule = resolve(hookablePackage, "dist/index.mjs");
const kernelHookPoints = resolve(import.meta.dirname, "../../src/kernel/plugin-api/hook-points.ts");

/** The kernel's HookPoints interface (hook, has, functionsOf, callSync, callHook) on hookable's public API. */
const onHookable = `
import { Hookable } from ${JSON.stringify(hookableModule)};
function callFrom(hooks, start, args) {
  for (let index = start; index < hooks.length; index++) {
    const result = hooks[index](...args);
    if (result instanceof Promise) return result.then(() => callFrom(hooks, index + 1, args));
  }
}
const callSerially = (hooks, args) => callFrom(hooks, 0, args);
const callSynchronously = (hooks, args) => { for (const fn of hooks) fn(...args); };
const hooksOf = (hooks) => hooks;
export class HookPoints extends Hookable {
  constructor(registrations = []) { super(); for (const [name, fn] of registrations) this.hook(name, fn); }
  callHook(name, ...args) { return this.callHookWith(callSerially, name, args); }
  callSync(name, ...args) { this.callHookWith(callSynchronously, name, args); }
  functionsOf(name) { return this.callHookWith(hooksOf, name, []); }
  has(name) { return this.functionsOf(name).length > 0; }
}`;

const variants = {
  kernel: `export { HookPoints } from ${JSON.stringify(kernelHookPoints)};`,
  hookable: onHookable,
};

const folder = mkdtempSync(join(tmpdir(), "hook-points-"));

/** Bundles a module given as text the way the Worker size bench does; returns the code. */
async function bundle(source, minify) {
  const result = await build({ ...WORKER_BUILD_OPTIONS, stdin: { contents: source, resolveDir: folder, loader: "js" }, minify, outfile: "out.mjs" });
  return result.outputFiles[0].text;
}

/** Writes a variant's module; returns its path. */
function writeVariant(name) {
  const file = join(folder, `${name}.mjs`);
  writeFileSync(file, variants[name]);
  return file;
}

/** The variant's HookPoints class, bundled unminified and imported. */
async function load(file) {
  const bundled = join(folder, "bundled-" + file.split("/").at(-1));
  writeFileSync(bundled, await bundle(`export { HookPoints } from ${JSON.stringify(file)};`, false));
  return (await import(pathToFileURL(bundled).href)).HookPoints;
}

/** A minified Worker that registers a hook and uses every call of the hook points, gzipped as wrangler does. */
async function workerBytes(file) {
  const entry = `import { HookPoints } from ${JSON.stringify(file)};
const points = new HookPoints([["a", () => {}]]);
export default { fetch() { points.callSync("a", 1); points.has("a"); points.functionsOf("a"); return points.callHook("a", 1); } };`;
  const code = await bundle(entry, true);
  return { minified: code.length, gzipped: gzipSync(code).length };
}

/** Nanoseconds per call of `call`, the best of five runs of `times` calls. */
async function nsPerCall(times, call) {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < times; index++) {
      const result = call();
      if (result instanceof Promise) await result;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - start) / times);
  }
  return best;
}

const count = (context) => void context.count++;
const countLater = async (context) => void context.count++;
const rows = [];
for (const name of Object.keys(variants)) {
  const file = writeVariant(name);
  const HookPoints = await load(file);
  const points = new HookPoints([["sync", count], ["sync", count], ["mixed", count], ["mixed", countLater], ["mixed", count]]);
  const context = { count: 0 };
  const size = await workerBytes(file);
  rows.push({
    "hook points": name,
    "sync point, 2 hooks: ns/call": (await nsPerCall(1e6, () => points.callSync("sync", context))).toFixed(1),
    "has(): ns/call": (await nsPerCall(1e6, () => points.has("sync"))).toFixed(1),
    "async point, 2 sync + 1 async hook: ns/call": (await nsPerCall(1e5, () => points.callHook("mixed", context))).toFixed(1),
    "minified B": size.minified,
    "gzipped B": size.gzipped,
  });
}
console.table(rows);
