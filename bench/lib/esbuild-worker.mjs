/** esbuild options for bundling a Worker the way wrangler does (ESM, workerd conditions, runtime modules external). */
import { build } from "esbuild";

export const WORKER_BUILD_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["browser", "module", "main"],
  external: ["cloudflare:*", "node:*"],
  logLevel: "silent",
  write: false,
};

/** Bundles `entryPoint` to one ESM module; returns its text and esbuild's metafile. */
export async function bundleWorker(entryPoint, { minify = false, plugins = [] } = {}) {
  const result = await build({ ...WORKER_BUILD_OPTIONS, entryPoints: [entryPoint], minify, plugins, metafile: true, outfile: "worker.mjs" });
  const output = result.outputFiles.find((file) => file.path.endsWith(".mjs"));
  return { code: output.text, bytes: output.contents.byteLength, metafile: result.metafile };
}
