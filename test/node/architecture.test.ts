/**
 * The shape ARCHITECTURE.md asks for, checked on the sources: plugins are independent of one another and reach the
 * kernel through its plugin API (src/kernel/index.ts) only; the kernel imports no plugin.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Source text by path relative to the repository, e.g. `src/plugins/timestamps.ts`. */
type Sources = ReadonlyMap<string, string>;

const PLUGIN_API = "src/kernel/index.ts";
const PLUGINS = "src/plugins/";
/** The default bundle lists every built-in plugin: the one file of src/plugins that may name them all. */
const BUNDLE = "src/plugins/default-plugins.ts";

function sourcesUnder(folder: string): Map<string, string> {
  const entries = readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" });
  const files = entries.filter((entry) => entry.endsWith(".ts")).map((entry) => path.posix.join(folder, entry.split(path.sep).join("/")));
  return new Map(files.map((file) => [file, readFileSync(path.join(root, file), "utf8")]));
}

/** The files a source imports or re-exports (statically or dynamically) by a relative specifier, resolved to `.ts`. */
function relativeImports(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.[^"']*)["']/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, ".ts"));
}

/**
 * The plugin each file of src/plugins belongs to: a folder is one plugin, a top-level file defining one (with
 * `definePlugin`) is one, and any other top-level file is a private part of the plugins that import it.
 */
function ownersOf(sources: Sources): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>();
  const helpers: string[] = [];
  for (const [file, source] of sources) {
    if (!file.startsWith(PLUGINS) || file === BUNDLE) continue;
    const inPlugins = file.slice(PLUGINS.length);
    if (inPlugins.includes("/")) owners.set(file, new Set([inPlugins.slice(0, inPlugins.indexOf("/"))]));
    else if (/\bdefinePlugin\s*\(/.test(source)) owners.set(file, new Set([inPlugins]));
    else {
      owners.set(file, new Set());
      helpers.push(file);
    }
  }
  // A private part imported through another private part belongs to the same plugins: spread until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [file, source] of sources) {
      for (const imported of relativeImports(file, source)) {
        if (!helpers.includes(imported) || !owners.has(file)) continue;
        const before = owners.get(imported)!.size;
        for (const owner of owners.get(file)!) owners.get(imported)!.add(owner);
        changed ||= owners.get(imported)!.size !== before;
      }
    }
  }
  return owners;
}

/** Every import that breaks the architecture, as `importer -> imported: why`. */
function violations(sources: Sources): string[] {
  const owners = ownersOf(sources);
  const found: string[] = [];
  for (const [file, owned] of owners) {
    if (owned.size > 1) found.push(`${file}: shared by ${[...owned].sort().join(" and ")}; what two plugins need belongs in the plugin API`);
  }
  for (const [file, source] of sources) {
    for (const imported of relativeImports(file, source)) {
      if (file.startsWith("src/kernel/") && imported.startsWith(PLUGINS)) found.push(`${file} -> ${imported}: the kernel imports no plugin`);
      if (!owners.has(file)) continue;
      if (imported === PLUGIN_API) continue;
      if (imported.startsWith("src/kernel/")) found.push(`${file} -> ${imported}: a plugin reaches the kernel through ${PLUGIN_API} only`);
      else if (!owners.has(imported)) found.push(`${file} -> ${imported}: a plugin imports its own files and the plugin API only`);
      else if ([...owners.get(imported)!].some((owner) => !owners.get(file)!.has(owner))) found.push(`${file} -> ${imported}: one plugin imports another`);
    }
  }
  return found;
}

describe("architecture", () => {
  it("plugins import only their own files and the kernel's plugin API; the kernel imports no plugin", () => {
    const sources = new Map([...sourcesUnder("src/plugins"), ...sourcesUnder("src/kernel")]);
    expect(sources.size).toBeGreaterThan(60);
    expect(violations(sources)).toEqual([]);
  });

  it("recordflare/plugin is the kernel's plugin API, which the built-in plugins use, and nothing more", () => {
    const entry = readFileSync(path.join(root, "src/plugin.ts"), "utf8");
    expect(relativeImports("src/plugin.ts", entry)).toEqual([PLUGIN_API]);
    expect(entry.replace(/\/\*\*[\s\S]*?\*\//, "").trim()).toBe('export * from "./kernel/index.js";');
  });

  it("the check finds each kind of breach", () => {
    const plugin = (api: string) => `import { definePlugin } from "${api}";\nexport const p = definePlugin({ name: "p" });`;
    const sources = new Map([
      ["src/kernel/index.ts", 'export * from "./relation.js";'],
      ["src/kernel/relation.ts", 'import { p } from "../plugins/alpha.js";'],
      ["src/plugins/alpha.ts", `${plugin("../kernel/index.js")}\nimport { q } from "./beta.js";\nimport { Relation } from "../kernel/relation.js";`],
      ["src/plugins/beta.ts", `${plugin("../kernel/index.js")}\nimport { shared } from "./shared.js";`],
      ["src/plugins/gamma/plugin.ts", `${plugin("../../kernel/index.js")}\nimport { shared } from "../shared.js";\nimport { own } from "./own.js";\nimport { index } from "../../index.js";`],
      ["src/plugins/gamma/own.ts", 'const later = () => import("../beta.js");'],
      ["src/plugins/shared.ts", "export const shared = 1;"],
      ["src/plugins/default-plugins.ts", 'import { p } from "./alpha.js";\nimport { q } from "./beta.js";'],
    ]);
    expect(violations(sources)).toEqual([
      "src/plugins/shared.ts: shared by beta.ts and gamma; what two plugins need belongs in the plugin API",
      "src/kernel/relation.ts -> src/plugins/alpha.ts: the kernel imports no plugin",
      "src/plugins/alpha.ts -> src/plugins/beta.ts: one plugin imports another",
      "src/plugins/alpha.ts -> src/kernel/relation.ts: a plugin reaches the kernel through src/kernel/index.ts only",
      "src/plugins/beta.ts -> src/plugins/shared.ts: one plugin imports another",
      "src/plugins/gamma/plugin.ts -> src/plugins/shared.ts: one plugin imports another",
      "src/plugins/gamma/plugin.ts -> src/index.ts: a plugin imports its own files and the plugin API only",
      "src/plugins/gamma/own.ts -> src/plugins/beta.ts: one plugin imports another",
    ]);
  });
});
