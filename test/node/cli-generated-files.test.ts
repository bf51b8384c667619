// Black-box probes of SPEC.md's "Generated files", "Command-line tool" and "Versioning" sections, beside what
// cli.test.ts, spec-audit-cli.test.ts and spec-edge-cases-cli.test.ts already check (column forms, error messages,
// table shape, numbering, the generated app type-checking and applying). Each test quotes the sentence it checks.
// Like them, it runs the built `dist/cli.mjs` in temporary app folders.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { app, ok, read, root, run } from "./helpers/cli-app.js";

/** Every file of a folder, relative to it, sorted. */
function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

describe("SPEC 'Generated files'", () => {
  // "| `migrations/<nnnn>_create_<table>.sql` | ... | `src/db/schema.ts` | ... | `src/models/application-record.ts` |
  // ... | `src/models/<model>.ts` | One Model per table |": those files and no others.
  it("g model writes exactly the four files of the table, and a second Model only its migration and Model", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    expect(files(folder)).toEqual(["migrations/0001_create_users.sql", "src/db/schema.ts", "src/models/application-record.ts", "src/models/user.ts"]);
    ok(folder, "g", "model", "BlogPost", "user:references");
    expect(files(folder)).toEqual([
      "migrations/0001_create_users.sql",
      "migrations/0002_create_blog_posts.sql",
      "src/db/schema.ts",
      "src/models/application-record.ts",
      "src/models/blog-post.ts",
      "src/models/user.ts",
    ]);
    // One Model per table: the Model file declares the one class for its table.
    expect(read(folder, "src/models/blog-post.ts")).toMatch(/^export class BlogPost extends ApplicationRecord\("blog_posts"\) \{\}$/m);
  });

  // "`src/db/schema.ts` | Every table's columns, generated from the migrations; must not be edited by hand"
  it("the schema file says it must not be edited by hand, and `schema` puts back a hand edit", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    const generated = read(folder, "src/db/schema.ts");
    expect(generated.split("\n")[0]).toMatch(/Do not edit by hand/);
    writeFileSync(path.join(folder, "src/db/schema.ts"), generated.replace('name: "string"', 'name: "integer"'));
    expect(ok(folder, "schema")).toBe("update     src/db/schema.ts\n");
    expect(read(folder, "src/db/schema.ts")).toBe(generated);
  });

  // "Shape of a generated table: ... declared columns": a column named like an SQL keyword is a declared column too;
  // as Rails quotes identifiers, the migration quotes it, SQLite accepts it and the schema reads it back.
  it("a column named like an SQL keyword is quoted in the migration and read back by schema", () => {
    const folder = app();
    ok(folder, "g", "model", "Line", "order:integer", "group");
    const migration = read(folder, "migrations/0001_create_lines.sql");
    expect(migration).toContain('"order" INTEGER');
    const database = new DatabaseSync(":memory:");
    database.exec(migration);
    expect(database.prepare('SELECT name FROM pragma_table_info(\'lines\') ORDER BY cid').all().map((row) => row.name)).toEqual([
      "id",
      "order",
      "group",
      "created_at",
      "updated_at",
    ]);
    database.close();
    expect(read(folder, "src/db/schema.ts")).toContain('order: "integer",\n    group: "string",');
  });
});

describe("SPEC 'Command-line tool'", () => {
  // "Option `--id integer` gives integer keys ... Generator options beyond `--id`: not shown." The guide adds only
  // `--cwd`; any other option is a mistake, refused in one line like the others, before anything is written: a typo
  // of `--id` must not quietly give UUID keys.
  it("an unknown option is refused with exit code 1, and nothing is written", () => {
    const folder = app();
    for (const args of [
      ["g", "model", "User", "--ids", "integer", "name"],
      ["g", "model", "User", "name", "--primary-key-type=integer"],
      ["g", "migration", "AddAgeToUsers", "age:integer", "-f"],
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
