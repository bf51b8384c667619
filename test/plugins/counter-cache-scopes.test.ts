import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, type HasManyDependent, hasMany, InvalidModel, Model, multiTenancy, type QueryEvent, softDelete, withDatabase, withTenant } from "../../src/index.js";
import { listen } from "../helpers/queries.js";

const TABLES = ["cs_comments", "cs_posts", "cs_authors"];

beforeEach(async () => {
  await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/**
 * Posts and authors counting their comments (migration 0180), each call with new classes: `hidden` gives comments a
 * default scope leaving hidden ones out, `softDelete` soft deletes them and posts, `archived` gives posts a default scope
 * leaving archived ones out, `tenancy` scopes all three by tenant, `dependent` is the post's for its comments.
 */
function blog(options: { hidden?: boolean; softDelete?: boolean; archived?: boolean; tenancy?: boolean; dependent?: HasManyDependent } = {}) {
  class Author extends Model({ id: { type: "string", null: false }, tenantId: "string", name: "string", commentsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "cs_authors";
    static {
      if (options.tenancy) this.use(multiTenancy());
    }
    comments = hasMany(Comment, { foreignKey: "csAuthorId" });
  }
  class Post extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    title: "string",
    archived: { type: "boolean", null: false },
    commentsCount: { type: "integer", null: false },
    deletedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "cs_posts";
    static {
      if (options.tenancy) this.use(multiTenancy());
      if (options.softDelete) this.use(softDelete);
      if (options.archived) this.defaultScope((q) => q.where({ archived: false }));
    }
    comments = hasMany(Comment, { foreignKey: "csPostId", ...(options.dependent && { dependent: options.dependent }) });
  }
  class Comment extends Model({
    id: { type: "string", null: false },
    tenantId: "string",
    csPostId: "string",
    csAuthorId: "string",
    body: "string",
    hidden: { type: "boolean", null: false },
    deletedAt: "datetime",
    updatedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "cs_comments";
    static {
      if (options.tenancy) this.use(multiTenancy());
      if (options.softDelete) this.use(softDelete);
      if (options.hidden) this.defaultScope((q) => q.where({ hidden: false }));
    }
    post = belongsTo(Post, { foreignKey: "csPostId", counterCache: "commentsCount", optional: true });
    author = belongsTo(Author, { foreignKey: "csAuthorId", counterCache: "commentsCount", optional: true });
  }
  return { Author, Post, Comment };
}

type Blog = ReturnType<typeof blog>;

/** Each parent's stored counter beside what its association counts (`count()`, a query) and `size()` answers from the counter. */
async function counters({ Post, Author }: Blog): Promise<Record<string, [stored: number, counted: number, size: number]>> {
  const result: Record<string, [number, number, number]> = {};
  for (const parent of [...(await Post.unscoped().toArray()), ...(await Author.unscoped().toArray())]) {
    const label = "title" in parent ? parent.title! : parent.name!;
    result[label] = [parent.commentsCount, await parent.comments().count(), await parent.comments().size()];
  }
  return result;
}

/** What a piece of work sent: its query events. */
type Sent = (work: () => Promise<unknown>) => Promise<QueryEvent[]>;

/**
 * Runs `test` on a connection whose query events are kept (records remember the connection they were loaded on, so
 * the whole test runs on it); `sent(work)` gives the events of what `work` sends.
 */
async function onRecordedConnection(test: (sent: Sent) => Promise<void>): Promise<void> {
  const { events, db } = listen();
  const sent: Sent = async (work) => {
    const from = events.length;
    await work();
    return events.slice(from);
  };
  await withDatabase(db, () => test(sent));
}

const roundTrips = (events: readonly QueryEvent[]) => new Set(events.map((event) => event.roundTrip)).size;
const heads = (events: readonly QueryEvent[]) => events.map((event) => event.sql.split(" ").slice(0, 2).join(" "));

describe("counter caches count the children within the child's default scopes", () => {
  it("a create adds only a row within the scope, a destroy takes only a row that was; size() agrees with count(), resetCounters changes nothing", async () => {
    const models = blog({ hidden: true });
    const { Post, Comment } = models;
    await onRecordedConnection(async (sent) => {
      const a = await Post.createOrThrow({ title: "a" });
      const creating = await sent(() => Comment.createOrThrow({ csPostId: a.id, body: "x", hidden: true }));
      // One round trip: the INSERT, then the counter's UPDATE, which counts the new row only if it is within the scope.
      expect(roundTrips(creating)).toBe(1);
      expect(heads(creating)).toEqual(["INSERT INTO", 'UPDATE "cs_posts"']);
      expect(creating[1]!.sql).toContain(`WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) AND "hidden" = ?2 GROUP BY`);
      expect(await counters(models)).toEqual({ a: [0, 0, 0] });
      await Comment.createOrThrow({ csPostId: a.id, body: "y" });
      expect(await counters(models)).toEqual({ a: [1, 1, 1] });
      const loaded = await Post.find(a.id);
      expect([await loaded.comments().size(), (await loaded.comments().toArray()).length, await loaded.comments().count()]).toEqual([1, 1, 1]);
      expect(await Post.resetCounters(a.id, "comments")).toBe(1);
      expect(await counters(models)).toEqual({ a: [1, 1, 1] });
      const hidden = await Comment.unscoped().findByOrThrow({ body: "x" });
      const destroying = await sent(() => hidden.destroyOrThrow());
      // One round trip: the counter's UPDATE before the DELETE, which finds the row outside the scope.
      expect(roundTrips(destroying)).toBe(1);
      expect(heads(destroying)).toEqual(['UPDATE "cs_posts"', "DELETE FROM"]);
      expect(await counters(models)).toEqual({ a: [1, 1, 1] });
      await (await Comment.findByOrThrow({ body: "y" })).destroyOrThrow();
      expect(await counters(models)).toEqual({ a: [0, 0, 0] });
    });
  });

  it("counts within the scope as declared, also where Model.unscoped(fn) lifts it for the queries made; so does resetCounters", async () => {
    const models = blog({ hidden: true });
    const { Post, Comment } = models;
    const a = await Post.createOrThrow({ title: "a" });
    await Comment.unscoped(async () => {
      await Comment.createOrThrow({ csPostId: a.id, body: "hidden", hidden: true });
      await Comment.createOrThrow({ csPostId: a.id, body: "visible" });
      await (await Comment.findByOrThrow({ body: "hidden" })).destroyOrThrow();
      await Comment.createOrThrow({ csPostId: a.id, body: "hidden again", hidden: true });
      // resetCounters recounts the same rows.
      expect(await Post.resetCounters(a.id, "comments")).toBe(1);
    });
    expect(await counters(models)).toEqual({ a: [1, 1, 1] });
  });

  it("an update that moves a row into or out of the scope adjusts its parent in the UPDATE's round trip; one that cannot sends nothing more", async () => {
    const models = blog({ hidden: true });
    const { Post, Comment } = models;
    await onRecordedConnection(async (sent) => {
      const a = await Post.createOrThrow({ title: "a" });
      const comment = await Comment.createOrThrow({ csPostId: a.id, body: "x" });
      const hiding = await sent(() => comment.updateOrThrow({ hidden: true }));
      expect(roundTrips(hiding)).toBe(1);
      expect(heads(hiding)).toEqual(['UPDATE "cs_posts"', 'UPDATE "cs_comments"', 'UPDATE "cs_posts"']);
      expect(await counters(models)).toEqual({ a: [0, 0, 0] });
      await comment.updateOrThrow({ hidden: false });
      expect(await counters(models)).toEqual({ a: [1, 1, 1] });
      // The scope reads `hidden` only: an edit of the body is the UPDATE alone.
      const editing = await sent(() => comment.updateOrThrow({ body: "edited" }));
      expect(heads(editing)).toEqual(['UPDATE "cs_comments"']);
      expect(await counters(models)).toEqual({ a: [1, 1, 1] });
    });
  });

  it("a move to another parent takes from the old only if the row was within the scope, and adds to the new only if it is", async () => {
    const models = blog({ hidden: true });
    const { Post, Comment } = models;
    await onRecordedConnection(async (sent) => {
      const a = await Post.createOrThrow({ title: "a" });
      const b = await Post.createOrThrow({ title: "b" });
      const visible = await Comment.createOrThrow({ csPostId: a.id, body: "visible" });
      const hidden = await Comment.createOrThrow({ csPostId: a.id, body: "hidden", hidden: true });
      expect(await counters(models)).toEqual({ a: [1, 1, 1], b: [0, 0, 0] });
      // Out of the scope on the way: a loses it, b does not gain it.
      const moving = await sent(() => visible.updateOrThrow({ csPostId: b.id, hidden: true }));
      expect(roundTrips(moving)).toBe(1);
      expect(heads(moving)).toEqual(['UPDATE "cs_posts"', 'UPDATE "cs_comments"', 'UPDATE "cs_posts"']);
      expect(await counters(models)).toEqual({ a: [0, 0, 0], b: [0, 0, 0] });
      // Into the scope on the way: a loses nothing, b gains it.
      await hidden.updateOrThrow({ csPostId: b.id, hidden: false });
      expect(await counters(models)).toEqual({ a: [0, 0, 0], b: [1, 1, 1] });
      // Hidden all along: nothing moves.
      await visible.updateOrThrow({ csPostId: a.id });
      expect(await counters(models)).toEqual({ a: [0, 0, 0], b: [1, 1, 1] });
      await Post.resetCounters([a.id, b.id], "comments");
      expect(await counters(models)).toEqual({ a: [0, 0, 0], b: [1, 1, 1] });
    });
  });

  it("loaded parents and set() count in memory the children within the scope", async () => {
    const models = blog({ hidden: true });
    const { Post, Comment } = models;
    const post = await Post.createOrThrow({ title: "a" });
    await post.comments().create({ body: "visible" });
    await post.comments().create({ body: "hidden", hidden: true });
    expect(post.commentsCount).toBe(1);
    const comment = await Comment.findByOrThrow({ body: "visible" });
    const parent = (await comment.post.load())!;
    await comment.updateOrThrow({ hidden: true });
    expect(parent.commentsCount).toBe(0);
    await comment.updateOrThrow({ hidden: false });
    expect(parent.commentsCount).toBe(1);
    const reloaded = await Post.find(post.id);
    const hidden = await Comment.unscoped().findByOrThrow({ body: "hidden" });
    const fresh = Comment.build({ body: "fresh" });
    await reloaded.comments().set([comment, hidden, fresh]);
    expect(reloaded.commentsCount).toBe(2);
    expect(reloaded.isChanged()).toBe(false);
    expect(await counters(models)).toEqual({ a: [2, 2, 2] });
  });

  it("soft delete: a destroy takes the row off, restore() adds it back (its UPDATE moves the row into the scope)", async () => {
    const models = blog({ softDelete: true });
    const { Post, Author, Comment } = models;
    // softDelete's methods exist at run time but are not in the Models' types (see the guide).
    type Restorable = { restore(): Promise<boolean> };
    type Trash = { onlyDeleted(): { toArray(): Promise<Restorable[]> } };
    await onRecordedConnection(async (sent) => {
      const a = await Post.createOrThrow({ title: "a" });
      const ada = await Author.createOrThrow({ name: "ada" });
      const first = await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "first" });
      await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "second" });
      expect(await counters(models)).toEqual({ a: [2, 2, 2], ada: [2, 2, 2] });
      await first.destroyOrThrow();
      expect(await counters(models)).toEqual({ a: [1, 1, 1], ada: [1, 1, 1] });
      const deleted = (await (Comment as unknown as Trash).onlyDeleted().toArray())[0]!;
      const restoring = await sent(() => deleted.restore());
      expect(roundTrips(restoring)).toBe(1);
      expect(heads(restoring)).toEqual(['UPDATE "cs_posts"', 'UPDATE "cs_authors"', 'UPDATE "cs_comments"', 'UPDATE "cs_posts"', 'UPDATE "cs_authors"']);
      expect(await counters(models)).toEqual({ a: [2, 2, 2], ada: [2, 2, 2] });
      // Restoring again changes nothing: the row was within the scope before and is after.
      await deleted.restore();
      expect(await counters(models)).toEqual({ a: [2, 2, 2], ada: [2, 2, 2] });
      expect(await Post.resetCounters(a.id, "comments")).toBe(1);
      expect(await counters(models)).toEqual({ a: [2, 2, 2], ada: [2, 2, 2] });
    });
  });

  it("a destroy's set-based writes of dependents take off only the rows within the scope, in the destroy's one round trip", async () => {
    for (const dependent of ["deleteAll", "destroy", "nullify"] as const) {
      await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const models = blog({ hidden: true, dependent });
      const { Post, Author, Comment } = models;
      await onRecordedConnection(async (sent) => {
        const a = await Post.createOrThrow({ title: "a" });
        const ada = await Author.createOrThrow({ name: "ada" });
        await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "visible" });
        await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "hidden", hidden: true });
        expect(await counters(models)).toEqual({ a: [1, 1, 1], ada: [1, 1, 1] });
        // Lifted, the post's comments include the hidden one, which its REFERENCES would otherwise keep from going.
        const destroying = await sent(() => Comment.unscoped(() => a.destroyOrThrow()));
        expect(roundTrips(destroying), dependent).toBe(1);
        // nullify unsets the post's key only: ada keeps her comment.
        expect(await counters(models), dependent).toEqual({ ada: dependent === "nullify" ? [1, 1, 1] : [0, 0, 0] });
      });
    }
  });

  it("softDelete's set-based dependents: kept rows are taken off, rows already deleted are not taken again", async () => {
    const models = blog({ softDelete: true, dependent: "destroy" });
    const { Post, Author, Comment } = models;
    const a = await Post.createOrThrow({ title: "a" });
    const ada = await Author.createOrThrow({ name: "ada" });
    await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "kept" });
    await (await Comment.createOrThrow({ csPostId: a.id, csAuthorId: ada.id, body: "gone" })).destroyOrThrow();
    expect(await counters(models)).toEqual({ a: [1, 1, 1], ada: [1, 1, 1] });
    await a.destroyOrThrow();
    // The post is soft-deleted too: its counter is still kept, and counts no kept comment.
    expect(await counters(models)).toEqual({ a: [0, 0, 0], ada: [0, 0, 0] });
  });
});

describe("counter statements within D1's limits", () => {
  it("a scope of any size binds within D1's limit of 100 values: a list is one value", async () => {
    const bodies = Array.from({ length: 150 }, (_, index) => `b${index}`);
    class ListedPost extends Model({ id: { type: "string", null: false }, title: "string", commentsCount: { type: "integer", null: false } }) {
      static override binding = "DB";
      static override tableName = "cs_posts";
      comments = hasMany(ListedComment, { foreignKey: "csPostId" });
    }
    class ListedComment extends Model({ id: { type: "string", null: false }, csPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cs_comments";
      static {
        this.defaultScope((q) => q.where({ body: bodies }).or(q.where({ body: null })));
      }
      post = belongsTo(ListedPost, { foreignKey: "csPostId", counterCache: "commentsCount" });
    }
    await onRecordedConnection(async (sent) => {
      const post = await ListedPost.createOrThrow({ title: "p" });
      const events = await sent(async () => {
        await ListedComment.createOrThrow({ csPostId: post.id, body: "b149" });
        await ListedComment.createOrThrow({ csPostId: post.id, body: "other" });
      });
      expect(Math.max(...events.map((event) => event.params.length))).toBeLessThanOrEqual(4);
      expect((await ListedPost.find(post.id)).commentsCount).toBe(1);
      expect(await post.comments().count()).toBe(1);
    });
  });
});

describe("counter statements reach the parent whatever its default scopes", () => {
  it("a child of a parent its default scope hides raises and lowers the parent's counter; resetCounters recounts it", async () => {
    const models = blog({ archived: true });
    const { Post, Comment } = models;
    const archived = await Post.createOrThrow({ title: "archived", archived: true });
    const comment = await Comment.createOrThrow({ csPostId: archived.id, body: "x" });
    await Comment.createOrThrow({ csPostId: archived.id, body: "y" });
    expect(await counters(models)).toEqual({ archived: [2, 2, 2] });
    await comment.destroyOrThrow();
    expect(await counters(models)).toEqual({ archived: [1, 1, 1] });
    await env.DB.prepare("UPDATE cs_posts SET comments_count = 9").run();
    expect(await Post.resetCounters(archived.id, "comments")).toBe(1);
    expect(await counters(models)).toEqual({ archived: [1, 1, 1] });
  });

  it("with multiTenancy, within the tenant only: another tenant's parent is not reached, whatever the default scopes", async () => {
    const models = blog({ hidden: true, archived: true, tenancy: true });
    const { Post, Comment } = models;
    await env.DB.prepare("INSERT INTO cs_posts (id, tenant_id, title, archived) VALUES ('theirs', 'globex', 'theirs', 1)").run();
    await withTenant("acme", () =>
      onRecordedConnection(async (sent) => {
        const mine = await Post.createOrThrow({ title: "mine", archived: true });
        const events = await sent(() => Comment.createOrThrow({ csPostId: mine.id, body: "one" }));
        // The tenant's condition stays on the parent; the archived one does not.
        expect(events[1]!.sql).toContain(`"tenant_id" = ?`);
        expect(events[1]!.sql).not.toContain(`"archived"`);
        await Comment.createOrThrow({ csPostId: mine.id, body: "hidden", hidden: true });
        // A comment of acme's pointing at globex's post: the write is acme's, the post is not.
        const stray = await Comment.createOrThrow({ csPostId: "theirs", body: "stray" });
        await stray.updateOrThrow({ hidden: true });
        await stray.updateOrThrow({ hidden: false });
        expect(await counters(models)).toEqual({ mine: [1, 1, 1] });
        expect(await Post.resetCounters([mine.id, "theirs"], "comments")).toBe(1);
      }),
    );
    const { results } = await env.DB.prepare("SELECT id, comments_count AS n FROM cs_posts WHERE tenant_id = 'globex'").all();
    expect(results).toEqual([{ id: "theirs", n: 0 }]);
  });
});

describe("a child without default scopes keeps its counter statements as they were", () => {
  it("sends the same SQL, statement for statement", async () => {
    const statements: string[] = [];
    for (const dependent of ["deleteAll", "nullify"] as const) {
      await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const models = blog({ dependent });
      const { Post, Author, Comment } = models;
      await Post.createOrThrow({ id: "a", title: "a" });
      await Post.createOrThrow({ id: "b", title: "b" });
      await Author.createOrThrow({ id: "ada", name: "ada" });
      let events: QueryEvent[] = [];
      await onRecordedConnection(async (sent) => {
        events = await sent(async () => {
          const comment = await Comment.createOrThrow({ id: "c1", csPostId: "a", csAuthorId: "ada", body: "x" });
          await comment.updateOrThrow({ hidden: true });
          await comment.updateOrThrow({ csPostId: "b" });
          await comment.destroyOrThrow();
          await Comment.createOrThrow({ id: "c2", csPostId: "b", csAuthorId: "ada", body: "y" });
          await (await Post.find("b")).destroyOrThrow();
        });
      });
      statements.push(...events.map((event) => event.sql));
      const kept = dependent === "nullify" ? 1 : 0; // nullify unsets the post's key only
      expect(await counters(models)).toEqual({ a: [0, 0, 0], ada: [kept, kept, kept] });
    }
    expect(statements).toEqual(PLAIN_STATEMENTS);
  });
});

describe("counterCache: the option", () => {
  it("an empty name is refused as such, naming the parent", () => {
    class Parent extends Model({ id: { type: "string", null: false }, commentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "cs_posts";
    }
    class Child extends Model({ id: { type: "string", null: false }, csPostId: "string" }) {
      static override binding = "DB";
      static override tableName = "cs_comments";
      // @ts-expect-error true or a number attribute of the parent
      post = belongsTo(Parent, { foreignKey: "csPostId", counterCache: "" });
    }
    expect(() => Child.all().toSql()).toThrow(InvalidModel);
    expect(() => Child.all().toSql()).toThrow(/^Child\.post \(belongsTo\): counterCache takes true or the name of an integer attribute of Parent, not ""$/);
  });
});

/**
 * The statements of the test above as the version before counters followed default scopes sent them, recorded from
 * it: for each dependent, a create, an update of an attribute no counter reads, a move, a destroy, and the post's
 * destroy with its comments (loaded first).
 */
const PLAIN_STATEMENTS: string[] = [
  'INSERT INTO "cs_comments" ("id", "cs_post_id", "cs_author_id", "body", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5) RETURNING *',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_comments" SET "hidden" = ?1, "updated_at" = ?2 WHERE "id" = ?3',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_comments" SET "cs_post_id" = ?1, "updated_at" = ?2 WHERE "id" = ?3',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'DELETE FROM "cs_comments" WHERE "id" = ?1',
  'INSERT INTO "cs_comments" ("id", "cs_post_id", "cs_author_id", "body", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5) RETURNING *',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'SELECT * FROM "cs_posts" WHERE "id" = ?1 LIMIT 1',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT "id" AS "key" FROM "cs_comments" WHERE "cs_post_id" = ?1)) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT "id" AS "key" FROM "cs_comments" WHERE "cs_post_id" = ?1)) GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'DELETE FROM "cs_comments" WHERE "cs_post_id" = ?1',
  'DELETE FROM "cs_posts" WHERE "id" = ?1',
  'INSERT INTO "cs_comments" ("id", "cs_post_id", "cs_author_id", "body", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5) RETURNING *',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_comments" SET "hidden" = ?1, "updated_at" = ?2 WHERE "id" = ?3',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_comments" SET "cs_post_id" = ?1, "updated_at" = ?2 WHERE "id" = ?3',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" = ?1 GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'DELETE FROM "cs_comments" WHERE "id" = ?1',
  'INSERT INTO "cs_comments" ("id", "cs_post_id", "cs_author_id", "body", "updated_at") VALUES (?1, ?2, ?3, ?4, ?5) RETURNING *',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_authors" SET "comments_count" = COALESCE("comments_count", 0) + "recordflare_counted"."recordflare_count" FROM (SELECT "cs_author_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT ?1 AS "key")) GROUP BY "cs_author_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'SELECT * FROM "cs_posts" WHERE "id" = ?1 LIMIT 1',
  'UPDATE "cs_posts" SET "comments_count" = COALESCE("comments_count", 0) - "recordflare_counted"."recordflare_count" FROM (SELECT "cs_post_id" AS "recordflare_parent", COUNT(*) AS "recordflare_count" FROM "cs_comments" WHERE "id" IN (SELECT "key" FROM (SELECT "id" AS "key" FROM "cs_comments" WHERE "cs_post_id" = ?1)) GROUP BY "cs_post_id") AS "recordflare_counted" WHERE "id" = "recordflare_counted"."recordflare_parent"',
  'UPDATE "cs_comments" SET "cs_post_id" = ?1 WHERE "cs_post_id" = ?2',
  'DELETE FROM "cs_posts" WHERE "id" = ?1',
];
