/** The command-line tool's options (SPEC 'Command-line tool'): unknown options refused, defined ones taken in either form. Runs the built dist/cli.mjs in temporary app folders. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { app, ok, read, run } from "./helpers/cli-app.js";

/** Every file of a folder, relative to it, sorted. */
function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("SPEC 'Command-line tool'", () => {
  // "Option `--id integer` gives integer keys ... Generator options beyond `--id`: not shown." The guide adds `--cwd`,
  // and `--parent` for g model only; any other option is a mistake, refused in one line like the others, before
  // anything is written: a typo of `--id` must not quietly give UUID keys.
  it("an unknown option is refused with exit code 1, and nothing is written", () => {
    const folder = app();
    for (const args of [
      ["g", "model", "User", "--ids", "integer", "name"],
      ["g", "model", "User", "name", "--primary-key-type=integer"],
      ["g", "migration", "AddAgeToUsers", "age:integer", "-f"],
      ["g", "migration", "CreateAdmins", "--parent", "User"],
      ["schema", "--force"],
    ]) {
      const result = run(folder, ...args);
      expect(result.status, args.join(" ")).toBe(1);
      expect(result.stderr).toBe(`Error: Unknown option ${args.find((word) => word.startsWith("-"))}; see --help for the options.\n`);
    }
    expect(files(folder)).toEqual([]);
  });

  it("the options the commands define are still taken, in either form", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "--id=integer", `--cwd=${folder}`, "name");
    expect(read(folder, "migrations/0001_create_users.sql")).toContain("id INTEGER PRIMARY KEY");
    ok(folder, "g", "migration", "AddAgeToUsers", "age:integer", "--cwd", folder);
    ok(folder, "schema", "--cwd", folder);
  });
});
