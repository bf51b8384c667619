// The generators' polymorphic references, in Rails' syntax (`commentable:references{polymorphic}`): the type and key
// columns, one index on the pair, the schema file's attributes, and their refusals. Runs the built `dist/cli.mjs`.
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { app, ok, read, run } from "./helpers/cli-app.js";

/** Runs a command that must fail with a one-line error, and returns it. */
function fails(cwd: string, ...args: string[]): string {
  const result = run(cwd, ...args);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^Error: [^\n]+\n$/);
  return result.stderr.trim();
}

/** The columns (name, declared type, NOT NULL) and indexes (name, columns) the migrations so far make of `table`. */
function tableShape(folder: string, migrations: readonly string[], table: string) {
  const database = new DatabaseSync(":memory:");
  for (const migration of migrations) database.exec(read(folder, `migrations/${migration}`));
  const columns = database.prepare(`SELECT name, type, "notnull" FROM pragma_table_info('${table}') ORDER BY cid`).all();
  // The generator's own indexes (a TEXT primary key has SQLite's too).
  const indexes = database.prepare(`SELECT name, "unique" FROM pragma_index_list('${table}') WHERE name LIKE 'index_%' ORDER BY name`).all();
  const indexColumns = Object.fromEntries(
    indexes.map((index) => [index["name"], database.prepare(`SELECT name FROM pragma_index_info('${String(index["name"])}') ORDER BY seqno`).all().map((row) => row["name"])]),
  );
  const foreignKeys = database.prepare(`SELECT "from", "table" FROM pragma_foreign_key_list('${table}')`).all();
  database.close();
  return { columns: columns.map((column) => ({ ...column })), indexes: indexes.map((index) => ({ ...index })), indexColumns, foreignKeys };
}

describe("g model with a polymorphic reference", () => {
  it("adds commentable_type (TEXT NOT NULL) and commentable_id, one index on the pair, and types both in the schema file", () => {
    const folder = app();
    ok(folder, "g", "model", "Comment", "commentable:references{polymorphic}", "body:text");
    expect(read(folder, "migrations/0001_create_comments.sql")).toContain(
      [
        "CREATE TABLE comments (",
        "  id TEXT PRIMARY KEY NOT NULL,",
        "  commentable_type TEXT NOT NULL,",
        "  commentable_id TEXT NOT NULL,",
        "  body TEXT,",
        "  created_at DATETIME NOT NULL,",
        "  updated_at DATETIME NOT NULL",
        ");",
        "CREATE INDEX index_comments_on_commentable ON comments (commentable_type, commentable_id);",
      ].join("\n"),
    );
    const shape = tableShape(folder, ["0001_create_comments.sql"], "comments");
    expect(shape.columns.slice(1, 4)).toEqual([
      { name: "commentable_type", type: "TEXT", notnull: 1 },
      { name: "commentable_id", type: "TEXT", notnull: 1 },
      { name: "body", type: "TEXT", notnull: 0 },
    ]);
    expect(shape.indexColumns).toEqual({ index_comments_on_commentable: ["commentable_type", "commentable_id"] });
    // Its parents are rows of several tables: no REFERENCES clause.
    expect(shape.foreignKeys).toEqual([]);
    const schema = read(folder, "src/db/schema.ts");
    expect(schema).toContain('    commentableType: { type: "string", null: false },\n    commentableId: { type: "string", null: false },\n    body: "string",');
  });

  it("writes the polymorphic belongsTo commented out, for the app to list its Models, with a note saying so", () => {
    const folder = app();
    const output = ok(folder, "g", "model", "Comment", "commentable:references{polymorphic}", "body:text");
    expect(output).toContain("note: src/models/comment.ts: list the Models a commentable may be in its belongsTo, then uncomment it\n");
    // belongsTo is imported, so that uncommenting the line is all it takes.
    expect(read(folder, "src/models/comment.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";

export class Comment extends ApplicationRecord("comments") {
  // List the Models a commentable may be, then uncomment:
  // commentable = belongsTo([], { polymorphic: true });
}
`);
    ok(folder, "g", "model", "Attachment", "record:references?{polymorphic}", "owner:references{comments}");
    expect(read(folder, "src/models/attachment.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { Comment } from "./comment.js";

export class Attachment extends ApplicationRecord("attachments") {
  // List the Models a record may be, then uncomment:
  // record = belongsTo([], { polymorphic: true, optional: true });
  owner = belongsTo(Comment);
}
`);
  });

  it("the key column takes the app's key type: INTEGER with --id integer", () => {
    const folder = app();
    ok(folder, "g", "model", "Comment", "commentable:references{polymorphic}", "--id", "integer");
    expect(read(folder, "migrations/0001_create_comments.sql")).toContain("  commentable_type TEXT NOT NULL,\n  commentable_id INTEGER NOT NULL,");
    expect(read(folder, "src/db/schema.ts")).toContain('commentableId: { type: "integer", null: false },');
  });

  it(":unique makes the index on the pair unique", () => {
    const folder = app();
    ok(folder, "g", "model", "Image", "imageable:references{polymorphic}:unique", "url");
    expect(read(folder, "migrations/0001_create_images.sql")).toContain("CREATE UNIQUE INDEX index_images_on_imageable ON images (imageable_type, imageable_id);");
  });
});

describe("g migration with a polymorphic reference", () => {
  it("Add... adds both columns (nullable, for the rows already there) and the index; Remove... drops the index and both columns", () => {
    const folder = app();
    ok(folder, "g", "model", "Note", "body");
    ok(folder, "g", "migration", "AddSubjectToNotes", "subject:references{polymorphic}");
    expect(read(folder, "migrations/0002_add_subject_to_notes.sql")).toContain(
      [
        "ALTER TABLE notes ADD COLUMN subject_type TEXT;",
        "ALTER TABLE notes ADD COLUMN subject_id TEXT;",
        "CREATE INDEX index_notes_on_subject ON notes (subject_type, subject_id);",
      ].join("\n"),
    );
    expect(read(folder, "src/db/schema.ts")).toContain('    subjectType: "string",\n    subjectId: "string",');
    ok(folder, "g", "migration", "RemoveSubjectFromNotes", "subject:references{polymorphic}");
    expect(read(folder, "migrations/0003_remove_subject_from_notes.sql")).toContain(
      ["DROP INDEX index_notes_on_subject;", "ALTER TABLE notes DROP COLUMN subject_type;", "ALTER TABLE notes DROP COLUMN subject_id;"].join("\n"),
    );
    const shape = tableShape(folder, ["0001_create_notes.sql", "0002_add_subject_to_notes.sql", "0003_remove_subject_from_notes.sql"], "notes");
    expect(shape.columns.map((column) => column["name"])).toEqual(["id", "body", "created_at", "updated_at"]);
    expect(shape.indexes).toEqual([]);
  });

  it("refuses to add a polymorphic reference whose type column exists already, writing nothing", () => {
    const folder = app();
    ok(folder, "g", "model", "Note", "subject_type");
    expect(fails(folder, "g", "migration", "AddSubjectToNotes", "subject:references{polymorphic}")).toBe(
      'Error: Column "subject:references{polymorphic}": notes already has a column subject_type.',
    );
  });
});

describe("polymorphic reference errors", () => {
  it("a word in braces other than {polymorphic} (a table, which must exist), a column named twice, a default", () => {
    const folder = app();
    expect(fails(folder, "g", "model", "Comment", "commentable:references{poly}")).toBe(
      'Error: Column "commentable:references{poly}": no migration makes the table poly (the migrations make no tables yet); name a table the migrations make, or {polymorphic} for a parent of any table.',
    );
    expect(fails(folder, "g", "model", "Comment", "commentable:references{poly-morphic}")).toBe(
      'Error: Column "commentable:references{poly-morphic}": references takes {polymorphic} or the parent\'s table, such as {comments}, not "{poly-morphic}".',
    );
    expect(fails(folder, "g", "model", "Comment", "commentable:references{polymorphic}", "commentable_type")).toBe(
      'Error: Columns "commentable:references{polymorphic}" and "commentable_type" both name the column commentable_type.',
    );
    expect(fails(folder, "g", "model", "Comment", "commentable:references{polymorphic}=1")).toMatch(/a reference takes no default/);
  });
});
