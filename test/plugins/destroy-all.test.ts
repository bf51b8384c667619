import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { abort, connect, hasMany, Model, RecordNotDestroyed, UnknownAttribute, withDatabase } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, recordingRoundTrips } from "../helpers/queries.js";
import { TrashableArticle, TrashableAttachment, TrashableComment } from "../models/trashable-articles.js";

/**
 * Posts (tables of migration 0042) whose destroy callbacks log, with comments (dependent destroy, each with votes
 * destroyed too) and tags (deleteAll); a post titled "keep" aborts its destroy. New classes per call.
 */
function blog() {
  const log: string[] = [];
  class Vote extends Model({ id: "integer", dcCommentId: "integer" }) {
    static override binding = "DB";
    static override tableName = "dc_votes";
  }
  class Comment extends Model({ id: "integer", dcPostId: "integer", body: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_comments";
    votes = hasMany(Vote, { foreignKey: "dcCommentId", dependent: "destroy" });
  }
  class Tag extends Model({ id: "integer", dcPostId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_tags";
  }
  class Post extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_posts";
    static {
      this.beforeDestroy((post) => {
        log.push(`before ${post.title}`);
        if (post.title === "keep") throw abort("kept");
      });
      this.afterDestroy((post) => void log.push(`after ${post.title} ${post.isDestroyed()}`));
    }
    comments = hasMany(Comment, { foreignKey: "dcPostId", dependent: "destroy" });
    tags = hasMany(Tag, { foreignKey: "dcPostId", dependent: "deleteAll" });
  }
  class User extends Model({ id: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_users";
  }
  return { Post, Comment, Vote, Tag, User, log };
}

/** Posts titled `titles` of one user (ids in that order), each with two comments (a vote each) and a tag. */
async function seed({ Post, Comment, Vote, Tag, User }: ReturnType<typeof blog>, titles: string[]) {
  const user = await User.create({ name: "ada" });
  const posts = [];
  for (const title of titles) posts.push(await Post.create({ dcUserId: user.id, title }));
  const postIds = posts.map((post) => post.id);
  await Comment.insertAll(postIds.flatMap((id) => [{ dcPostId: id, body: "a" }, { dcPostId: id, body: "b" }]));
  await Vote.insertAll(((await Comment.pluck("id")) as number[]).map((id) => ({ dcCommentId: id })));
  await Tag.insertAll(postIds.map((id) => ({ dcPostId: id, name: "t" })));
  return { user, postIds };
}

const TABLES = ["dc_posts", "dc_comments", "dc_votes", "dc_tags", "dc_users"];

async function remaining(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = await countRows(table);
  return counts;
}

/** Runs `work` on a database whose round trips are recorded, from the last call of `start` on. */
async function counting(work: (start: () => void) => Promise<void>): Promise<string[][]> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), () => work(() => (roundTrips.length = 0)));
  return roundTrips;
}

const heads = (trip: string[]) => trip.map((sql) => sql.split(" WHERE")[0]);

beforeEach(async () => {
  const tables = ["dc_votes", "dc_comments", "dc_tags", "dc_locks", "dc_drafts", "dc_posts", "dc_profiles", "dc_users"];
  await env.DB.batch(tables.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
  await env.DB.exec("DELETE FROM trashable_comments; DELETE FROM trashable_attachments; DELETE FROM trashable_articles;");
});

describe("destroyAll", () => {
  it("loads the matching records in one round trip and destroys them, dependents included, in ONE batch", async () => {
    const models = blog();
    const { postIds } = await seed(models, ["a", "b", "c", "other"]);
    let destroyed: Array<InstanceType<typeof models.Post>> = [];
    const trips = await counting(async () => {
      destroyed = await models.Post.where({ title: ["a", "b", "c"] }).order({ id: "asc" }).destroyAll();
    });
    expect(trips).toHaveLength(2);
    expect(trips[0]).toEqual([`SELECT * FROM "dc_posts" WHERE "title" IN (SELECT value FROM json_each(?1)) ORDER BY "id" ASC`]);
    // Each post's destroy, as destroy() sends it: its dependents' set-based writes, then its DELETE.
    const perPost = [`DELETE FROM "dc_votes"`, `DELETE FROM "dc_comments"`, `DELETE FROM "dc_tags"`, `DELETE FROM "dc_posts"`];
    expect(heads(trips[1]!)).toEqual([...perPost, ...perPost, ...perPost]);
    expect(destroyed.map((post) => post.id)).toEqual(postIds.slice(0, 3));
    expect(destroyed.every((post) => post.isDestroyed())).toBe(true);
    // Every before-callback before the batch, every after-callback after it, each record marked destroyed by then.
    expect(models.log).toEqual(["before a", "before b", "before c", "after a true", "after b true", "after c true"]);
    expect(await remaining()).toEqual({ dc_posts: 1, dc_comments: 2, dc_votes: 2, dc_tags: 1, dc_users: 1 });
    expect((await models.Post.pluck("title")) as string[]).toEqual(["other"]);
  });

  it("Model.destroyAll() destroys every row; a destroyed record refuses changes as after destroy()", async () => {
    const models = blog();
    await seed(models, ["a", "b"]);
    const destroyed = await models.Post.destroyAll();
    expect(destroyed.map((post) => post.title)).toEqual(["a", "b"]);
    expect(await remaining()).toEqual({ dc_posts: 0, dc_comments: 0, dc_votes: 0, dc_tags: 0, dc_users: 1 });
    await expect(destroyed[0]!.destroy()).rejects.toThrow(/destroyed/);
  });

  it("one record's callback aborts: rejects with RecordNotDestroyed, nothing destroyed, no write sent", async () => {
    const models = blog();
    await seed(models, ["a", "keep", "b"]);
    const before = await remaining();
    let error: Error | undefined;
    const trips = await counting(async () => {
      error = await rejectionOf(models.Post.destroyAll());
    });
    expect(error).toBeInstanceOf(RecordNotDestroyed);
    expect(error!.message).toBe("kept");
    expect(trips).toHaveLength(1);
    expect(await remaining()).toEqual(before);
    expect(models.log).toEqual(["before a", "before keep"]);
  });

  it("a statement the database refuses: nothing destroyed, every record left persisted", async () => {
    const models = blog();
    const { user } = await seed(models, ["a"]);
    const lonely = await models.User.create({ name: "grace" });
    const before = await remaining();
    // ada's post points at her row: D1's foreign key check refuses her DELETE, and grace's goes with it.
    const error = await rejectionOf(models.User.where({ id: [lonely.id, user.id] }).order({ id: "desc" }).destroyAll());
    expect(error.message).toMatch(/FOREIGN KEY/);
    expect(await remaining()).toEqual(before);
    const users = await models.User.order({ id: "asc" }).toArray();
    expect(users.map((each) => each.name)).toEqual(["ada", "grace"]);
  });

  it("a restrictWithError association refuses: RecordNotDestroyed naming why, nothing destroyed", async () => {
    const models = blog();
    await seed(models, ["a"]);
    class Owner extends Model({ id: "integer", name: "string" }) {
      static override binding = "DB";
      static override tableName = "dc_users";
      posts = hasMany(models.Post, { foreignKey: "dcUserId", dependent: "restrictWithError" });
    }
    await Owner.create({ name: "grace" });
    const before = await remaining();
    const error = await rejectionOf(Owner.destroyAll());
    expect(error).toBeInstanceOf(RecordNotDestroyed);
    expect(error.message).toMatch(/dependent posts exist/);
    expect(await remaining()).toEqual(before);
  });

  it("nothing matches: one load and no write; on none() no query at all", async () => {
    const models = blog();
    await seed(models, ["a"]);
    const trips = await counting(async () => {
      expect(await models.Post.where({ title: "missing" }).destroyAll()).toEqual([]);
      expect(await models.Post.none().destroyAll()).toEqual([]);
    });
    expect(trips).toEqual([[`SELECT * FROM "dc_posts" WHERE "title" = ?1`]]);
    expect(await countRows("dc_posts")).toBe(1);
  });

  it("loads every attribute whatever select says (the callbacks read the title), and keeps limit and order", async () => {
    const models = blog();
    await seed(models, ["a", "b", "c"]);
    const destroyed = await models.Post.select("dcUserId").order({ id: "desc" }).limit(2).destroyAll();
    expect(destroyed.map((post) => post.title)).toEqual(["c", "b"]);
    expect(models.log).toEqual(["before c", "before b", "after c true", "after b true"]);
    expect((await models.Post.pluck("title")) as string[]).toEqual(["a"]);
    expect(await countRows("dc_comments")).toBe(2);
  });

  it("a soft-deletable Model soft-deletes, as its destroy does, and its default scope leaves deleted rows out", async () => {
    const titles = ["kept", "gone", "gone too", "trashed"];
    const [kept, gone, goneToo, trashed] = await Promise.all(titles.map((title) => TrashableArticle.createOrThrow({ title })));
    await trashed!.destroyOrThrow();
    for (const article of [gone!, goneToo!]) {
      await TrashableComment.create({ trashableArticleId: article.id!, body: "c" });
      await TrashableAttachment.create({ trashableArticleId: article.id!, name: "f" });
    }
    const trips = await counting(async () => {
      const destroyed = await TrashableArticle.destroyBy({ title: ["gone", "gone too", "trashed"] });
      expect(destroyed.map((article) => article.title)).toEqual(["gone", "gone too"]);
      expect(destroyed.every((article) => article.deletedAt instanceof Date)).toBe(true);
    });
    // The load; the reads of the dependents their destroys make record by record (soft-deleted comments), both
    // records' in one round trip; the batch.
    const reads = [`SELECT * FROM "trashable_comments"`, `SELECT * FROM "trashable_attachments"`];
    const writes = [`UPDATE "trashable_comments" SET "deleted_at" = ?1`, `DELETE FROM "trashable_attachments"`, `UPDATE "trashable_articles" SET "deleted_at" = ?1, "updated_at" = ?2`];
    expect(trips.map(heads)).toEqual([[`SELECT * FROM "trashable_articles"`], [...reads, ...reads], [...writes, ...writes]]);
    expect(trips[0]![0]).toMatch(/"deleted_at" IS NULL$/);
    expect(await countRows("trashable_articles")).toBe(4);
    expect(await countRows("trashable_articles WHERE deleted_at IS NULL")).toBe(1);
    expect(await countRows("trashable_comments WHERE deleted_at IS NOT NULL")).toBe(2);
    expect(await countRows("trashable_attachments")).toBe(0);
    expect((await TrashableArticle.pluck("id")) as number[]).toEqual([kept!.id]);
  });
});

describe("destroyBy", () => {
  it("is where(conditions).destroyAll(), on a Model and on a Relation", async () => {
    const models = blog();
    await seed(models, ["a", "b", "c"]);
    expect((await models.Post.destroyBy({ title: "a" })).map((post) => post.title)).toEqual(["a"]);
    expect((await models.Post.where({ title: ["b", "c"] }).destroyBy({ title: "c" })).map((post) => post.title)).toEqual(["c"]);
    expect((await models.Post.pluck("title")) as string[]).toEqual(["b"]);
    expect(models.log).toEqual(["before a", "after a true", "before c", "after c true"]);
    expect(await countRows("dc_comments")).toBe(2);
  });
});

describe("wrong arguments", () => {
  it("are refused with TypeError naming the method, before any query", async () => {
    const { Post } = blog();
    const trips = await counting(async () => {
      const call = (fn: () => Promise<unknown>) => rejectionOf(fn());
      const refusals = [
        await call(() => (Post as any).destroyAll({ title: "a" })),
        await call(() => (Post.all() as any).destroyAll({ title: "a" })),
        await call(() => (Post as any).destroyBy()),
        await call(() => (Post as any).destroyBy({ title: "a" }, { title: "b" })),
        await call(() => (Post as any).destroyBy("title = 'a'")),
      ];
      expect(refusals.every((error) => error instanceof TypeError)).toBe(true);
      expect(refusals.map((error) => error.message.split(":")[0]!.split(" takes")[0])).toEqual(["Post.destroyAll", "Post.destroyAll", "Post.destroyBy", "Post.destroyBy", "Post.destroyBy"]);
      expect(refusals[0]!.message).toBe("Post.destroyAll takes no argument; narrow with where(...) first, or use destroyBy({ ... })");
      expect(await call(() => (Post as any).destroyBy({ titel: "a" }))).toBeInstanceOf(UnknownAttribute);
    });
    expect(trips).toEqual([]);
  });
});

describe("guide: Destroying many records", () => {
  it("runs the example (on the tables of migration 0042)", async () => {
    class Comment extends Model({ id: "integer", dcPostId: "integer", body: "string" }) {
      static override binding = "DB";
      static override tableName = "dc_comments";
    }
    class Post extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
      static override binding = "DB";
      static override tableName = "dc_posts";
      static {
        this.beforeDestroy((post) => {
          if (post.title === "Pinned") throw abort("Pinned posts stay");
        });
      }
      comments = hasMany(Comment, { foreignKey: "dcPostId", dependent: "destroy" });
    }
    await env.DB.exec("INSERT INTO dc_users (id, name) VALUES (3, 'c'), (4, 'd')");
    for (const [dcUserId, title] of [[3, "a"], [3, "b"], [4, "Pinned"], [4, "c"]] as const) {
      const post = await Post.create({ dcUserId, title });
      await Comment.create({ dcPostId: post.id, body: title === "c" ? "spam" : "x" });
    }

    const gone = await Post.where({ dcUserId: 3 }).destroyAll();
    expect(gone.map((post) => post.title)).toEqual(["a", "b"]);
    expect(gone.every((post) => post.isDestroyed())).toBe(true);

    const error = await rejectionOf(Post.destroyAll());
    expect(error).toBeInstanceOf(RecordNotDestroyed);
    expect(error.message).toBe("Pinned posts stay");
    expect(await countRows("dc_posts")).toBe(2);
    expect(await countRows("dc_comments")).toBe(2);

    expect(await Comment.deleteBy({ body: "spam" })).toBe(1);
    expect(await countRows("dc_comments")).toBe(1);
  });
});
