import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("the built package in plain Node", () => {
  it("imports by its name and reads tableName without a database", async () => {
    const { Model } = await import("recordflare");
    class BlogPost extends Model({ id: "string", title: "string" }) {}
    expect(BlogPost.tableName).toBe("blog_posts");
  });

  it("reports a missing database clearly on the first query", async () => {
    const { Model, NoDatabase } = await import("recordflare");
    class Person extends Model({ id: "string" }) {}
    await expect(Person.find("x")).rejects.toThrow(NoDatabase);
    await expect(Person.find("x")).rejects.toThrow(/Person has no database/);
  });

  it("exports the Hono middleware from recordflare/hono, on the same kernel as the main entry", async () => {
    const { d1 } = await import("recordflare/hono");
    expect(typeof d1()).toBe("function");
    const hono = readFileSync(`${root}/dist/hono.mjs`, "utf8");
    expect(hono).toMatch(/from '\.\/kernel\/database\/context\.mjs'/);
  });

  it("loads with require on Node 22 (the ESM build, through the exports' default condition)", () => {
    const output = execFileSync(`${root}/node_modules/.bin/node`, ["-e", `console.log(process.version, typeof require("recordflare").Model)`], {
      cwd: root,
      encoding: "utf8",
    });
    expect(output).toMatch(/^v22\.\d+\.\d+ function\n$/);
  });

  it("passes publint", () => {
    const output = execFileSync(`${root}/node_modules/.bin/publint`, [], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(output).toContain("All good!");
  }, 60_000);

  // ESM only, so the profile esm-only: TypeScript's node16 resolution from CommonJS sees an ESM package that only
  // import() reaches, which is what it is (Node's require(esm) is not modelled there); every other resolution must be clean.
  it("passes arethetypeswrong on the packed package (profile esm-only)", () => {
    const output = execFileSync(`${root}/node_modules/.bin/attw`, ["--pack", ".", "--profile", "esm-only", "--format", "json"], {
      cwd: root,
      encoding: "utf8",
    });
    const { analysis } = JSON.parse(output) as { analysis: { problems: Array<{ kind: string; resolutionKind: string }> } };
    expect(analysis.problems.filter((problem) => problem.resolutionKind !== "node16-cjs")).toEqual([]);
  }, 60_000);

  it("ships a bin whose --help runs", () => {
    const output = execFileSync(process.execPath, [`${root}/dist/cli.mjs`, "--help"], { encoding: "utf8" });
    expect(output).toContain("recordflare");
  });

  it("ships its guide: package.json files lists the index docs/guide.md and its chapters in docs/guide, and npm packs them", () => {
    const manifest = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { files?: string[] };
    expect(manifest.files).toEqual(expect.arrayContaining(["docs/guide.md", "docs/guide"]));
    expect(readFileSync(`${root}/docs/guide.md`, "utf8")).toMatch(/recordflare/);
    expect(readFileSync(`${root}/docs/guide/associations.md`, "utf8")).toMatch(/^## Associations$/m);
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const paths = packed[0]!.files.map((file) => file.path);
    expect(paths).toContain("docs/guide.md");
    for (const chapter of readdirSync(`${root}/docs/guide`)) expect(paths).toContain(`docs/guide/${chapter}`);
  }, 30_000);
});
