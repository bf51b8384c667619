// The generators' indexes beyond one column's own: an index of several columns (`'user_id+link_id:unique'`), in
// g model and in g migration Add..., and an index on a column the table has (`AddIndexToLinks url:index`), read back
// by the next generator and by `schema`. Runs the built `dist/cli.mjs`; each migration is applied in SQLite.
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { app, ok, read, refused } from "./helpers/cli-app.js";

/** The indexes of a table after every migration, as SQLite reports them: name, unique, columns. */
function indexesOf(folder: string, table: string): Array<{ name: string; unique: boolean; columns: string[] }> {
  const database = new DatabaseSync(":memory:");
  for (const file of readdirSync(path.join(folder, "migrations")).sort()) database.exec(read(folder, `migrations/${file}`));
  const indexes = database
    .prepare("SELECT name, \"unique\" FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name")
    .all(table)
    .map((row) => ({
      name: String(row["name"]),
      unique: row["unique"] === 1,
      columns: database.prepare("SELECT name FROM pragma_index_info(?) ORDER BY seqno").all(String(row["name"])).map((info) => String(info["name"])),
    }));
  database.close();
  return indexes;
}

/** A links board's users, links and votes. */
function board(): string {
  const folder = app();
  ok(folder, "g", "model", "User", "name:string!");
  ok(folder, "g", "model", "Link", "url:string!", "user:references");
  ok(folder, "g", "model", "Vote", "user:references", "link:references");
  return folder;
}

describe("an index of several columns", { timeout: 30_000 }, () => {
  it("g migration AddIndexToVotes 'user_id+link_id:uniq' makes a unique index on the pair, which SQLite enforces", () => {
    const folder = board();
    const output = ok(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id:uniq");
    expect(output).toBe("create     migrations/0004_add_index_to_votes.sql\nidentical  src/db/schema.ts\n");
    expect(read(folder, "migrations/0004_add_index_to_votes.sql")).toBe(
      "-- Migration number: 0004 \t add_index_to_votes\nCREATE UNIQUE INDEX index_votes_on_user_id_and_link_id ON votes (user_id, link_id);\n",
    );
    expect(indexesOf(folder, "votes")).toContainEqual({ name: "index_votes_on_user_id_and_link_id", unique: true, columns: ["user_id", "link_id"] });
    // `schema` reads the tables back with the index and writes the same file.
    expect(ok(folder, "schema")).toBe("identical  src/db/schema.ts\n");
    // The next generator reads the index back: the same index again is refused, naming it.
    expect(refused(folder, "g", "migration", "AddPairToVotes", "userId+linkId:unique")).toBe(
      'Error: Index "userId+linkId:unique": votes already has the index index_votes_on_user_id_and_link_id, on user_id, link_id.',
    );
  });

  it("g model takes one beside the columns, :index for a plain one, on references and columns alike", () => {
    const folder = board();
    ok(folder, "g", "model", "Bookmark", "user:references", "link:references", "folder", "user_id+link_id:unique", "user_id+folder:index");
    expect(read(folder, "migrations/0004_create_bookmarks.sql")).toContain(
      [
        "CREATE INDEX index_bookmarks_on_link_id ON bookmarks (link_id);",
        "CREATE UNIQUE INDEX index_bookmarks_on_user_id_and_link_id ON bookmarks (user_id, link_id);",
        "CREATE INDEX index_bookmarks_on_user_id_and_folder ON bookmarks (user_id, folder);",
      ].join("\n"),
    );
    expect(indexesOf(folder, "bookmarks").map((index) => index.name)).toEqual([
      "index_bookmarks_on_link_id",
      "index_bookmarks_on_user_id",
      "index_bookmarks_on_user_id_and_folder",
      "index_bookmarks_on_user_id_and_link_id",
    ]);
  });

  it("a reference is named by its name too: user+link is user_id+link_id, a polymorphic one its type and key columns", () => {
    const folder = board();
    ok(folder, "g", "migration", "AddIndexToVotes", "user+link:unique");
    expect(read(folder, "migrations/0004_add_index_to_votes.sql")).toBe(
      "-- Migration number: 0004 \t add_index_to_votes\nCREATE UNIQUE INDEX index_votes_on_user_id_and_link_id ON votes (user_id, link_id);\n",
    );
    ok(folder, "g", "model", "Bookmark", "user:references", "link:references", "folder", "blogPost:references?{links}", "user+folder:index", "link+blogPost:unique");
    expect(read(folder, "migrations/0005_create_bookmarks.sql")).toContain(
      [
        "CREATE INDEX index_bookmarks_on_user_id_and_folder ON bookmarks (user_id, folder);",
        "CREATE UNIQUE INDEX index_bookmarks_on_link_id_and_blog_post_id ON bookmarks (link_id, blog_post_id);",
      ].join("\n"),
    );
    ok(folder, "g", "model", "Like", "likeable:references{polymorphic}", "user:references", "likeable+user:unique");
    expect(read(folder, "migrations/0006_create_likes.sql")).toContain(
      "CREATE UNIQUE INDEX index_likes_on_likeable_type_and_likeable_id_and_user_id ON likes (likeable_type, likeable_id, user_id);\n",
    );
    expect(indexesOf(folder, "likes")).toContainEqual({
      name: "index_likes_on_likeable_type_and_likeable_id_and_user_id",
      unique: true,
      columns: ["likeable_type", "likeable_id", "user_id"],
    });
    // A column of the name wins over a reference's: a table with both `user` and `user_id` indexes `user`.
    ok(folder, "g", "model", "Alias", "user", "owner:references{users}", "user+owner:index");
    expect(read(folder, "migrations/0007_create_aliases.sql")).toContain("CREATE INDEX index_aliases_on_user_and_owner_id ON aliases (user, owner_id);\n");
  });

  it("a + in a column's default is not an index: note=a+b is a column", () => {
    const folder = app();
    ok(folder, "g", "model", "Memo", "note=a+b", "sum:string=1+1");
    expect(read(folder, "migrations/0001_create_memos.sql")).toContain("  note TEXT DEFAULT 'a+b',\n  sum TEXT DEFAULT '1+1',\n");
  });

  it("g migration Add... may index a column it adds together with one the table has", () => {
    const folder = board();
    ok(folder, "g", "migration", "AddRankToVotes", "rank:integer=0", "link_id+rank:index");
    expect(read(folder, "migrations/0004_add_rank_to_votes.sql")).toContain(
      "ALTER TABLE votes ADD COLUMN rank INTEGER DEFAULT 0;\nCREATE INDEX index_votes_on_link_id_and_rank ON votes (link_id, rank);\n",
    );
  });

  it("removing a column drops the index of several columns that includes it", () => {
    const folder = board();
    ok(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id:unique");
    ok(folder, "g", "migration", "RemoveUserFromVotes", "user:references");
    expect(read(folder, "migrations/0005_remove_user_from_votes.sql")).toContain(
      "DROP INDEX index_votes_on_user_id;\nDROP INDEX index_votes_on_user_id_and_link_id;\nALTER TABLE votes DROP COLUMN user_id;\n",
    );
    expect(indexesOf(folder, "votes").map((index) => index.name)).toEqual(["index_votes_on_link_id"]);
  });
});

describe("an index on a column the table has", { timeout: 30_000 }, () => {
  it("AddIndexToLinks url:index adds the index alone; url:unique a unique one; a name the table lacks is still a new column", () => {
    const folder = board();
    ok(folder, "g", "migration", "AddIndexToLinks", "url:index");
    expect(read(folder, "migrations/0004_add_index_to_links.sql")).toBe("-- Migration number: 0004 \t add_index_to_links\nCREATE INDEX index_links_on_url ON links (url);\n");
    ok(folder, "g", "migration", "AddUniqueNameToUsers", "name:unique");
    expect(read(folder, "migrations/0005_add_unique_name_to_users.sql")).toContain("CREATE UNIQUE INDEX index_users_on_name ON users (name);");
    ok(folder, "g", "migration", "AddSlugToLinks", "slug:index");
    expect(read(folder, "migrations/0006_add_slug_to_links.sql")).toContain("ALTER TABLE links ADD COLUMN slug TEXT;\nCREATE INDEX index_links_on_slug ON links (slug);\n");
  });

  it("a column the table has, given with a type, ! or a default, is still refused as a column that exists", () => {
    const folder = board();
    expect(refused(folder, "g", "migration", "AddUrlToLinks", "url:string:index")).toBe('Error: Column "url:string:index": links already has a column url.');
  });

  it(":unique_nocase on a column the table has is taken for a string column only, as for a new column", () => {
    const folder = board();
    ok(folder, "g", "migration", "AddRankToVotes", "rank:integer");
    expect(refused(folder, "g", "migration", "AddRankIndexToVotes", "rank:unique_nocase")).toBe(
      'Error: Column "rank:unique_nocase": :unique_nocase is for string columns, not integer (votes.rank).',
    );
    ok(folder, "g", "migration", "AddUrlIndexToLinks", "url:unique_nocase");
    expect(read(folder, "migrations/0005_add_url_index_to_links.sql")).toContain("CREATE UNIQUE INDEX index_links_on_url ON links (url COLLATE NOCASE);\n");
  });
});

describe("index refusals", { timeout: 30_000 }, () => {
  it("names a column no migration makes, a repeated column, a missing or unknown kind, :unique_nocase, and Remove...", () => {
    const folder = board();
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+lnk_id:unique")).toBe(
      'Error: Index "user_id+lnk_id:unique": votes has no column lnk_id (columns: id, user_id, link_id, created_at, updated_at).',
    );
    expect(refused(folder, "g", "model", "Pair", "left", "left+right:unique")).toMatch(/^Error: Index "left\+right:unique": pairs has no column right \(columns: id, left, created_at, updated_at\)\.$/);
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+user_id:unique")).toBe('Error: Index "user_id+user_id:unique": the column user_id is named twice.');
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user+user_id:unique")).toBe('Error: Index "user+user_id:unique": the column user_id is named twice.');
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id")).toMatch(/^Error: Index "user_id\+link_id": give one kind of index\./);
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id:primary")).toMatch(/unknown kind "primary"/);
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id:unique_nocase")).toMatch(/:unique_nocase is for an index of one string column/);
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+link_id:unique", "userId+linkId:index")).toBe(
      'Error: Indexes "user_id+link_id:unique" and "userId+linkId:index" are on the same columns.',
    );
    expect(refused(folder, "g", "migration", "AddIndexToVotes", "user_id+1x:unique")).toMatch(/"1x" is not a column name/);
    expect(refused(folder, "g", "migration", "RemoveIndexFromVotes", "user_id+link_id:unique")).toMatch(/drops columns; to drop an index alone/);
  });
});
