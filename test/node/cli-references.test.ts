// The generators' references to one table: required (`user:references`), optional (`parent:references?`), to the
// table given in braces (`parent:references{comments}`), to the Model's own table (a self reference), and the
// refusal of a table no migration makes. Runs the built `dist/cli.mjs`; each migration is applied in SQLite with
// foreign keys enforced, as on D1.
import { describe, expect, it } from "vitest";
import { app, migrated, ok, read, refused, write } from "./helpers/cli-app.js";

describe("an optional self reference: parent:references?{comments}", { timeout: 30_000 }, () => {
  it("g model writes a nullable parent_id referencing the Model's own table, with its index, and a nullable attribute", () => {
    const folder = app();
    ok(folder, "g", "model", "Comment", "body:text!", "parent:references?{comments}");
    expect(read(folder, "migrations/0001_create_comments.sql")).toBe(`-- Migration number: 0001 \t create_comments
CREATE TABLE comments (
  id TEXT PRIMARY KEY NOT NULL,
  parent_id TEXT REFERENCES comments (id),
  body TEXT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);
CREATE INDEX index_comments_on_parent_id ON comments (parent_id);
`);
    expect(read(folder, "src/db/schema.ts")).toContain('    parentId: "string",\n');
    // A root comment has no parent; a reply must name an existing comment.
    const database = migrated(folder);
    const insert = database.prepare("INSERT INTO comments (id, parent_id, body, created_at, updated_at) VALUES (?, ?, 'x', 'now', 'now')");
    insert.run("root", null);
    insert.run("reply", "root");
    expect(() => insert.run("orphan", "missing")).toThrow(/FOREIGN KEY/);
    database.close();
  });

  it("the ? may also end the whole type, and a required self reference keeps NOT NULL; integer keys give an INTEGER reference", () => {
    const folder = app();
    ok(folder, "g", "model", "Category", "parent:references{categories}?", "--id", "integer");
    expect(read(folder, "migrations/0001_create_categories.sql")).toContain("  id INTEGER PRIMARY KEY,\n  parent_id INTEGER REFERENCES categories (id),\n");
    ok(folder, "g", "model", "Node", "root:references{nodes}");
    expect(read(folder, "migrations/0002_create_nodes.sql")).toContain("  root_id TEXT NOT NULL REFERENCES nodes (id),\n");
  });

  it("g migration Add... adds a reference to the table in braces, and Create... to its own table", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    ok(folder, "g", "migration", "AddManagerToUsers", "manager:references?{users}");
    expect(read(folder, "migrations/0002_add_manager_to_users.sql")).toContain(
      "ALTER TABLE users ADD COLUMN manager_id TEXT REFERENCES users (id);\nCREATE INDEX index_users_on_manager_id ON users (manager_id);\n",
    );
    ok(folder, "g", "migration", "CreateFolders", "parent:references?{folders}", "owner:references{users}");
    expect(read(folder, "migrations/0003_create_folders.sql")).toContain("  parent_id TEXT REFERENCES folders (id),\n  owner_id TEXT NOT NULL REFERENCES users (id),\n");
    expect(read(folder, "src/db/schema.ts")).toContain('    parentId: "string",\n    ownerId: { type: "string", null: false },\n');
  });

  it("an optional polymorphic reference makes both of its columns nullable", () => {
    const folder = app();
    ok(folder, "g", "model", "Attachment", "record:references?{polymorphic}");
    expect(read(folder, "migrations/0001_create_attachments.sql")).toContain("  record_type TEXT,\n  record_id TEXT,\n");
  });
});

describe("the Model's belongsTo of each reference, as Rails' g model writes belongs_to", { timeout: 30_000 }, () => {
  it("g model Link user:references declares user = belongsTo(User), importing User from its file, and prints no note", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    expect(ok(folder, "g", "model", "Link", "url:string!", "user:references")).toBe(
      "create     migrations/0002_create_links.sql\ncreate     src/models/link.ts\nupdate     src/db/schema.ts\n",
    );
    expect(read(folder, "src/models/link.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { User } from "./user.js";

export class Link extends ApplicationRecord("links") {
  user = belongsTo(User);
}
`);
  });

  it("names the association in camelCase, marks a ? reference optional, imports each parent once and the Model's own class never", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    ok(folder, "g", "model", "BlogPost", "title");
    ok(folder, "g", "model", "Comment", "body", "blog_post:references", "author:references{users}", "editor:references?{users}", "parent:references?{comments}");
    expect(read(folder, "src/models/comment.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { BlogPost } from "./blog-post.js";
import { User } from "./user.js";

export class Comment extends ApplicationRecord("comments") {
  blogPost = belongsTo(BlogPost);
  author = belongsTo(User);
  editor = belongsTo(User, { optional: true });
  parent = belongsTo(Comment, { optional: true });
}
`);
  });

  it("imports the Model whichever file declares the table, in any case of its name", () => {
    const folder = app();
    write(folder, "migrations/0001_people.sql", 'CREATE TABLE "People" (id TEXT PRIMARY KEY NOT NULL, name TEXT);\n');
    write(folder, "src/models/member.ts", 'import { ApplicationRecord } from "./application-record.js";\n\nexport class Member extends ApplicationRecord("People", { name: { null: false } }) {}\n');
    expect(ok(folder, "g", "model", "Badge", "holder:references{people}")).not.toContain("note:");
    expect(read(folder, "src/models/badge.ts")).toContain('import { Member } from "./member.js";\n\nexport class Badge extends ApplicationRecord("badges") {\n  holder = belongsTo(Member);\n}\n');
  });

  it("a parent whose table no Model has yet is still declared, with a note saying which file to write", () => {
    const folder = app();
    write(folder, "migrations/0001_teams.sql", "CREATE TABLE teams (id INTEGER PRIMARY KEY);\n");
    expect(ok(folder, "g", "model", "Player", "team:references")).toBe(
      [
        "create     migrations/0002_create_players.sql",
        "create     src/models/player.ts",
        "create     src/models/application-record.ts",
        "create     src/db/schema.ts",
        'note: no Model in src/models has the table teams: write export class Team extends ApplicationRecord("teams") {} in src/models/team.ts, which src/models/player.ts imports',
        "",
      ].join("\n"),
    );
    expect(read(folder, "src/models/player.ts")).toContain('import { Team } from "./team.js";\n\nexport class Player extends ApplicationRecord("players") {\n  team = belongsTo(Team);\n}\n');
  });

  it("a table in braces that no Model has gets a note and no declaration, nor an import of belongsTo", () => {
    const folder = app();
    write(folder, "migrations/0001_teams.sql", "CREATE TABLE teams (id INTEGER PRIMARY KEY);\n");
    expect(ok(folder, "g", "model", "Player", "club:references{teams}")).toContain(
      "note: no Model in src/models has the table teams: once one has, declare club = belongsTo(<that Model>) in src/models/player.ts\n",
    );
    expect(read(folder, "src/models/player.ts")).toBe('import { ApplicationRecord } from "./application-record.js";\n\nexport class Player extends ApplicationRecord("players") {}\n');
  });

  it("refuses a reference whose belongsTo would be named like a record method, then, or another attribute, writing nothing; g migration takes them", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    expect(refused(folder, "g", "model", "Report", "errors:references{users}")).toBe(
      'Error: Column "errors:references{users}": its belongsTo errors would have the name of a record method; choose another name.',
    );
    expect(refused(folder, "g", "model", "Report", "then:references{users}")).toBe(
      'Error: Column "then:references{users}": its belongsTo then would make every record a thenable, which await takes for a promise; choose another name.',
    );
    expect(refused(folder, "g", "model", "Report", "user:references", "user:string")).toBe(
      'Error: Column "user:references": its belongsTo user would have the name of the attribute user; choose another name.',
    );
    ok(folder, "g", "migration", "AddErrorsToUsers", "errors:references?{users}");
  });
});

describe("reference refusals", { timeout: 30_000 }, () => {
  it("refuses a reference to a table no migration makes, naming the argument and the table, for g model and g migration", () => {
    const folder = app();
    expect(refused(folder, "g", "model", "Post", "author:references")).toBe(
      'Error: Column "author:references": no migration makes the table authors (the migrations make no tables yet); generate its Model first, or name the parent\'s table in braces (author:references{<table>}).',
    );
    ok(folder, "g", "model", "User", "name");
    expect(refused(folder, "g", "model", "Post", "parent:references?{postings}")).toMatch(/^Error: Column "parent:references\?\{postings\}": no migration makes the table postings \(tables: users\)/);
    expect(refused(folder, "g", "migration", "AddTeamToUsers", "team:references?")).toMatch(/^Error: Column "team:references\?": no migration makes the table teams \(tables: users\)/);
    expect(refused(folder, "g", "migration", "CreateTags", "post:references")).toMatch(/no migration makes the table posts/);
  });

  it("counts a table any migration makes, one written by hand in another case too, and not one a later migration drops", () => {
    const folder = app();
    write(folder, "migrations/0001_teams.sql", 'CREATE TABLE "Teams" (id INTEGER PRIMARY KEY, name TEXT);\nCREATE TABLE drafts (id TEXT PRIMARY KEY);\n');
    write(folder, "migrations/0002_no_drafts.sql", "DROP TABLE drafts;\n");
    ok(folder, "g", "model", "Player", "team:references", "mentor:references?{players}");
    expect(read(folder, "migrations/0003_create_players.sql")).toContain(
      "  team_id INTEGER NOT NULL REFERENCES teams (id),\n  mentor_id TEXT REFERENCES players (id),\n",
    );
    ok(folder, "g", "migration", "AddCaptainToTeams", "captain:references?{players}");
    expect(read(folder, "migrations/0004_add_captain_to_teams.sql")).toContain("ALTER TABLE Teams ADD COLUMN captain_id TEXT REFERENCES players (id);\n");
    expect(refused(folder, "g", "model", "Note", "draft:references")).toBe(
      'Error: Column "draft:references": no migration makes the table drafts (tables: Teams, players); generate its Model first, or name the parent\'s table in braces (draft:references{<table>}).',
    );
    const database = migrated(folder);
    database.exec("INSERT INTO teams (id, name) VALUES (1, 'Reds')");
    database.exec("INSERT INTO players (id, team_id, created_at, updated_at) VALUES ('p1', 1, 'now', 'now')");
    expect(() => database.exec("INSERT INTO players (id, team_id, created_at, updated_at) VALUES ('p2', 2, 'now', 'now')")).toThrow(/FOREIGN KEY/);
    database.close();
  });

  it("refuses ? on a column that is not a reference, ! with ?, a table in braces that is no name, and a reserved table", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name");
    expect(refused(folder, "g", "model", "Post", "title:string?")).toBe(
      'Error: Column "title:string?": ? makes a reference optional; other columns are nullable unless marked !.',
    );
    expect(refused(folder, "g", "model", "Post", "user!:references?")).toMatch(/either required \(!\) or optional \(\?\), not both/);
    expect(refused(folder, "g", "model", "Post", "user:references{users;drop}")).toBe(
      'Error: Column "user:references{users;drop}": references takes {polymorphic} or the parent\'s table, such as {comments}, not "{users;drop}".',
    );
    expect(refused(folder, "g", "model", "Post", "log:references{d1_migrations}")).toMatch(/^Error: Column "log:references\{d1_migrations\}": the table d1_migrations has a reserved name/);
  });
});

describe("guide: Generating a Model, The Model's belongsTo", { timeout: 60_000 }, () => {
  it("the chapter's commands write the Models and print the note it shows", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!", "email:string:unique");
    ok(folder, "g", "model", "BlogPost", "title:string!", "body", "published:boolean=false", "user:references", "slug:string:unique");
    expect(read(folder, "src/models/blog-post.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { User } from "./user.js";

export class BlogPost extends ApplicationRecord("blog_posts") {
  user = belongsTo(User);
}
`);
    ok(folder, "g", "migration", "CreateTeams", "name:string!");
    expect(ok(folder, "g", "model", "Player", "team:references")).toBe(`create     migrations/0004_create_players.sql
create     src/models/player.ts
update     src/db/schema.ts
note: no Model in src/models has the table teams: write export class Team extends ApplicationRecord("teams") {} in src/models/team.ts, which src/models/player.ts imports
`);
  });
});

describe("guide: References, Indexes of several columns", { timeout: 60_000 }, () => {
  it("the chapter's commands write the statements it shows", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!", "email:string:unique");
    ok(folder, "g", "model", "BlogPost", "title:string!", "body", "published:boolean=false", "user:references", "slug:string:unique");
    expect(refused(folder, "g", "model", "Review", "author:references")).toBe(
      'Error: Column "author:references": no migration makes the table authors (tables: blog_posts, users); generate its Model first, or name the parent\'s table in braces (author:references{<table>}).',
    );
    ok(folder, "g", "model", "Comment", "body:string!", "blogPost:references", "parent:references?{comments}");
    expect(read(folder, "migrations/0003_create_comments.sql")).toBe(`-- Migration number: 0003 \t create_comments
CREATE TABLE comments (
  id TEXT PRIMARY KEY NOT NULL,
  blog_post_id TEXT NOT NULL REFERENCES blog_posts (id),
  parent_id TEXT REFERENCES comments (id),
  body TEXT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);
CREATE INDEX index_comments_on_blog_post_id ON comments (blog_post_id);
CREATE INDEX index_comments_on_parent_id ON comments (parent_id);
`);
    expect(read(folder, "src/db/schema.ts")).toContain('    blogPostId: { type: "string", null: false },\n    parentId: "string",\n');
    expect(read(folder, "src/models/comment.ts")).toBe(`import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { BlogPost } from "./blog-post.js";

export class Comment extends ApplicationRecord("comments") {
  blogPost = belongsTo(BlogPost);
  parent = belongsTo(Comment, { optional: true });
}
`);
    ok(folder, "g", "model", "Vote", "user:references", "blogPost:references", "user+blogPost:unique");
    expect(read(folder, "migrations/0004_create_votes.sql")).toContain(`CREATE INDEX index_votes_on_user_id ON votes (user_id);
CREATE INDEX index_votes_on_blog_post_id ON votes (blog_post_id);
CREATE UNIQUE INDEX index_votes_on_user_id_and_blog_post_id ON votes (user_id, blog_post_id);
`);
    ok(folder, "g", "migration", "AddIndexToBlogPosts", "title:index");
    expect(read(folder, "migrations/0005_add_index_to_blog_posts.sql")).toBe(
      "-- Migration number: 0005 \t add_index_to_blog_posts\nCREATE INDEX index_blog_posts_on_title ON blog_posts (title);\n",
    );
  });
});
