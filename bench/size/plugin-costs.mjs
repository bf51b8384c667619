/**
 * What each default plugin adds to the default Worker: the gzipped bytes it saves when left out, one at a time (the
 * same Worker, on `Base` with every default plugin but that one), and the Worker on `Base` with none of them.
 * Shared code counts for none of the plugins that share it, so the costs add up to less than the difference.
 */
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bundleWorker } from "../lib/esbuild-worker.mjs";

const DIST = fileURLToPath(new URL("../../dist/index.mjs", import.meta.url));
const SHARED = fileURLToPath(new URL("./shared/recordflare-worker.mjs", import.meta.url));

/** The export names of the default plugins, in their order (as `ActiveRecord` registers them). */
async function defaultPluginNames() {
  const library = await import(DIST);
  const nameOf = new Map(Object.entries(library).map(([name, value]) => [value, name]));
  return library.defaultPlugins.map((plugin) => nameOf.get(plugin));
}

/** The size section's Worker on `Base` with `plugins` (export names) registered. */
function workerSource(plugins) {
  const imports = ["Base", "defineApplicationRecord", ...plugins].join(", ");
  return [
    `import { ${imports} } from ${JSON.stringify(DIST)};`,
    `import { schema, usersWorker } from ${JSON.stringify(SHARED)};`,
    `class ApplicationBase extends Base { static binding = "DB"; static { this.use(${plugins.join(", ")}); } }`,
    `class User extends defineApplicationRecord(schema, ApplicationBase)("users") {}`,
    "export default usersWorker(User);",
  ].join("\n");
}

async function gzipBytes(directory, plugins) {
  const entry = join(directory, "worker.mjs");
  await writeFile(entry, workerSource(plugins));
  const { code } = await bundleWorker(entry, { minify: true });
  return gzipSync(code).byteLength;
}

/** `{ all, none, costs: [{ plugin, bytes }] }`, the costs largest first. */
export async function defaultPluginCosts() {
  const names = await defaultPluginNames();
  const directory = await mkdtemp(join(tmpdir(), "recordflare-size-"));
  try {
    const all = await gzipBytes(directory, names);
    const none = await gzipBytes(directory, []);
    const costs = [];
    for (const plugin of names) costs.push({ plugin, bytes: all - (await gzipBytes(directory, names.filter((name) => name !== plugin))) });
    return { all, none, costs: costs.sort((a, b) => b.bytes - a.bytes) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
