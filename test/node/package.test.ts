import { execFileSync } from "node:child_process";
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

  it("ships a bin whose --help runs", () => {
    const output = execFileSync(process.execPath, [`${root}/dist/cli.mjs`, "--help"], { encoding: "utf8" });
    expect(output).toContain("recordflare");
  });
});
