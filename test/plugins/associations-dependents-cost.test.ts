import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, connect, hasMany, hasOne, InvalidForeignKey, Model, withDatabase } from "../../src/index.js";
import { countStatement, definePlugin, type Relation } from "../../src/plugin.js";
import { countRows, recordingRoundTrips } from "../helpers/queries.js";
import { THREADED_TABLES, threadedComments, type ThreadedComments } from "../models/threaded-comments.js";

/**
 * A blog on the tables of migration 0042: users with posts (dependent destroy), posts with comments (destroy) and
 * tags (deleteAll), comments with votes (destroy), a profile (hasOne destroy), drafts (nullify) and, where asked,
 * locks that restrict. Each call makes new classes, so that each test fixes its own Models' hooks.
 */
function blog(options: { callbacksOn?: "comments" | "votes"; restrictUser?: boolean; restrictPost?: boolean; hideComments?: boolean } = {}) {
  const log: string[] = [];
  const watch = (model: any, name: string) => {
    model.beforeDestroy((record: any) => void log.push(`before ${name} ${record.id}`));
    model.afterDestroy((record: any) => void log.push(`after ${name} ${record.id}`));
  };
  class Vote extends Model({ id: "integer", dcCommentId: "integer" }) {
    static override binding = "DB";
    static override tableName = "dc_votes";
    static {
      if (options.callbacksOn === "votes") watch(this, "vote");
    }
  }
  class Comment extends Model({ id: "integer", dcPostId: "integer", body: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_comments";
    static {
      if (options.callbacksOn === "comments") watch(this, "comment");
      // Where asked, a default scope hides the comments whose body is "b".
      if (options.hideComments) this.defaultScope((q) => q.where({ body: "a" }));
    }
    votes = hasMany(Vote, { foreignKey: "dcCommentId", dependent: "destroy" });
  }
  class Tag extends Model({ id: "integer", dcPostId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_tags";
  }
  class Lock extends Model({ id: "integer", dcUserId: "integer", dcPostId: "integer" }) {
    static override binding = "DB";
    static override tableName = "dc_locks";
  }
  class Post extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_posts";
    comments = hasMany(Comment, { foreignKey: "dcPostId", dependent: "destroy" });
    tags = hasMany(Tag, { foreignKey: "dcPostId", dependent: "deleteAll" });
    locks = hasMany(Lock, { foreignKey: "dcPostId", dependent: options.restrictPost ? "restrictWithError" : "deleteAll" });
  }
  class Profile extends Model({ id: "integer", dcUserId: "integer", bio: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_profiles";
  }
  class Draft extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_drafts";
  }
  class User extends Model({ id: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = "dc_users";
    posts = hasMany(Post, { foreignKey: "dcUserId", dependent: "destroy" });
    profile = hasOne(Profile, { foreignKey: "dcUserId", dependent: "destroy" });
    drafts = hasMany(Draft, { foreignKey: "dcUserId", dependent: "nullify" });
    locks = hasMany(Lock, { foreignKey: "dcUserId", dependent: options.restrictUser ? "restrictWithError" : "deleteAll" });
  }
  return { User, Post, Comment, Vote, Tag, Lock, Profile, Draft, log };
}

type Blog = ReturnType<typeof blog>;

/** A user with `posts` posts of two comments each (each comment with a vote), a profile, a draft and a tag per post. */
async function seed({ User, Post, Comment, Vote, Tag, Profile, Draft }: Blog, posts: number) {
  const user = await User.create({ name: "ada" });
  await Post.insertAll(Array.from({ length: posts }, (_, index) => ({ dcUserId: user.id, title: `p${index}` })));
  const postIds = (await Post.where({ dcUserId: user.id }).order({ id: "asc" }).pluck("id")) as number[];
  await Comment.insertAll(postIds.flatMap((id) => [{ dcPostId: id, body: "a" }, { dcPostId: id, body: "b" }]));
  const commentIds = (await Comment.where({ dcPostId: postIds }).pluck("id")) as number[];
  await Vote.insertAll(commentIds.map((id) => ({ dcCommentId: id })));
  await Tag.insertAll(postIds.map((id) => ({ dcPostId: id, name: "t" })));
  await Profile.create({ dcUserId: user.id, bio: "b" });
  await Draft.create({ dcUserId: user.id, title: "d" });
  return { user, postIds };
}

const TABLES = ["dc_posts", "dc_comments", "dc_votes", "dc_tags", "dc_profiles"];

/** Rows of the blog's tables, and drafts still pointing at a user. */
async function remaining(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = await countRows(table);
  counts["drafts pointing at a user"] = await countRows("dc_drafts WHERE dc_user_id IS NOT NULL");
  counts["dc_users"] = await countRows("dc_users");
  return counts;
}

const EMPTY = { dc_posts: 0, dc_comments: 0, dc_votes: 0, dc_tags: 0, dc_profiles: 0, "drafts pointing at a user": 0, dc_users: 0 };

/** Runs `work` on a database whose round trips are recorded, from the last call of `start` (or the beginning) on. */
async function counting(work: (start: () => void) => Promise<void>): Promise<string[][]> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), () => work(() => (roundTrips.length = 0)));
  return roundTrips;
}

const heads = (roundTrips: string[][]) => roundTrips.map((trip) => trip.map((sql) => sql.split(" WHERE")[0]));

beforeEach(async () => {
  const tables = ["dc_votes", "dc_comments", "dc_tags", "dc_locks", "dc_drafts", "dc_posts", "dc_profiles", "dc_users"];
  await env.DB.batch(tables.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

describe("dependent: round trips of a destroy", () => {
  it("without destroy callbacks in the tree: one round trip, set-based DELETEs deepest level first", async () => {
    const models = blog();
    const { user } = await seed(models, 30);
    const trips = await counting(async () => {
      const loaded = await models.User.find(user.id);
      expect(await loaded.destroy()).toBe(loaded);
      expect(loaded.isDestroyed()).toBe(true);
    });
    expect(trips.slice(1)).toHaveLength(1);
    const [batch] = trips.slice(1);
    expect(heads([batch!])).toEqual([
      [
        `DELETE FROM "dc_votes"`,
        `DELETE FROM "dc_comments"`,
        `DELETE FROM "dc_tags"`,
        `DELETE FROM "dc_locks"`,
        `DELETE FROM "dc_posts"`,
        `DELETE FROM "dc_profiles"`,
        `UPDATE "dc_drafts" SET "dc_user_id" = ?1`,
        `DELETE FROM "dc_locks"`,
        `DELETE FROM "dc_users"`,
      ],
    ]);
    // Each level by a subquery of the level above: no statement per parent.
    expect(batch![0]).toBe(
      `DELETE FROM "dc_votes" WHERE "dc_comment_id" IN (SELECT "id" FROM "dc_comments" WHERE "dc_post_id" IN (SELECT "id" FROM "dc_posts" WHERE "dc_user_id" = ?1))`,
    );
    expect(await remaining()).toEqual(EMPTY);
  });

  it("with destroy callbacks on the comments: two round trips, every level read in the first, callbacks in order", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 30);
    const trips = await counting(async () => {
      expect(await (await models.User.find(user.id)).destroy()).toBeTruthy();
    });
    const destroyTrips = trips.slice(1);
    expect(destroyTrips).toHaveLength(2);
    expect(heads([destroyTrips[0]!])).toEqual([
      [`SELECT * FROM "dc_posts"`, `SELECT * FROM "dc_comments"`, `SELECT * FROM "dc_votes"`, `SELECT * FROM "dc_profiles"`],
    ]);
    expect(destroyTrips[1]!.every((sql) => !sql.startsWith("SELECT"))).toBe(true);
    // All before-callbacks before any write, all after-callbacks after: 60 of each, the befores first.
    expect(models.log).toHaveLength(120);
    expect(models.log.slice(0, 60).every((entry) => entry.startsWith("before"))).toBe(true);
    expect(models.log.slice(60).every((entry) => entry.startsWith("after"))).toBe(true);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("batch of several owners' toDestroy() with callbacks in their trees: the reads of all in ONE round trip, then one write batch", async () => {
    const models = blog({ callbacksOn: "comments" });
    await seed(models, 3);
    await seed(models, 2);
    const trips = await counting(async (start) => {
      const users = await models.User.order({ id: "asc" }).toArray();
      start();
      const destroyed = await batch(users.map((user) => user.toDestroy()));
      expect(destroyed.every((user) => user.isDestroyed())).toBe(true);
    });
    expect(trips).toHaveLength(2);
    const reads = [`SELECT * FROM "dc_posts"`, `SELECT * FROM "dc_comments"`, `SELECT * FROM "dc_votes"`, `SELECT * FROM "dc_profiles"`];
    expect(heads([trips[0]!])).toEqual([[...reads, ...reads]]);
    expect(trips[1]!.every((sql) => !sql.startsWith("SELECT"))).toBe(true);
    // Every before-callback (10 comments) before any write, every after-callback after.
    expect(models.log).toHaveLength(20);
    expect(models.log.slice(0, 10).every((entry) => entry.startsWith("before"))).toBe(true);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a save among them keeps item order: the destroys after it read after its checks, in a round trip of their own", async () => {
    const models = blog({ callbacksOn: "comments" });
    await seed(models, 1);
    await seed(models, 1);
    const trips = await counting(async (start) => {
      const [first, second] = await models.User.order({ id: "asc" }).toArray();
      start();
      await batch([first!.toDestroy(), models.Draft.build({ title: "new" }).toSave(), second!.toDestroy()]);
    });
    expect(trips.map((trip) => trip.every((sql) => sql.startsWith("SELECT")))).toEqual([true, true, false]);
    expect(trips[0]).toHaveLength(4);
    expect(trips[1]).toHaveLength(4);
    expect(await countRows("dc_users")).toBe(0);
  });

  it("with callbacks three levels down (votes): still two round trips", async () => {
    const models = blog({ callbacksOn: "votes" });
    const { user } = await seed(models, 5);
    const trips = await counting(async () => {
      await (await models.User.find(user.id)).destroy();
    });
    expect(trips.slice(1)).toHaveLength(2);
    expect(models.log.filter((entry) => entry.startsWith("after vote"))).toHaveLength(10);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("restrictWithError on the owner: the check is the first round trip's read; with no lock, one write batch", async () => {
    const models = blog({ restrictUser: true });
    const { user } = await seed(models, 3);
    const trips = await counting(async () => {
      expect(await (await models.User.find(user.id)).destroy()).toBeTruthy();
    });
    expect(trips.slice(1).map((trip) => trip.length > 0 && trip.every((sql) => sql.startsWith("SELECT")))).toEqual([true, false]);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("restrictWithError on the owner with a lock: refused with errors in one round trip, nothing written", async () => {
    const models = blog({ restrictUser: true });
    const { user } = await seed(models, 3);
    await models.Lock.create({ dcUserId: user.id });
    const before = await remaining();
    let loaded: any;
    const trips = await counting(async () => {
      loaded = await models.User.find(user.id);
      expect(await loaded.destroy()).toBe(false);
    });
    expect(trips.slice(1)).toHaveLength(1);
    expect(loaded.errors.fullMessages()).toEqual(["Cannot delete record because dependent locks exist"]);
    expect(loaded.isPersisted()).toBe(true);
    expect(await remaining()).toEqual(before);
  });

  it("restrictWithError two levels down: refused in the first round trip, nothing written", async () => {
    const models = blog({ restrictPost: true });
    const { user, postIds } = await seed(models, 3);
    await models.Lock.create({ dcPostId: postIds[1] });
    const before = await remaining();
    let loaded: any;
    const trips = await counting(async () => {
      loaded = await models.User.find(user.id);
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent locks exist");
    });
    expect(trips.slice(1)).toHaveLength(1);
    expect(loaded.isDestroyed()).toBe(false);
    expect(await remaining()).toEqual(before);
  });

  it("restrictWithError two levels down with callbacks in the tree: the post with a lock refuses, with its reason", async () => {
    const models = blog({ restrictPost: true, callbacksOn: "comments" });
    const { user, postIds } = await seed(models, 3);
    await models.Lock.create({ dcPostId: postIds[2] });
    const before = await remaining();
    const trips = await counting(async () => {
      const loaded = await models.User.find(user.id);
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent locks exist");
    });
    expect(trips.slice(1)).toHaveLength(1);
    expect(models.log.every((entry) => entry.startsWith("before"))).toBe(true);
    expect(await remaining()).toEqual(before);
  });

  it("children loaded before the destroy end destroyed too, at every level, in one round trip", async () => {
    const models = blog();
    const { user } = await seed(models, 2);
    let cached: any[] = [];
    const trips = await counting(async (start) => {
      const loaded = await models.User.find(user.id);
      const posts = await loaded.posts().toArray();
      cached = [...posts, ...(await posts[0]!.comments().toArray()), await loaded.profile.load()];
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(1);
    expect(cached).toHaveLength(5);
    expect(cached.map((record) => record.isDestroyed())).toEqual(cached.map(() => true));
    expect(await remaining()).toEqual(EMPTY);
  });

  it("children loaded before the destroy end destroyed too on the two round trip path", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 2);
    let cached: any[] = [];
    const trips = await counting(async (start) => {
      const loaded = await models.User.find(user.id);
      const posts = await loaded.posts().toArray();
      cached = [...posts, ...(await posts[1]!.comments().toArray())];
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(2);
    expect(cached).toHaveLength(4);
    expect(cached.every((record) => record.isDestroyed() && record.isPersisted() === false)).toBe(true);
    expect(models.log.filter((entry) => entry.startsWith("after comment"))).toHaveLength(4);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a hasOne with dependent destroy is deleted in the owner's batch", async () => {
    const models = blog();
    const { id } = await models.User.create({ name: "solo" });
    await models.Profile.create({ dcUserId: id, bio: "x" });
    const trips = await counting(async (start) => {
      const user = await models.User.find(id);
      start();
      await user.destroy();
    });
    expect(heads(trips)[0]).toContain(`DELETE FROM "dc_profiles"`);
    expect(trips).toHaveLength(1);
    expect(await countRows("dc_profiles")).toBe(0);
  });
});

describe("dependent: children already loaded are destroyed without being read again", () => {
  it("with callbacks, a tree loaded at every level (includes): one round trip, no read, every callback, every row gone", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 3);
    const trips = await counting(async (start) => {
      const loaded = await models.User.includes("profile", { posts: { comments: ["votes"] } }).find(user.id);
      start();
      expect(await loaded.destroy()).toBe(loaded);
    });
    expect(trips).toHaveLength(1);
    expect(trips[0]!.filter((sql) => sql.startsWith("SELECT"))).toEqual([]);
    expect(models.log.filter((entry) => entry.startsWith("after comment"))).toHaveLength(6);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a batch of several owners loaded with includes: no read round trip, one write batch for all", async () => {
    const models = blog({ callbacksOn: "comments" });
    await seed(models, 2);
    await seed(models, 1);
    const trips = await counting(async (start) => {
      const users = await models.User.includes("profile", { posts: { comments: ["votes"] } }).order({ id: "asc" }).toArray();
      start();
      await batch(users.map((user) => user.toDestroy()));
    });
    expect(trips).toHaveLength(1);
    expect(trips[0]!.filter((sql) => sql.startsWith("SELECT"))).toEqual([]);
    expect(models.log.filter((entry) => entry.startsWith("after comment"))).toHaveLength(6);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("loaded down to the comments: only the levels not loaded (votes, profile) are read, in the first round trip", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 3);
    const trips = await counting(async (start) => {
      const loaded = await models.User.includes({ posts: ["comments"] }).find(user.id);
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(2);
    expect(heads([trips[0]!])).toEqual([[`SELECT * FROM "dc_votes"`, `SELECT * FROM "dc_profiles"`]]);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("associations loaded by their own readers, a hasOne loaded as none: one round trip", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 2);
    await models.Profile.where({ dcUserId: user.id }).deleteAll();
    const trips = await counting(async (start) => {
      const loaded = await models.User.find(user.id);
      expect(await loaded.profile.load()).toBeNull();
      for (const post of await loaded.posts().toArray()) for (const comment of await post.comments().toArray()) await comment.votes().toArray();
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(1);
    expect(models.log.filter((entry) => entry.startsWith("after comment"))).toHaveLength(4);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("an association loaded empty: the levels below it hold nothing, and are not read either", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { id } = await models.User.create({ name: "new" });
    const trips = await counting(async (start) => {
      const loaded = await models.User.includes("posts", "profile").find(id);
      start();
      await loaded.destroyOrThrow();
    });
    expect(trips).toHaveLength(1);
    expect(await countRows("dc_users")).toBe(0);
  });

  it("a loaded association whose rows changed since is taken as loaded (as Rails does): a post added since stays, and its key refuses the destroy", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 1);
    const loaded = await models.User.includes("profile", { posts: { comments: ["votes"] } }).find(user.id);
    await models.Post.create({ dcUserId: user.id, title: "added since" });
    const before = await remaining();
    await expect(loaded.destroy()).rejects.toBeInstanceOf(InvalidForeignKey);
    expect(await remaining()).toEqual(before);
    // Loaded again, it is read with the rest.
    await (await models.User.includes("profile", { posts: { comments: ["votes"] } }).find(user.id)).destroyOrThrow();
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a hasOne holding a child built in place of the loaded one: the saved child is read and destroyed", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { user } = await seed(models, 1);
    const trips = await counting(async (start) => {
      const loaded = await models.User.includes("profile", { posts: { comments: ["votes"] } }).find(user.id);
      loaded.profile.build({ bio: "new" });
      start();
      await loaded.destroyOrThrow();
    });
    expect(heads([trips[0]!])).toEqual([[`SELECT * FROM "dc_profiles"`]]);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a scope with a limit (each record reads its own children): a loaded association is not read again", async () => {
    const models = blog();
    const { postIds } = await seed(models, 1);
    class PagedPost extends Model({ id: "integer", dcUserId: "integer", title: "string" }) {
      static override binding = "DB";
      static override tableName = "dc_posts";
      comments = hasMany(models.Comment, { foreignKey: "dcPostId", scope: (q) => q.order({ id: "asc" }).limit(5), dependent: "destroy" });
    }
    const trips = await counting(async (start) => {
      const post = await PagedPost.find(postIds[0]);
      expect(await post.comments().toArray()).toHaveLength(2);
      start();
      await post.destroyOrThrow();
    });
    expect(trips).toHaveLength(1);
    expect(await countRows("dc_comments")).toBe(0);
  });

  it("inside Model.unscoped(fn), children loaded through the target's default scope are read again: the hidden ones go too", async () => {
    const models = blog({ callbacksOn: "votes", hideComments: true });
    const { user } = await seed(models, 2);
    const trips = await counting(async (start) => {
      const loaded = await models.User.includes("profile", { posts: { comments: ["votes"] } }).find(user.id);
      const [post] = await loaded.posts().toArray();
      expect((await post!.comments().toArray()).map((comment: any) => comment.body)).toEqual(["a"]);
      start();
      await models.Comment.unscoped(() => loaded.destroyOrThrow());
    });
    expect(trips).toHaveLength(2);
    expect(heads([trips[0]!])).toEqual([[`SELECT * FROM "dc_comments"`, `SELECT * FROM "dc_votes"`]]);
    // The seed's votes are those of the comments the scope shows.
    expect(models.log.filter((entry) => entry.startsWith("after vote"))).toHaveLength(2);
    expect(await remaining()).toEqual(EMPTY);
  });
});

describe("record:planDestroy: a plugin's read joins the destroy's one read batch", () => {
  /** A plugin that counts, before a user is destroyed, how many posts go with it, in the destroy's read batch. */
  function postCounter(Post: Blog["Post"]) {
    const counted: number[] = [];
    const plugin = definePlugin({
      name: "post-counter",
      hooks: {
        "record:planDestroy"({ record, reads }) {
          if (!("posts" in record)) return;
          const posts = Post.where({ dcUserId: record.id }) as unknown as Relation;
          reads.push({ statement: countStatement(posts), receive: (count: number) => void counted.push(count) });
        },
      },
    });
    return { plugin, counted };
  }

  it("with callbacks in the tree: still two round trips, the plugin's count in the first beside every level", async () => {
    const models = blog({ callbacksOn: "comments" });
    const { plugin, counted } = postCounter(models.Post);
    models.User.use(plugin);
    const { user } = await seed(models, 3);
    const trips = await counting(async (start) => {
      const loaded = await models.User.find(user.id);
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(2);
    expect(trips[0]!.some((sql) => sql.startsWith(`SELECT COUNT(*)`))).toBe(true);
    expect(trips[0]!.some((sql) => sql.startsWith(`SELECT * FROM "dc_comments"`))).toBe(true);
    expect(counted).toEqual([3]);
    expect(await remaining()).toEqual(EMPTY);
  });

  it("a set-based tree with a restriction: the plugin's read and the restriction checks share the first round trip", async () => {
    const models = blog({ restrictPost: true });
    const { plugin, counted } = postCounter(models.Post);
    models.User.use(plugin);
    const { user } = await seed(models, 2);
    const trips = await counting(async (start) => {
      const loaded = await models.User.find(user.id);
      start();
      await loaded.destroy();
    });
    expect(trips).toHaveLength(2);
    expect(heads([trips[0]!])).toEqual([[`SELECT 1 AS "recordflare_one" FROM "dc_locks"`, `SELECT COUNT(*) AS "recordflare_count" FROM "dc_posts"`]]);
    expect(counted).toEqual([2]);
  });
});

describe("dependent: round trips of a destroy through a loop (threaded comments)", () => {
  beforeEach(async () => {
    await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
  });

  /** A user with one comment and a chain of `depth` replies below it, each reply with a vote. */
  async function chain({ User, Comment, Vote }: ThreadedComments, depth: number) {
    const user = await User.create({ name: "ada" });
    const first = 1_000;
    await Comment.insertAll(
      Array.from({ length: depth + 1 }, (_, level) => ({ id: first + level, tcUserId: level === 0 ? user.id : null, parentId: level === 0 ? null : first + level - 1, body: `c${level}` })),
    );
    await Vote.insertAll(Array.from({ length: depth }, (_, level) => ({ tcCommentId: first + level + 1 })));
    return user;
  }

  async function destroyCounted(model: any, id: number | null) {
    return counting(async (start) => {
      const loaded = await model.find(id);
      start();
      expect(await loaded.destroy()).toBe(loaded);
    });
  }

  for (const depth of [1, 5, 200]) {
    it(`a reply chain ${depth} deep without callbacks: one round trip of 6 statements`, async () => {
      const models = threadedComments();
      const user = await chain(models, depth);
      const trips = await destroyCounted(models.User, user.id);
      expect(heads(trips).map((trip) => trip.map((sql) => sql.replace(/^WITH RECURSIVE .*\) (DELETE|UPDATE)/, "$1")))).toEqual([
        [`DELETE FROM "tc_votes"`, `DELETE FROM "tc_flags"`, `DELETE FROM "tc_comments"`, `DELETE FROM "tc_comments"`, `DELETE FROM "tc_flags"`, `DELETE FROM "tc_users"`],
      ]);
      expect(trips[0]!.filter((sql) => sql.startsWith("WITH RECURSIVE"))).toHaveLength(3);
      expect([await countRows("tc_comments"), await countRows("tc_votes"), await countRows("tc_users")]).toEqual([0, 0, 0]);
    });

    it(`a reply chain ${depth} deep with callbacks: two round trips, one read per node, one DELETE per record`, async () => {
      const models = threadedComments({ callbacks: true });
      const user = await chain(models, depth);
      const trips = await destroyCounted(models.User, user.id);
      expect(trips).toHaveLength(2);
      expect(trips[0]).toHaveLength(3);
      expect(trips[0]!.every((sql) => sql.startsWith("SELECT") || sql.startsWith("WITH RECURSIVE"))).toBe(true);
      // Each comment's DELETE and its flags' DELETE, each vote's DELETE, the user's flag and the user.
      expect(trips[1]).toHaveLength(2 * (depth + 1) + depth + 2);
      expect(models.log.filter((line) => line.startsWith("after"))).toEqual(Array.from({ length: depth + 1 }, (_, level) => `after c${depth - level}`));
      expect([await countRows("tc_comments"), await countRows("tc_votes"), await countRows("tc_users")]).toEqual([0, 0, 0]);
    });
  }

  /** Loads each comment's replies, down to the end of the thread, and, where asked, each comment's votes. */
  async function loadThread(comments: any[], votes: boolean): Promise<void> {
    for (const comment of comments) {
      if (votes) await comment.votes().toArray();
      await loadThread(await comment.replies().toArray(), votes);
    }
  }

  for (const votes of [true, false]) {
    it(`a reply chain loaded to its end${votes ? "" : ", not its votes"}, with callbacks: ${votes ? "one round trip, no read" : "only the votes read"}`, async () => {
      const models = threadedComments({ callbacks: true });
      const user = await chain(models, 5);
      const trips = await counting(async (start) => {
        const loaded = await models.User.includes("flag").find(user.id);
        await loadThread(await loaded.comments().toArray(), votes);
        start();
        expect(await loaded.destroy()).toBe(loaded);
      });
      expect(trips.slice(0, -1).map((trip) => heads([trip])[0]!.map((sql) => sql.replace(/^WITH RECURSIVE .*\) SELECT/, "SELECT")))).toEqual(votes ? [] : [[`SELECT * FROM "tc_votes"`]]);
      expect(trips.at(-1)!.every((sql) => !sql.includes("SELECT *"))).toBe(true);
      expect(models.log.filter((line) => line.startsWith("after"))).toEqual(["after c5", "after c4", "after c3", "after c2", "after c1", "after c0"]);
      expect([await countRows("tc_comments"), await countRows("tc_votes"), await countRows("tc_users")]).toEqual([0, 0, 0]);
    });
  }

  it("ten threads of replies without callbacks: one round trip, as for one", async () => {
    const models = threadedComments();
    const user = await models.User.create({ name: "ada" });
    for (let thread = 0; thread < 10; thread++) {
      const root = await models.Comment.create({ tcUserId: user.id, body: `t${thread}` });
      await models.Comment.insertAll([{ parentId: root.id, body: "a" }, { parentId: root.id, body: "b" }]);
    }
    const trips = await destroyCounted(models.User, user.id);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toHaveLength(6);
    expect(await countRows("tc_comments")).toBe(0);
  });

  it("a loop through two Models, three levels deep, without callbacks: one round trip (a relink, then a DELETE per node)", async () => {
    const { Shelf, Folder } = threadedComments();
    const shelf = await Shelf.create({ name: "s0" });
    let parent = shelf;
    for (let level = 0; level < 3; level++) {
      const folder = await Folder.create({ name: `f${level}`, tcShelfId: parent.id });
      parent = await Shelf.create({ name: `s${level + 1}`, tcFolderId: folder.id });
    }
    const trips = await destroyCounted(Shelf, shelf.id);
    expect(trips.map((trip) => trip.length)).toEqual([4]);
    expect([await countRows("tc_shelves"), await countRows("tc_folders")]).toEqual([0, 0]);
  });
});
