import path from "node:path";
import { defineBuildConfig } from "unbuild";
import type { Plugin } from "rollup";

/**
 * The published types declare the whole kernel in the plugin entry's own file (dist/plugin.d.mts), which the main
 * entry re-exports, rather than in a shared chunk that both entries re-export. TypeScript merges augmentations of
 * one interface made through two different re-exporting modules into a broken declaration (its type parameters
 * concatenated: `PluginStatics<A, A>`), so with a shared chunk an app augmenting `recordflare/plugin`, as the guide
 * says, lost every built-in plugin's methods, which augment the main entry. Declared in the entry itself, an
 * augmentation of `recordflare/plugin` reaches the declaration directly, and one of `recordflare` reaches it
 * through a single re-export: both merge.
 */
function kernelTypesInPluginEntry(): Plugin {
  return {
    name: "recordflare:kernel-types-in-plugin-entry",
    outputOptions(output) {
      const inPluginEntry = (id: string) => id.includes("/src/kernel/") || id.endsWith("/src/plugin.ts");
      return { ...output, manualChunks: (id) => (inPluginEntry(id) ? "plugin" : undefined) };
    },
  };
}

/**
 * Plugins type their methods by augmenting the kernel's plugin API (`declare module "../kernel/index.js"`). The
 * bundled types have no module of that name (rollup-plugin-dts keeps the specifier, and a re-exporting module
 * belongs to no chunk), so each augmentation is pointed at the plugin entry's types, where those interfaces are
 * declared (see `kernelTypesInPluginEntry`): without this, every plugin method would be missing from the published
 * types.
 */
function pluginTypesOnPluginEntry(): Plugin {
  return {
    name: "recordflare:plugin-types-on-plugin-entry",
    renderChunk(code, chunk) {
      const pluginEntry = path.posix.relative(path.posix.dirname(chunk.fileName), "plugin.mjs");
      // Base's own record methods fill the kernel's record contract the same way, from src/kernel ("./index.js").
      return code.replace(/declare module "(?:(?:\.\.?\/)+kernel\/|\.\/)index\.js"/g, `declare module "./${pluginEntry}"`);
    },
  };
}

export default defineBuildConfig({
  entries: [
    "src/index",
    "src/plugin",
    { input: "src/web/hono", name: "hono" },
    { input: "src/testing/index", name: "testing" },
    { input: "src/testing/migration-files", name: "testing-config" },
    { input: "src/cli/index", name: "cli" },
  ],
  declaration: "node16",
  clean: true,
  externals: ["cloudflare:workers", "node:async_hooks", "node:sqlite", "hono", "wrangler"],
  rollup: { emitCJS: false, output: { preserveModules: true, preserveModulesRoot: "src" } },
  hooks: {
    "rollup:dts:options"(_context, options) {
      options.plugins.push(kernelTypesInPluginEntry(), pluginTypesOnPluginEntry());
    },
  },
});
