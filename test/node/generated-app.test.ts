// A generated app end to end: it type-checks with tsc, its migrations apply with `wrangler d1 migrations apply
// --local`, and its Models create records on that local D1 through `getPlatformProxy`. Runs the built
// `dist/cli.mjs` in temporary app folders.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { describe, expect, it } from "vitest";
import { app, ok, read, refused, root, write } from "./helpers/cli-app.js";

const tsc = path.join(root, "node_modules/typescript/bin/tsc");

const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");

/** Makes `import ... from "recordflare"` (and the Workers types) resolve in an app folder, as after `npm install`. */
function linkPackages(folder: string): void {
  mkdirSync(path.join(folder, "node_modules/@cloudflare"), { recursive: true });
  symlinkSync(root, path.join(folder, "node_modules/recordflare"), "dir");
  symlinkSync(path.join(root, "node_modules/@cloudflare/workers-types"), path.join(folder, "node_modules/@cloudflare/workers-types"), "dir");
  write(folder, "package.json", JSON.stringify({ name: "app", private: true, type: "module" }));
}

/**
 * An app made with the tool: UUID and integer keys, references and their belongsTo, defaults, a unique column, json,
 * later migrations, an optional self reference, unique indexes of two columns, a single-table-inheritance subclass,
 * and a parent Model written by hand as the generator's note says. User gets `links = hasMany(Link)` by hand, so
 * user.ts and link.ts import each other.
 */
function generatedApp(): string {
  const folder = app();
  ok(folder, "g", "model", "Author", "name:string!", "--id", "integer");
  ok(folder, "g", "model", "User", "name:string!", "email:string:unique", "admin:boolean!=false", "settings:json");
  ok(folder, "g", "model", "BlogPost", "title:string!", "body", "user:references", "author:references", "publishedAt:datetime", "views:integer=0");
  ok(folder, "g", "migration", "AddNicknameToUsers", "nickname:string=anon");
  ok(folder, "g", "model", "Comment", "body:string!", "blogPost:references", "parent:references?{comments}");
  ok(folder, "g", "migration", "AddIndexToBlogPosts", "author+title:unique");
  ok(folder, "g", "migration", "AddTypeToUsers", "type:string");
  ok(folder, "g", "model", "Admin", "--parent", "User");
  ok(folder, "g", "model", "Link", "url:string!", "user:references", "user+url:unique");
  const user = read(folder, "src/models/user.ts")
    .replace('import { ApplicationRecord } from "./application-record.js";', '$&\nimport { Link } from "./link.js";')
    .replace('export class User extends ApplicationRecord("users") {', "$&\n  links = hasMany(Link);\n");
  write(folder, "src/models/user.ts", `import { hasMany } from "recordflare";\n${user}`);
  write(folder, "migrations/0009_create_teams.sql", "CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT);\n");
  const note = /^note: .*: write (export class Team .*) in (src\/models\/team\.ts), which src\/models\/player\.ts imports$/m.exec(
    ok(folder, "g", "model", "Player", "team:references"),
  );
  write(folder, note![2]!, `import { ApplicationRecord } from "./application-record.js";\n\n${note![1]}\n`);
  return folder;
}

describe("a generated app", () => {
  it("type-checks, with SPEC's compile errors and nullability holding for the generated schema", () => {
    const folder = generatedApp();
    // The migrations' indexes are read back: \`schema\` writes the same file, and the same pair again is refused by name.
    expect(ok(folder, "schema")).toBe("identical  src/db/schema.ts\n");
    expect(refused(folder, "g", "migration", "AddTitleIndexToBlogPosts", "author_id+title:unique")).toBe(
      'Error: Index "author_id+title:unique": blog_posts already has the index index_blog_posts_on_author_id_and_title, on author_id, title.',
    );
    linkPackages(folder);
    write(
      folder,
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023"],
          module: "ESNext",
          moduleResolution: "bundler",
          types: ["@cloudflare/workers-types"],
          strict: true,
          noImplicitOverride: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ["src"],
      }),
    );
    write(
      folder,
      "src/check.ts",
      `import { ApplicationRecord } from "./models/application-record.js";
import { Author } from "./models/author.js";
import { Admin } from "./models/admin.js";
import { BlogPost } from "./models/blog-post.js";
import { Comment } from "./models/comment.js";
import { Link } from "./models/link.js";
import { Player } from "./models/player.js";
import { Team } from "./models/team.js";
import { User } from "./models/user.js";

export async function check(input: FormData) {
  // Nullability: NOT NULL columns and keys are non-null; the others include null.
  const user = User.build({ name: "Ada", settings: { theme: "dark" } });
  const id: string = user.id;
  const name: string = user.name;
  const admin: boolean = user.admin;
  const email: string | null = user.email;
  const nickname: string | null = user.nickname;
  const createdAt: Date = user.createdAt;
  // @ts-expect-error: email is nullable
  const notNullEmail: string = user.email;
  const author = await Author.createOrThrow({ name: "Ann" });
  const authorId: number = author.id;
  const post = BlogPost.build({ title: "Hi", userId: user.id, authorId: author.id, publishedAt: "2024-01-01" });
  const userId: string = post.userId;
  const views: number | null = post.views;
  const publishedAt: Date | null = post.publishedAt;
  // @ts-expect-error: body is nullable
  const body: string = post.body;
  // A subclass is a User, with the table's attributes; an optional self reference is nullable.
  const superuser: User = Admin.build({ name: "Root" });
  const type: string | null = superuser.type;
  const comment = Comment.build({ body: "Hi", blogPostId: post.id, parentId: null });
  const parentId: string | null = comment.parentId;
  const blogPostId: string = comment.blogPostId;
  // @ts-expect-error: parentId is nullable
  const requiredParent: string = comment.parentId;
  // The generated belongsTo are typed by their parents, an optional one nullable; User's hand-written hasMany too.
  const link = Link.build({ url: "https://example.com", user });
  const linkUser: User | null = await link.user.load();
  const parent: Comment | null = await comment.parent.load();
  const postAuthor: Author | null = post.author.get();
  const team: Team | null = await Player.build({ teamId: 1 }).team.load();
  const links: Link[] = await user.links().toArray();
  // @ts-expect-error: user takes a User, not an Author
  Link.build({ url: "https://example.com", user: author });
  // pluck tuples follow the generated types.
  const pairs: [string, number | null][] = await BlogPost.pluck("title", "views");

  // A table absent from the schema is a compile error.
  // @ts-expect-error: no table tags
  ApplicationRecord("tags");
  // An unknown override key is a compile error.
  // @ts-expect-error: nope is not an attribute of users
  ApplicationRecord("users", { nope: false });
  class Strict extends ApplicationRecord("users", { email: { null: false } }) {}
  const strictEmail: string = new Strict().email;
  // Unknown attribute names in build / create / assign / update / permit.
  // @ts-expect-error: nope is not an attribute
  User.build({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await User.create({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  user.assign({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await user.update({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  User.permit(input, "nope");
  // Column names are not attribute names.
  // @ts-expect-error: published_at is the column, publishedAt the attribute
  BlogPost.build({ published_at: "2024-01-01" });
  return [id, name, admin, email, nickname, createdAt, notNullEmail, authorId, userId, views, publishedAt, body, pairs, strictEmail, type, parentId, blogPostId, requiredParent, linkUser, parent, postAuthor, team, links];
}
`,
    );
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: folder, encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  }, 60_000);

  it("applies with `wrangler d1 migrations apply --local`, and its Models create, find and refuse duplicates on that D1", async () => {
    const folder = generatedApp();
    linkPackages(folder);
    write(
      folder,
      "wrangler.jsonc",
      JSON.stringify({
        name: "app",
        main: "src/index.ts",
        compatibility_date: "2026-11-01",
        compatibility_flags: ["nodejs_compat"],
        d1_databases: [{ binding: "DB", database_name: "app", database_id: "00000000-0000-0000-0000-000000000000" }],
      }),
    );
    const applied = spawnSync(process.execPath, [wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", "state"], {
      cwd: folder,
      encoding: "utf8",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    expect(applied.status, applied.stdout + applied.stderr).toBe(0);

    // The generated TypeScript, transpiled next to itself (the imports name `.js` files).
    const sources = ["src/db/schema.ts", ...readdirSync(path.join(folder, "src/models")).map((file) => `src/models/${file}`)];
    for (const file of sources) {
      const { code } = await transform(read(folder, file), { loader: "ts", format: "esm" });
      write(folder, file.replace(/\.ts$/, ".js"), code);
    }
    const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(folder, file)).href)) as T;
    type AnyModel = {
      createOrThrow(attributes: object): Promise<Record<string, unknown>>;
      create(attributes: object): Promise<Record<string, unknown> & { isPersisted(): boolean }>;
      find(id: unknown): Promise<Record<string, unknown>>;
      count(): Promise<number>;
      where(conditions: object): { toArray(): Promise<object[]> };
    };
    const { Author } = await load<{ Author: AnyModel }>("src/models/author.js");
    const { User } = await load<{ User: AnyModel }>("src/models/user.js");
    const { BlogPost } = await load<{ BlogPost: AnyModel }>("src/models/blog-post.js");
    const { Comment } = await load<{ Comment: AnyModel }>("src/models/comment.js");
    const { Admin } = await load<{ Admin: AnyModel & (new () => object) }>("src/models/admin.js");
    type WithParent = { load(): Promise<Record<string, unknown> | null> };
    const { Link } = await load<{ Link: AnyModel }>("src/models/link.js");
    // The package as the app imports it, so that it is the same module instance as the Models' own import.
    write(folder, "src/recordflare.js", 'export * from "recordflare";\n');
    const recordflare = await load<typeof import("recordflare")>("src/recordflare.js");

    const { getPlatformProxy } = (await import(pathToFileURL(path.join(root, "node_modules/wrangler/wrangler-dist/cli.js")).href)) as {
      getPlatformProxy(options: object): Promise<{ env: Record<string, unknown>; dispose(): Promise<void> }>;
    };
    const proxy = await getPlatformProxy({ configPath: path.join(folder, "wrangler.jsonc"), persist: { path: path.join(folder, "state/v3") } });
    try {
      const sent: string[] = [];
      const db = recordflare.connect(proxy.env.DB as D1Database, { onQuery: (event) => sent.push(event.sql) });
      await recordflare.withDatabase(db, async () => {
        const author = await Author.createOrThrow({ name: "Ann" });
        expect(typeof author.id).toBe("number"); // --id integer: assigned by the database
        const user = await User.createOrThrow({ name: "Ada", email: "ada@example.com", settings: { theme: "dark" } });
        expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/); // UUID text made in code
        expect({ admin: user.admin, nickname: user.nickname }).toEqual({ admin: false, nickname: "anon" });
        expect(user.createdAt).toBeInstanceOf(Date);
        const post = await BlogPost.createOrThrow({ title: "Hello", userId: user.id, authorId: author.id, publishedAt: "2024-01-01" });
        const found = await BlogPost.find(post.id);
        expect({ title: found.title, views: found.views, authorId: found.authorId, userId: found.userId }).toEqual({
          title: "Hello",
          views: 0,
          authorId: author.id,
          userId: user.id,
        });
        expect(found.publishedAt).toEqual(new Date("2024-01-01T00:00:00Z"));
        expect((await User.find(user.id)).settings).toEqual({ theme: "dark" });
        // :unique gives a unique index, refused by D1 as RecordNotUnique.
        await expect(User.create({ name: "Eve", email: "ada@example.com" })).rejects.toBeInstanceOf(recordflare.RecordNotUnique);
        // A reference is NOT NULL REFERENCES <parent_table> (id): D1 refuses a missing parent.
        await expect(BlogPost.create({ title: "Orphan", userId: "nobody", authorId: author.id })).rejects.toThrow(/FOREIGN KEY/);
        // author_id+title:unique: D1 refuses the same title twice for one author, and takes it for another.
        await expect(BlogPost.create({ title: "Hello", userId: user.id, authorId: author.id })).rejects.toBeInstanceOf(recordflare.RecordNotUnique);
        const other = await Author.createOrThrow({ name: "Bo" });
        await BlogPost.createOrThrow({ title: "Hello", userId: user.id, authorId: other.id });
        expect(await BlogPost.count()).toBe(2);
        // parent:references?{comments}: a root comment has none; a reply names an existing comment.
        const root = await Comment.createOrThrow({ body: "First", blogPostId: post.id });
        const reply = await Comment.createOrThrow({ body: "Reply", blogPostId: post.id, parentId: root.id });
        expect([(await Comment.find(root.id)).parentId, (await Comment.find(reply.id)).parentId]).toEqual([null, root.id]);
        await expect(Comment.create({ body: "Orphan", blogPostId: post.id, parentId: "nobody" })).rejects.toThrow(/FOREIGN KEY/);
        // g model Admin --parent User: Admin's rows are stored in users with their type, and read back as Admins.
        await Admin.createOrThrow({ name: "Root", email: "root@example.com" });
        const [rootUser] = await User.where({ name: "Root" }).toArray();
        const [ada] = await User.where({ name: "Ada" }).toArray();
        expect(rootUser).toBeInstanceOf(Admin);
        expect((rootUser as { type: string }).type).toBe("Admin");
        expect(ada).not.toBeInstanceOf(Admin);
        expect(await Admin.count()).toBe(1);
        // g model Link user:references: user = belongsTo(User) assigns, loads, and is required; user+url:unique holds.
        const link = await Link.createOrThrow({ url: "https://example.com", user });
        const loaded = await Link.find(link.id);
        expect((await (loaded["user"] as WithParent).load())?.["id"]).toBe(user.id);
        const orphan = await Link.create({ url: "https://example.com/orphan" });
        expect(orphan.isPersisted()).toBe(false);
        expect((orphan["errors"] as { fullMessages(): string[] }).fullMessages()).toEqual(["User must exist"]);
        await expect(Link.create({ url: "https://example.com", user })).rejects.toBeInstanceOf(recordflare.RecordNotUnique);
        // The optional self reference: a reply's parent loads, a root comment's is null.
        expect((await ((await Comment.find(reply.id))["parent"] as WithParent).load())?.["id"]).toBe(root.id);
        expect(await ((await Comment.find(root.id))["parent"] as WithParent).load()).toBeNull();
      });
      expect(sent.some((sql) => sql.startsWith('INSERT INTO "authors"'))).toBe(true);
    } finally {
      await proxy.dispose();
    }
  }, 120_000);
});
