import { defineBuildConfig } from "unbuild";

export default defineBuildConfig({
  entries: ["src/index", "src/plugin", { input: "src/web/hono", name: "hono" }, { input: "src/cli/index", name: "cli" }],
  declaration: "node16",
  clean: true,
  externals: ["cloudflare:workers", "node:async_hooks", "node:sqlite", "hono"],
  rollup: { emitCJS: false, output: { preserveModules: true, preserveModulesRoot: "src" } },
});
