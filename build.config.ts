import path from "node:path";
import { defineBuildConfig } from "unbuild";
import type { Plugin } from "rollup";

/**
 * Plugins type their methods by augmenting the kernel's plugin API (`declare module "../kernel/index.js"`), which the
 * main entry re-exports. The bundled types have no module of that name (rollup-plugin-dts keeps the specifier, and a
 * re-exporting module belongs to no chunk), so each augmentation is pointed at the main entry's types, where those
 * interfaces are exported: without this, every plugin method would be missing from the published types.
 */
function pluginTypesOnMainEntry(): Plugin {
  return {
    name: "recordflare:plugin-types-on-main-entry",
    renderChunk(code, chunk) {
      const mainEntry = path.posix.relative(path.posix.dirname(chunk.fileName), "index.mjs");
      // Base's own record methods fill the kernel's record contract the same way, from src/kernel ("./index.js").
      return code.replace(/declare module "(?:(?:\.\.?\/)+kernel\/|\.\/)index\.js"/g, `declare module "./${mainEntry}"`);
    },
  };
}

export default defineBuildConfig({
  entries: ["src/index", "src/plugin", { input: "src/web/hono", name: "hono" }, { input: "src/cli/index", name: "cli" }],
  declaration: "node16",
  clean: true,
  externals: ["cloudflare:workers", "node:async_hooks", "node:sqlite", "hono"],
  rollup: { emitCJS: false, output: { preserveModules: true, preserveModulesRoot: "src" } },
  hooks: {
    "rollup:dts:options"(_context, options) {
      options.plugins.push(pluginTypesOnMainEntry());
    },
  },
});
