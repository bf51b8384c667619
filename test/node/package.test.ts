import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
    expect(hono).toMatch(/from '\.\/kernel\/context\.mjs'/);
  });

  it("ships a bin whose --help runs", () => {
    const output = execFileSync(process.execPath, [`${root}/dist/cli.mjs`, "--help"], { encoding: "utf8" });
    expect(output).toContain("recordflare");
  });

  it("ships its guide: package.json files lists docs/guide.md, which exists and is the guide", () => {
    const manifest = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { files?: string[] };
    expect(manifest.files).toContain("docs/guide.md");
    expect(existsSync(`${root}/docs/guide.md`)).toBe(true);
    const guide = readFileSync(`${root}/docs/guide.md`, "utf8");
    expect(guide).toMatch(/recordflare/);
    expect(guide).toMatch(/^## Associations$/m);
    // What npm would pack includes it.
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as Array<{ files: Array<{ path: string }> }>;
    expect(packed[0]!.files.map((file) => file.path)).toContain("docs/guide.md");
  });
});
