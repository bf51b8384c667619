/**
 * The documentation standards that can be checked mechanically: every exported symbol (and public class member)
 * has a TSDoc comment, and the guide's hook catalogue lists every hook of src/kernel/plugin-api/hooks.ts as sync or async as
 * the code types it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("documentation", () => {
  it("every symbol exported from src/index.ts, src/plugin.ts and src/kernel/index.ts has TSDoc (scripts/check-tsdoc.mjs)", () => {
    const output = execFileSync(process.execPath, [`${root}/scripts/check-tsdoc.mjs`], { encoding: "utf8" });
    expect(output).toMatch(/, 0 without TSDoc$/m);
    // The script parses the sources with TypeScript: seconds on a machine busy with the other node tests.
  }, 60_000);

  it("the guide's hook catalogue has a row for every hook of hooks.ts, sync or async as the code says", () => {
    const hooks = readFileSync(`${root}/src/kernel/plugin-api/hooks.ts`, "utf8");
    const body = hooks.slice(hooks.indexOf("export interface ModelHooks"), hooks.indexOf("export interface RelationCompileContext"));
    const declared = [...body.matchAll(/\/\*\*([\s\S]*?)\*\/\s*"([a-zA-Z:]+)": \(([\s\S]*?)\) => (void \| Promise<void>|void);/g)].map(
      ([, comment, name, , returns]) => ({ name: name!, async: returns !== "void", comment: comment! }),
    );
    expect(declared.length).toBeGreaterThanOrEqual(20);
    const guide = readFileSync(`${root}/docs/guide/plugins.md`, "utf8");
    const catalogue = guide.slice(guide.indexOf("## The hook catalogue"), guide.indexOf("## Writing a plugin"));
    for (const hook of declared) {
      // The code's comment says the same as its type.
      expect(hook.comment.includes("May be async"), hook.name).toBe(hook.async);
      const row = catalogue.split("\n").find((line) => line.startsWith(`| \`${hook.name}\` |`));
      expect(row, `no row for ${hook.name}`).toBeDefined();
      const cells = row!.split("|").map((cell) => cell.trim());
      expect(cells, hook.name).toContain(hook.async ? "may be async" : "sync");
    }
    expect(catalogue).toMatch(/^\| `query` \| the \[query event\]\(production\.md#query-events\) \| sync \|/m);
  });
});
