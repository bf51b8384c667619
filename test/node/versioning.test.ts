/** SPEC 'Versioning': the package's 0.x version, the guide's version line, --version, and no version in generated files. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { app, ok, read, root } from "./helpers/cli-app.js";

/** Every file of a folder, relative to it, sorted. */
function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

describe("SPEC 'Versioning'", () => {
  // "1. The library is at a 0.x version, before 1.0"
  it("the package is at a 0.x version", () => {
    expect(manifest.version).toMatch(/^0\.\d+\.\d+$/);
  });

  // "3. The package ships a copy of its guide matching the installed version."
  it("the shipped guide names the package's own 0.<minor> line", () => {
    const minorLine = manifest.version.replace(/\.\d+$/, ".x");
    expect(readFileSync(path.join(root, "docs/guide.md"), "utf8")).toContain(`This guide matches the installed version (${minorLine}).`);
  });

  // "3. ... matching the installed version": the tool tells which version is installed, as `rails --version` does.
  it("recordflare --version prints the installed package's version", () => {
    expect(ok(app(), "--version")).toBe(`${manifest.version}\n`);
  });

  // "4. The generated schema file and migrations are produced by the tool and carry no separate version number"
  it("the generated schema file and migrations carry no version number", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    ok(folder, "g", "migration", "AddAgeToUsers", "age:integer");
    for (const file of files(folder).filter((name) => !name.startsWith("src/models/"))) {
      const text = read(folder, file);
      expect(text, file).not.toMatch(/version/i);
      expect(text, file).not.toContain(manifest.version);
    }
  });
});
