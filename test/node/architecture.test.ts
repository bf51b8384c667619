/**
 * The shape ARCHITECTURE.md asks for, checked on the sources: plugins are independent of one another and reach the
 * kernel through its plugin API (src/kernel/index.ts) only; the kernel imports no plugin, and its files import one
 * another without a cycle (type imports included), so that its layers import only downward.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
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

const KERNEL = "src/kernel/";

/**
 * The import cycles among the kernel's files, each as the sorted list of the files that import one another round it
 * (a strongly connected component of the import graph, Tarjan's algorithm); type imports count as imports.
 */
function kernelImportCycles(sources: Sources): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    if (file.startsWith(KERNEL)) graph.set(file, relativeImports(file, source).filter((imported) => sources.has(imported) && imported.startsWith(KERNEL)));
  }
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const imported of graph.get(file)!) {
      if (!order.has(imported)) {
        visit(imported);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(imported)!));
      } else if (stack.includes(imported)) {
        lowest.set(file, Math.min(lowest.get(file)!, order.get(imported)!));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

/**
 * Where the plugins under src/plugins use a kernel declaration marked `@internal`, resolved by the TypeScript checker
 * (so a `.get` on a Map is never taken for a kernel member): a member read (`relation.data`, `relation["data"]`, or
 * destructured, `const { data } = relation`), a constructor called (`new Statement(...)`) or a name imported. Each
 * as `<file>:<line> <name>`. `extra` adds plugin files by path and text (to test the check itself).
 */
function internalUses(extra: ReadonlyMap<string, string> = new Map()): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const files = [...parsed.fileNames.filter((file) => file.startsWith(path.join(root, "src/"))), ...[...extra.keys()].map((file) => path.join(root, file))];
  const host = ts.createCompilerHost(parsed.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => extra.get(path.relative(root, file)) ?? readFile(file);
  const program = ts.createProgram(files, parsed.options, host);
  const checker = program.getTypeChecker();
  const isKernelInternal = (declaration: ts.Declaration) =>
    declaration.getSourceFile().fileName.startsWith(path.join(root, "src/kernel/")) && ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "internal");
  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      return checker.getTypeAtLocation(node.parent).getProperty((node.propertyName ?? node.name).getText());
    }
    const target = ts.isPropertyAccessExpression(node) ? node.name : ts.isElementAccessExpression(node) ? node.argumentExpression : ts.isNewExpression(node) ? node.expression : ts.isImportSpecifier(node) ? node.name : undefined;
    const symbol = target && checker.getSymbolAtLocation(target);
    const resolved = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return ts.isNewExpression(node) ? (resolved?.members?.get("__constructor" as ts.__String) ?? resolved) : resolved;
  };
  const uses: string[] = [];
  for (const source of program.getSourceFiles()) {
    const file = path.relative(root, source.fileName).split(path.sep).join("/");
    if (!file.startsWith(PLUGINS)) continue;
    const visit = (node: ts.Node): void => {
      const symbol = symbolOf(node);
      if (symbol?.declarations?.some(isKernelInternal)) uses.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${symbol.name}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

/** A plugin file, checked with the sources, that uses the kernel's internals in each way the check must find. */
const PROBE = "src/plugins/internal-uses-probe.ts";
const PROBE_SOURCE = [
  'import { type Relation, Statement } from "../kernel/index.js";',
  "export function probe(relation: Relation, statement: Statement, map: Map<string, number>) {",
  "  // Public members and a Map's get are no use of the kernel's internals.",
  "  const { data } = relation;",
  '  return [relation.modelClass, relation["data"], data, statement.read, map.get("data"), relation.description, statement.toSql(),',
  '    new Statement({ sql: "", params: [] }, undefined, "rows", () => 0)];',
  "}",
].join("\n");

let probed: string[] | undefined;

/** The internal uses of the plugins and the probe, found once (the checker takes seconds over the sources). */
function probedInternalUses(): string[] {
  return (probed ??= internalUses(new Map([[PROBE, PROBE_SOURCE]])));
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

  it("the kernel's files import one another without a cycle, type imports included", () => {
    const sources = sourcesUnder("src/kernel");
    expect(sources.size).toBeGreaterThan(40);
    expect(kernelImportCycles(sources)).toEqual([]);
  });

  it("the cycle check finds a cycle through a type import, and only the files on it", () => {
    const sources = new Map([
      ["src/kernel/base.ts", 'import { Relation } from "./relation.js";\nimport { sql } from "./sql.js";'],
      ["src/kernel/relation.ts", 'import { resolve } from "./resolve.js";'],
      ["src/kernel/resolve.ts", 'import type { Base } from "./base.js";'],
      ["src/kernel/sql.ts", 'export const sql = 1;'],
      ["src/kernel/self.ts", 'export type { Self } from "./self.js";'],
      ["src/kernel/lazy.ts", 'const later = () => import("./sql.js");'],
      ["src/plugins/alpha.ts", 'import { Base } from "../kernel/base.js";'],
    ]);
    expect(kernelImportCycles(sources)).toEqual([["src/kernel/base.ts", "src/kernel/relation.ts", "src/kernel/resolve.ts"], ["src/kernel/self.ts"]]);
    sources.set("src/kernel/resolve.ts", "export const resolve = 1;");
    sources.set("src/kernel/sql.ts", 'import { later } from "./lazy.js";');
    sources.set("src/kernel/lazy.ts", 'const later = () => import("./sql.js");');
    expect(kernelImportCycles(sources)).toEqual([["src/kernel/lazy.ts", "src/kernel/sql.ts"], ["src/kernel/self.ts"]]);
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

  it("the built-in plugins use only the public plugin API: no kernel member marked @internal", { timeout: 120_000 }, () => {
    const uses = probedInternalUses().filter((use) => !use.startsWith(`${PROBE}:`));
    expect(uses).toEqual([]);
  });

  it("the internal-use check finds a member read, destructured or indexed, and a constructor called", { timeout: 120_000 }, () => {
    expect(probedInternalUses().filter((use) => use.startsWith(`${PROBE}:`))).toEqual([
      `${PROBE}:4 data`,
      `${PROBE}:5 modelClass`,
      `${PROBE}:5 data`,
      `${PROBE}:5 read`,
      `${PROBE}:6 __constructor`,
    ]);
  });
});
