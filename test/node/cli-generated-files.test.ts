// SPEC.md's "Generated files": the files `g model` and `g migration` write and the shape of a generated table, each
// test quoting the sentence it checks. Runs the built `dist/cli.mjs` in temporary app folders.
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { app, ok, read } from "./helpers/cli-app.js";

/** Every file of a folder, relative to it, sorted. */
function files(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

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
    expect(read(folder, "src/models/blog-post.ts")).toMatch(/^export class BlogPost extends ApplicationRecord\("blog_posts"\) \{$/m);
    expect(read(folder, "src/models/blog-post.ts").match(/^export class /gm)).toHaveLength(1);
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

describe("SPEC 'Shape of a generated table'", () => {
  it("names the reference column <name>_id and the parent table by the table naming rules, with index_<table>_on_<column>", () => {
    const folder = app();
    ok(folder, "g", "model", "Person", "name:string!");
    ok(folder, "g", "model", "Human");
    ok(folder, "g", "model", "Sheep");
    ok(folder, "g", "model", "BlogCategory");
    ok(folder, "g", "model", "Comment", "person:references", "human:references", "sheep:references", "blogCategory:references", "body");
    expect(read(folder, "migrations/0001_create_people.sql")).toContain("CREATE TABLE people (\n  id TEXT PRIMARY KEY NOT NULL,\n");
    expect(read(folder, "migrations/0002_create_humen.sql")).toContain("CREATE TABLE humen (");
    expect(read(folder, "migrations/0003_create_sheep.sql")).toContain("CREATE TABLE sheep (");
    expect(read(folder, "migrations/0004_create_blog_categories.sql")).toContain("CREATE TABLE blog_categories (");
    expect(read(folder, "migrations/0005_create_comments.sql")).toBe(`-- Migration number: 0005 \t create_comments
CREATE TABLE comments (
  id TEXT PRIMARY KEY NOT NULL,
  person_id TEXT NOT NULL REFERENCES people (id),
  human_id TEXT NOT NULL REFERENCES humen (id),
  sheep_id TEXT NOT NULL REFERENCES sheep (id),
  blog_category_id TEXT NOT NULL REFERENCES blog_categories (id),
  body TEXT,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);
CREATE INDEX index_comments_on_person_id ON comments (person_id);
CREATE INDEX index_comments_on_human_id ON comments (human_id);
CREATE INDEX index_comments_on_sheep_id ON comments (sheep_id);
CREATE INDEX index_comments_on_blog_category_id ON comments (blog_category_id);
`);
    expect(read(folder, "src/models/human.ts")).toContain(`export class Human extends ApplicationRecord("humen") {}`);
    expect(read(folder, "src/models/sheep.ts")).toContain(`export class Sheep extends ApplicationRecord("sheep") {}`);
  });

  it("gives a table of a Model without columns exactly id, created_at and updated_at", () => {
    const folder = app();
    ok(folder, "g", "model", "Tag");
    expect(read(folder, "migrations/0001_create_tags.sql")).toBe(
      "-- Migration number: 0001 \t create_tags\nCREATE TABLE tags (\n  id TEXT PRIMARY KEY NOT NULL,\n  created_at DATETIME NOT NULL,\n  updated_at DATETIME NOT NULL\n);\n",
    );
    expect(read(folder, "src/db/schema.ts")).toContain(`  tags: {
    id: { type: "string", null: false, generateId: true },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },`);
  });

  it("takes --id integer before the Model name too, and a reference to that parent is an INTEGER", () => {
    const folder = app();
    ok(folder, "g", "model", "--id", "integer", "Author", "name:string!");
    ok(folder, "g", "model", "--id=integer", "Book", "author:references");
    expect(read(folder, "migrations/0001_create_authors.sql")).toContain("  id INTEGER PRIMARY KEY,\n");
    expect(read(folder, "migrations/0002_create_books.sql")).toContain("  id INTEGER PRIMARY KEY,\n  author_id INTEGER NOT NULL REFERENCES authors (id),\n");
    expect(read(folder, "src/db/schema.ts")).not.toContain("generateId");
  });
});
