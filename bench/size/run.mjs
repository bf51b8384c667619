/**
 * Bundle size of a minimal Worker (a Model with find and create) per library: esbuild bundle, minified, ESM,
 * `cloudflare:*` and `node:*` external; gzip as wrangler measures it (zlib defaults). Also the largest inputs,
 * and, for recordflare, the largest source modules (the same Worker bundled from src/) and what each default plugin
 * adds to it.
 */
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bundleWorker } from "../lib/esbuild-worker.mjs";
import { defaultPluginCosts } from "./plugin-costs.mjs";

const ENTRIES = fileURLToPath(new URL("./entries/", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ORDER = ["recordflare", "recordflare-kernel", "drizzle", "drizzle-1.0.0-rc.5", "kysely", "raw"];

/** The bundle's biggest inputs by minified bytes, grouped by package (or file outside node_modules). */
function largestInputs(metafile, count = 5) {
  const byInput = {};
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = packageMatch ? packageMatch[1] : relative(ROOT, input);
      byInput[key] = (byInput[key] ?? 0) + bytesInOutput;
    }
  }
  return Object.entries(byInput)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([input, bytes]) => ({ input, bytes }));
}

/** Bundles recordflare's minimal Worker from src/ instead of dist/, to see which source modules weigh most. */
async function recordflareSourceBreakdown(count = 8) {
  const fromSource = {
    name: "recordflare-from-source",
    setup(build) {
      build.onResolve({ filter: /\/dist\/index\.mjs$/ }, () => ({ path: join(ROOT, "src/index.ts") }));
    },
  };
  const { metafile } = await bundleWorker(`${ENTRIES}recordflare.mjs`, { minify: true, plugins: [fromSource] });
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs));
  return inputs
    .filter(([input]) => input.includes("src/"))
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, count)
    .map(([input, { bytesInOutput }]) => ({ input: relative(ROOT, input), bytes: bytesInOutput }));
}

export async function runSize() {
  const files = (await readdir(ENTRIES)).filter((file) => file.endsWith(".mjs"));
  const names = files.map((file) => file.replace(/\.mjs$/, "")).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  const results = [];
  for (const name of names) {
    const { code, bytes, metafile } = await bundleWorker(`${ENTRIES}${name}.mjs`, { minify: true });
    const imports = [...new Set(Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))];
    results.push({ library: name, minifiedBytes: bytes, gzipBytes: gzipSync(code).byteLength, externalImports: imports, largestInputs: largestInputs(metafile) });
  }
  return { results, recordflareSourceModules: await recordflareSourceBreakdown(), defaultPluginCosts: await defaultPluginCosts() };
}
