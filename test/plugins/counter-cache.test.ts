import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { associations, Base, belongsTo, connect, defineApplicationRecord, encrypts, hasMany, InvalidModel, Model, softDelete, withDatabase, withTenant } from "../../src/index.js";
import { listen, recordingRoundTrips, statementHeads, withRecordedRoundTrips } from "../helpers/queries.js";
import { Board, type CountedComments, countedComments, TenantList, TenantTask } from "../models/counted-comments.js";
import { countedTaggings } from "../models/counted-taggings.js";

const TABLES = ["cc_comments", "cc_posts", "cc_users", "cc_topics", "cc_boards", "cc_tasks", "cc_lists", "ct_taggings", "ct_posts", "ct_tags"];

beforeEach(async () => {
  await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** The counter columns as D1 holds them, by the row's title, name or body. */
async function stored(table: "cc_posts" | "cc_users" | "cc_comments"): Promise<Record<string, number | null>> {
  const label = table === "cc_posts" ? "title" : table === "cc_users" ? "name" : "body";
  const column = table === "cc_comments" ? "replies_count" : "comments_count";
  const { results } = await env.DB.prepare(`SELECT ${label} AS label, ${column} AS n FROM ${table}`).all<{ label: string; n: number }>();
  return Object.fromEntries(results.map((row) => [row.label, row.n]));
}



/** Two users, ada with a post "a" and grace with a post "g". */
async function seed({ User, Post }: CountedComments) {
  const ada = await User.createOrThrow({ name: "ada" });
  const grace = await User.createOrThrow({ name: "grace" });
  const a = await Post.createOrThrow({ ccUserId: ada.id, title: "a" });
  const g = await Post.createOrThrow({ ccUserId: grace.id, title: "g" });
  return { ada, grace, a, g };
}

describe("guide: Counter caches, what keeps it right", () => {
  it("a create adds to the parents' counters in the INSERT's round trip, after it", async () => {
    const models = countedComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada, a } = await seed(models);
      roundTrips.length = 0;
      await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "hi" });
      // No parent comment: no statement for that counter.
      expect(roundTrips.map(statementHeads)).toEqual([["INSERT INTO", 'UPDATE "cc_posts"', 'UPDATE "cc_users"']]);
    });
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 1, grace: 0 });
  });

  it("a destroy takes from the parents' counters in the DELETE's round trip, before it; a row already gone takes nothing", async () => {
    const models = countedComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada, a } = await seed(models);
      const comment = await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "hi" });
      const again = await models.Comment.find(comment.id);
      roundTrips.length = 0;
      await comment.destroyOrThrow();
      // Its replies' set-based DELETE (with their counters) comes first, then the comment's counters and DELETE.
      expect(roundTrips).toHaveLength(1);
      expect(statementHeads(roundTrips[0]!).slice(-3)).toEqual(['UPDATE "cc_posts"', 'UPDATE "cc_users"', "DELETE FROM"]);
      // Another request already deleted the row: this destroy succeeds and takes nothing twice.
      await again.destroyOrThrow();
    });
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 0, grace: 0 });
  });

  it("a move takes from the old parent before the UPDATE and adds to the new one after it, in one round trip", async () => {
    const models = countedComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada, a, g } = await seed(models);
      const comment = await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "hi" });
      roundTrips.length = 0;
      await comment.updateOrThrow({ ccPostId: g.id });
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "cc_posts"', 'UPDATE "cc_comments"', 'UPDATE "cc_posts"']]);
      expect(await stored("cc_posts")).toEqual({ a: 0, g: 1 });
      // A save that changes no foreign key sends no counter statement; moving to no post takes from the old one.
      roundTrips.length = 0;
      await comment.updateOrThrow({ body: "edited" });
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "cc_comments"']]);
      await comment.updateOrThrow({ ccPostId: null });
    });
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 1, grace: 0 });
  });

  it("reads the foreign key the row holds when the batch runs, not the one loaded: a stale record counts its row's parent", async () => {
    const models = countedComments();
    const { ada, a, g } = await seed(models);
    const comment = await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "hi" });
    const stale = await models.Comment.find(comment.id);
    await comment.updateOrThrow({ ccPostId: g.id });
    await stale.destroyOrThrow(); // loaded when it was a's, destroyed as g's
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0 });
  });

  it("a write that fails leaves every counter as it was: its statements are in its atomic batch", async () => {
    const models = countedComments();
    const { ada, a } = await seed(models);
    await expect(models.Comment.create({ ccPostId: a.id, ccUserId: ada.id, parentId: "no such comment", body: "x" })).rejects.toThrow(/FOREIGN KEY/);
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 0, grace: 0 });
  });

  it("counts children saved with their owner in its batch, and the replies of a Model that references itself", async () => {
    const models = countedComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada } = await seed(models);
      const post = models.Post.build({ ccUserId: ada.id, title: "n" });
      const root = post.comments().build({ ccUserId: ada.id, body: "root" });
      post.comments().build({ ccUserId: ada.id, body: "second" });
      roundTrips.length = 0;
      await post.saveOrThrow();
      expect(roundTrips).toHaveLength(1);
      expect(post.commentsCount).toBe(2);
      const reply = await models.Comment.createOrThrow({ ccPostId: post.id, parentId: root.id, body: "reply" });
      await models.Comment.createOrThrow({ ccPostId: post.id, parentId: reply.id, body: "reply to reply" });
    });
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0, n: 4 });
    expect(await stored("cc_users")).toEqual({ ada: 2, grace: 0 });
    expect(await stored("cc_comments")).toEqual({ root: 1, second: 0, reply: 1, "reply to reply": 0 });
  });

  it("keys the database assigns, and the default counter name (the child's table plus Count)", async () => {
    const board = Board.build({ name: "general" });
    board.topics().build({ title: "one" });
    board.topics().build({ title: "two" });
    await board.saveOrThrow();
    expect(board.ccTopicsCount).toBe(2);
    expect((await Board.find(board.id)).ccTopicsCount).toBe(2);
    const [first] = await board.topics().toArray();
    await first!.destroyOrThrow();
    expect((await Board.find(board.id)).ccTopicsCount).toBe(1);
  });
});

describe("guide: Counter caches, loaded parents", () => {
  it("a loaded parent, and the owner a child was built through, count it as stored: no change for their next save", async () => {
    const models = countedComments();
    const { ada, a, g } = await seed(models);
    const comment = await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "hi" });
    const post = (await comment.post.load())!;
    expect(post.commentsCount).toBe(1);
    await comment.destroyOrThrow();
    expect(post.commentsCount).toBe(0);
    expect(post.isChanged()).toBe(false);
    // A parent given with set, with an unsaved change of its own, which stays the only change.
    const moved = await models.Comment.createOrThrow({ ccPostId: a.id, body: "moved" });
    g.assign({ title: "g, renamed" });
    moved.post.set(g);
    await moved.saveOrThrow();
    expect(g.commentsCount).toBe(1);
    expect(g.changed()).toEqual(["title"]);
    await g.saveOrThrow();
    await moved.destroyOrThrow();
    expect(g.commentsCount).toBe(0);
    // Moved by its foreign key while holding its old parent: the held parent is the one it left.
    const leaving = await models.Comment.createOrThrow({ ccPostId: a.id, body: "leaving" });
    const held = (await leaving.post.load())!;
    expect(held.commentsCount).toBe(1);
    await leaving.updateOrThrow({ ccPostId: g.id });
    expect(held.commentsCount).toBe(0);
    await leaving.destroyOrThrow();
    const built = a.comments().build({ body: "built" });
    await a.saveOrThrow();
    expect(built.isPersisted()).toBe(true);
    expect(a.commentsCount).toBe(1);
    expect(a.isChanged()).toBe(false);
    await a.comments().create({ body: "created" });
    expect(a.commentsCount).toBe(2);
    await built.destroyOrThrow();
    expect(a.commentsCount).toBe(1);
    expect(await stored("cc_posts")).toEqual({ a: 1, "g, renamed": 0 });
  });
});

describe("guide: Counter caches, size() from the counter", () => {
  it("sends no query when the owner was loaded with the counter; queries when it was not, or for a scoped association", async () => {
    const models = countedComments();
    const { ada, a } = await seed(models);
    await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "one" });
    await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "two" });
    await withRecordedRoundTrips(async (roundTrips) => {
      const post = await models.Post.find(a.id);
      roundTrips.length = 0;
      expect(await post.comments().size()).toBe(2);
      expect(await post.comments().isEmpty()).toBe(false);
      expect(await post.comments().hasAny()).toBe(true);
      post.comments().build({ body: "built, not saved" });
      expect(await post.comments().size()).toBe(3);
      expect(roundTrips).toEqual([]);
      // Rails' count always asks the database.
      expect(await post.comments().count()).toBe(2);
      expect(roundTrips).toHaveLength(1);
      // Loaded without the counter's column, or through a scope the counter does not follow: one query each.
      const partial = (await models.Post.select("title").where({ id: a.id }).first())!;
      roundTrips.length = 0;
      expect(await partial.comments().size()).toBe(2);
      expect(await post.firstComments().size()).toBe(2);
      expect(roundTrips).toHaveLength(2);
    });
  });

  it("reads a null counter as 0, as Rails does", async () => {
    const { Post } = countedComments();
    const post = await Post.createOrThrow({ title: "empty" });
    await env.DB.prepare("UPDATE cc_posts SET comments_count = 0 WHERE id = ?").bind(post.id).run();
    class NullablePost extends Model({ id: { type: "string", null: false }, title: "string", repliesCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      replies = hasMany(Reply, { foreignKey: "ccPostId" });
    }
    class Reply extends Model({ id: { type: "string", null: false }, ccPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      post = belongsTo(NullablePost, { foreignKey: "ccPostId", counterCache: "repliesCount" });
    }
    const loaded = await NullablePost.find(post.id);
    expect(loaded.repliesCount).toBeNull();
    expect(await loaded.replies().size()).toBe(0);
    await Reply.createOrThrow({ ccPostId: post.id, body: "first" });
    expect((await NullablePost.find(post.id)).repliesCount).toBe(1);
  });
});

describe("guide: Counter caches, a destroy's dependents", () => {
  /** grace comments on a; on g, ada asks, grace replies to her, and ada comments again. */
  async function discussion(models: CountedComments) {
    const { ada, grace, a, g } = await seed(models);
    const { Comment } = models;
    await Comment.createOrThrow({ ccPostId: a.id, ccUserId: grace.id, body: "grace on a" });
    const question = await Comment.createOrThrow({ ccPostId: g.id, ccUserId: ada.id, body: "ada asks on g" });
    await Comment.createOrThrow({ ccPostId: g.id, ccUserId: grace.id, parentId: question.id, body: "grace replies on g" });
    await Comment.createOrThrow({ ccPostId: g.id, ccUserId: ada.id, body: "ada again on g" });
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 3 });
    expect(await stored("cc_users")).toEqual({ ada: 2, grace: 2 });
    return { ada, grace, a, g, question };
  }

  it("set-based: destroying a user takes their comments, and the replies to them, off other users' posts in one round trip", async () => {
    const models = countedComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada } = await discussion(models);
      const loaded = await models.User.find(ada.id);
      roundTrips.length = 0;
      await loaded.destroyOrThrow();
      // One batch, nothing read: each set-based DELETE preceded by the counter statements of the rows it deletes.
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]!.filter((text) => text.startsWith("SELECT"))).toEqual([]);
      expect(statementHeads(roundTrips[0]!).filter((head) => head === "DELETE FROM" || head === "WITH RECURSIVE")).toHaveLength(3);
    });
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    expect(await stored("cc_users")).toEqual({ grace: 1 });
    expect(await stored("cc_comments")).toEqual({ "grace on a": 0 });
  });

  it("record by record (comments have destroy callbacks): the same counts", async () => {
    const models = countedComments({ callbacks: true });
    const { ada } = await discussion(models);
    await (await models.User.find(ada.id)).destroyOrThrow();
    expect(models.log.sort()).toEqual(["destroy ada again on g", "destroy ada asks on g", "destroy grace replies on g"]);
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    expect(await stored("cc_users")).toEqual({ grace: 1 });
  });

  it("a post's own destroy with its comments: the authors' counters follow", async () => {
    const models = countedComments();
    const { g } = await discussion(models);
    await g.destroyOrThrow();
    expect(await stored("cc_users")).toEqual({ ada: 0, grace: 1 });
    expect(await stored("cc_posts")).toEqual({ a: 1 });
  });

  it("deleteAll takes the deleted rows off their parents; nullify takes the rows off the parent it unsets", async () => {
    const deleting = countedComments({ userComments: "deleteAll" });
    const first = await discussion(deleting);
    await (await deleting.User.find(first.grace.id)).destroyOrThrow();
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 2 });
    expect(await stored("cc_comments")).toEqual({ "ada asks on g": 0, "ada again on g": 0 });
    await env.DB.batch(TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
    const nullifying = countedComments({ userComments: "nullify" });
    const second = await discussion(nullifying);
    await (await nullifying.User.find(second.grace.id)).destroyOrThrow();
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 3 });
    expect(await stored("cc_users")).toEqual({ ada: 2 });
  });
  it("deleteAll and nullify of a tree destroyed record by record keep the counters too", async () => {
    const models = countedComments({ callbacks: true, userComments: "deleteAll", userPosts: "destroy" });
    const { grace } = await discussion(models);
    await (await models.User.find(grace.id)).destroyOrThrow();
    expect(models.log.sort()).toEqual(["destroy ada again on g", "destroy ada asks on g", "destroy grace replies on g"]);
    expect(await stored("cc_posts")).toEqual({ a: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 0 });
  });
});

describe("guide: Counter caches, replacing a child and writing join rows", () => {
  /** ada's post "a" with ada's comment "first", pinned. */
  async function pinnedComment(models: CountedComments) {
    const { ada, a, g } = await seed(models);
    await models.Comment.createOrThrow({ ccPostId: a.id, ccUserId: ada.id, body: "first" });
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    return { ada, a };
  }

  for (const pinned of ["nullify", "delete"] as const) {
    it(`a hasOne child replaced (${pinned}) leaves its parents' counters in the save's one round trip, before the new child's insert`, async () => {
      const models = countedComments(pinned === "nullify" ? {} : { pinned });
      const { ada, a } = await pinnedComment(models);
      await withRecordedRoundTrips(async (roundTrips) => {
        const post = await models.Post.find(a.id);
        post.pinned.build({ ccUserId: ada.id, body: "second" });
        roundTrips.length = 0;
        await post.saveOrThrow();
        expect(roundTrips).toHaveLength(1);
        const writes = statementHeads(roundTrips[0]!);
        const own = pinned === "nullify" ? 'UPDATE "cc_comments"' : 'DELETE FROM';
        expect(writes.indexOf('UPDATE "cc_posts"')).toBeLessThan(writes.indexOf(own));
        expect(writes.indexOf(own)).toBeLessThan(writes.indexOf('INSERT INTO'));
      });
      expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
      // nullify unsets the post only: the comment is still ada's.
      expect(await stored("cc_users")).toEqual({ ada: pinned === "nullify" ? 2 : 1, grace: 0 });
    });
  }

  it("a hasOne child replaced by destroy: destroyed with its counters, as any destroy", async () => {
    const models = countedComments({ pinned: "destroy" });
    const { ada, a } = await pinnedComment(models);
    const post = await models.Post.find(a.id);
    post.pinned.build({ ccUserId: ada.id, body: "second" });
    await post.saveOrThrow();
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 1, grace: 0 });
  });

  /** The counters of ct_posts and ct_tags, by title or name. */
  async function taggingCounts(): Promise<Record<string, number>> {
    const { results } = await env.DB.prepare("SELECT title AS label, taggings_count AS n FROM ct_posts UNION ALL SELECT name, taggings_count FROM ct_tags").all<{ label: string; n: number }>();
    return Object.fromEntries(results.map((row) => [row.label, row.n]));
  }

  /** A post tagged red and blue, and a green tag. */
  async function tagged(models: ReturnType<typeof countedTaggings>) {
    const post = await models.Post.createOrThrow({ title: "p" });
    const [red, blue, green] = await Promise.all(["red", "blue", "green"].map((name) => models.Tag.createOrThrow({ name })));
    await post.tags().add(red!, blue!);
    expect(await taggingCounts()).toEqual({ p: 2, red: 1, blue: 1, green: 0 });
    return { post, red: red!, blue: blue!, green: green! };
  }

  it("remove's one DELETE of the join rows takes them off both counters in its round trip", async () => {
    const models = countedTaggings();
    const { post, red } = await tagged(models);
    await withRecordedRoundTrips(async (roundTrips) => {
      const loaded = await models.Post.find(post.id);
      roundTrips.length = 0;
      await loaded.tags().remove(red);
      expect(roundTrips).toHaveLength(1);
      expect(statementHeads(roundTrips[0]!)).toEqual(['UPDATE "ct_posts"', 'UPDATE "ct_tags"', "DELETE FROM"]);
    });
    expect(await taggingCounts()).toEqual({ p: 1, red: 0, blue: 1, green: 0 });
  });

  it("remove, set and setIds keep both counters right, join rows destroyed with callbacks or not", async () => {
    for (const callbacks of [false, true]) {
      await env.DB.batch(["ct_taggings", "ct_posts", "ct_tags"].map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const models = countedTaggings({ callbacks });
      const { post, red, blue, green } = await tagged(models);
      await post.tags().remove(blue);
      expect(await taggingCounts()).toEqual({ p: 1, red: 1, blue: 0, green: 0 });
      await post.tags().set([green]);
      expect(await taggingCounts()).toEqual({ p: 1, red: 0, blue: 0, green: 1 });
      await post.tags().setIds([red.id!, blue.id!]);
      expect(await taggingCounts()).toEqual({ p: 2, red: 1, blue: 1, green: 0 });
      expect(models.log).toEqual(callbacks ? [`destroy ${blue.id}`, `destroy ${red.id}`, `destroy ${green.id}`] : []);
    }
  });

  it("a through association's dependent deletes the join rows off the targets' counters, set-based or not", async () => {
    for (const dependent of ["deleteAll", "nullify", "destroy"] as const) {
      await env.DB.batch(["ct_taggings", "ct_posts", "ct_tags"].map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const models = countedTaggings({ dependent });
      const { post } = await tagged(models);
      await (await models.Post.find(post.id)).destroyOrThrow();
      expect(await taggingCounts()).toEqual({ red: 0, blue: 0, green: 0 });
    }
  });
});

describe("guide: Counter caches, resetCounters and bulk writes", () => {
  it("bulk writes skip counters, as in Rails; resetCounters recounts any number of rows in one statement", async () => {
    const models = countedComments();
    const { Comment, Post } = models;
    const { ada, a, g } = await seed(models);
    await Comment.insertAll([
      { ccPostId: a.id, ccUserId: ada.id, body: "x" },
      { ccPostId: a.id, ccUserId: ada.id, body: "y" },
      { ccPostId: g.id, ccUserId: ada.id, body: "z" },
    ]);
    await Comment.where({ body: "z" }).updateAll({ ccPostId: a.id });
    expect(await stored("cc_posts")).toEqual({ a: 0, g: 0 });
    await withRecordedRoundTrips(async (roundTrips) => {
      expect(await Post.resetCounters([a.id, g.id], "comments")).toBe(2);
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(1);
      expect(await stored("cc_posts")).toEqual({ a: 3, g: 0 });
      await Comment.where({ body: "x" }).deleteAll();
      expect(await stored("cc_posts")).toEqual({ a: 3, g: 0 });
      // One key, and a counter named by its attribute.
      expect(await Post.resetCounters(a.id, "commentsCount")).toBe(1);
      expect(await models.User.resetCounters(ada.id, "comments")).toBe(1);
    });
    expect(await stored("cc_posts")).toEqual({ a: 2, g: 0 });
    expect(await stored("cc_users")).toEqual({ ada: 2, grace: 0 });
  });

  it("resetCounters of a Model bound to a database (db.model(Post)) recounts on that database", async () => {
    const models = countedComments();
    const { ada, a } = await seed(models);
    await models.Comment.insertAll([{ ccPostId: a.id, ccUserId: ada.id, body: "x" }]);
    const db = connect(env.DB);
    expect(await db.model(models.Post).resetCounters(a.id, "comments")).toBe(1);
    expect(await stored("cc_posts")).toEqual({ a: 1, g: 0 });
    await expect(db.model(models.Post).resetCounters(a.id, "title" as never)).rejects.toThrow("Post.resetCounters: Post has no hasMany title with a counter cache");
  });

  it("resetCounters of a Model that counts its own rows (replies), and several counters in one statement", async () => {
    const models = countedComments();
    const { ada, a } = await seed(models);
    const root = await models.Comment.createOrThrow({ ccPostId: a.id, body: "root" });
    await models.Comment.insertAll([{ parentId: root.id, body: "r1" }, { parentId: root.id, body: "r2" }]);
    expect(await models.Comment.resetCounters(root.id, "replies")).toBe(1);
    expect(await stored("cc_comments")).toEqual({ root: 2, r1: 0, r2: 0 });
    await env.DB.prepare("UPDATE cc_users SET comments_count = 9").run();
    await models.Comment.insertAll([{ ccUserId: ada.id, ccPostId: a.id, body: "by ada" }]);
    expect(await models.User.resetCounters([ada.id], "comments")).toBe(1);
    expect(await stored("cc_users")).toEqual({ ada: 1, grace: 9 });
  });

  it("refuses a name that keeps no counter, and missing arguments, naming the Model", async () => {
    const { Post, User } = countedComments();
    const refused = (work: () => Promise<unknown>) => work().then(() => "resolved", (error: Error) => `${error.name}: ${error.message}`);
    expect(await refused(() => Post.resetCounters("x", "firstComments"))).toMatch(/^TypeError: Post\.resetCounters: firstComments keeps no counter cache/);
    expect(await refused(() => (Post as any).resetCounters("x", "nope"))).toMatch(/^TypeError: Post\.resetCounters: Post has no hasMany nope/);
    expect(await refused(() => (User as any).resetCounters("x"))).toMatch(/^TypeError: User\.resetCounters needs the name of a hasMany/);
    expect(await refused(() => (User as any).resetCounters(undefined, "comments"))).toMatch(/^TypeError: User\.resetCounters takes a key or a list of keys, not undefined/);
    expect(await refused(() => (User as any).resetCounters(null, "comments"))).toBe("TypeError: User.resetCounters takes a key or a list of keys, not null");
    expect(await refused(() => (User as any).resetCounters([{}], "comments"))).toBe("TypeError: User.resetCounters takes a key or a list of keys, not [{…}]");
    expect(await refused(() => (User as any).resetCounters("x", 3))).toMatch(/^TypeError: User\.resetCounters: a counter is named by its hasMany association, not 3/);
  });
});

describe("guide: Counter caches, the column", () => {
  const firstUse = (model: { all(): { toSql(): unknown } }) => {
    try {
      model.all().toSql();
      return "used";
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };

  it("a counter the parent lacks, or that is no number, or the option's wrong value: InvalidModel naming the Models and column", async () => {
    class Parent extends Model({ id: "integer", title: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_boards";
    }
    class Missing extends Model({ id: "integer", ccBoardId: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_topics";
      board = belongsTo(Parent, { foreignKey: "ccBoardId", counterCache: true });
    }
    class Text extends Model({ id: "integer", ccBoardId: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_topics";
      // @ts-expect-error the counter must be a number attribute of the parent
      board = belongsTo(Parent, { foreignKey: "ccBoardId", counterCache: "title" });
    }
    class Wrong extends Model({ id: "integer", ccBoardId: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_topics";
      // @ts-expect-error true or an attribute name
      board = belongsTo(Parent, { foreignKey: "ccBoardId", counterCache: 1 });
    }
    expect(firstUse(Missing)).toMatch(/^InvalidModel: Missing\.board \(belongsTo\): counterCache needs Parent\.ccTopicsCount \(column cc_topics_count\), which Parent does not have/);
    expect(firstUse(Text)).toMatch(/^InvalidModel: Text\.board \(belongsTo\): counterCache Parent\.title \(column title\) must be an integer attribute, not string/);
    expect(firstUse(Wrong)).toMatch(/^InvalidModel: Wrong\.board \(belongsTo\): counterCache must be true or the name of the parent's counter attribute, not 1/);
    expect(() => Missing.all().toSql()).toThrow(InvalidModel);
  });

  it("a counterCache where the counterCaches plugin is not registered is refused, not ignored", () => {
    class AssociationsOnly extends Base {
      static override binding = "DB";
      static {
        this.use(associations);
      }
    }
    const Declared = defineApplicationRecord({}, AssociationsOnly);
    class Parent extends Declared({ id: "integer", ccTopicsCount: "integer" }) {
      static override tableName = "cc_boards";
    }
    class Child extends Declared({ id: "integer", ccBoardId: "integer" }) {
      static override tableName = "cc_topics";
      board = belongsTo(Parent, { foreignKey: "ccBoardId", counterCache: true });
    }
    expect(firstUse(Child)).toMatch(/^InvalidModel: Child\.board \(belongsTo\): counterCache needs the counterCaches plugin \(in the default set\)/);
  });
});

describe("guide: Counter caches, plugins", () => {
  it("a counter statement reaches only the current tenant's parent rows", async () => {
    await env.DB.prepare("INSERT INTO cc_lists (id, tenant_id, name) VALUES ('theirs', 'globex', 'Theirs')").run();
    await withTenant("acme", async () => {
      const mine = await TenantList.createOrThrow({ name: "Mine" });
      await TenantTask.createOrThrow({ ccListId: mine.id, title: "one" });
      // A task of acme's pointing at globex's list: the write is acme's, the list is not.
      const stray = await TenantTask.createOrThrow({ ccListId: "theirs", title: "stray" });
      await stray.destroyOrThrow();
      expect(await TenantList.resetCounters([mine.id, "theirs"], "tasks")).toBe(1);
      expect((await TenantList.find(mine.id)).tasksCount).toBe(1);
    });
    const { results } = await env.DB.prepare("SELECT id, tasks_count AS n FROM cc_lists WHERE tenant_id = 'globex'").all();
    expect(results).toEqual([{ id: "theirs", n: 0 }]);
  });

  it("with softDelete on the parent, a counter statement reaches soft-deleted parents too: a parent's default scopes are lifted, as Rails' counter updates are", async () => {
    class KeptPost extends Model({ id: { type: "string", null: false }, title: "string", commentsCount: "integer", deletedAt: "datetime" }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      static {
        this.use(softDelete);
      }
      comments = hasMany(KeptComment, { foreignKey: "ccPostId" });
    }
    class KeptComment extends Model({ id: { type: "string", null: false }, ccPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      post = belongsTo(KeptPost, { foreignKey: "ccPostId", counterCache: "commentsCount" });
    }
    const kept = await KeptPost.createOrThrow({ title: "kept" });
    const trashed = await KeptPost.createOrThrow({ title: "trashed" });
    await trashed.destroyOrThrow();
    await KeptComment.createOrThrow({ ccPostId: kept.id, body: "on kept" });
    await KeptComment.createOrThrow({ ccPostId: trashed.id, body: "on trashed" });
    expect(await stored("cc_posts")).toEqual({ kept: 1, trashed: 1 });
    expect(await KeptPost.resetCounters([kept.id, trashed.id], "comments")).toBe(2);
    expect(await stored("cc_posts")).toEqual({ kept: 1, trashed: 1 });
  });

  it("resetCounters counts the children their default scope shows, prepared as every query is: an encrypted condition sent as ciphertext", async () => {
    const kept = "kept";
    class SecretPost extends Model({ id: { type: "string", null: false }, title: "string", commentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      comments = hasMany(SecretComment, { foreignKey: "ccPostId" });
    }
    class SecretComment extends Model({ id: { type: "string", null: false }, ccPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      static {
        this.use(encrypts({ key: () => "UztXy7xYILLuU3J4qWW3MeA+qr2nS//Ch4FJrW0/enQ=" }));
        this.encrypts("body", { deterministic: true });
        this.defaultScope((q) => q.where({ body: kept }));
      }
      post = belongsTo(SecretPost, { foreignKey: "ccPostId", counterCache: "commentsCount" });
    }
    const post = await SecretPost.createOrThrow({ title: "p" });
    // A bulk insert skips counters; a record's write, whose counter statements are planned synchronously, cannot
    // prepare the scope's encrypted condition and is refused before anything is sent.
    await SecretComment.insertAll(["a", "b", "c"].map((id, index) => ({ id, ccPostId: post.id, body: index < 2 ? kept : "hidden" })));
    const refused = listen();
    const error = await withDatabase(refused.db, () => SecretComment.createOrThrow({ ccPostId: post.id, body: kept })).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^SecretComment\.defaultScope: .*; a counter cache of SecretComment cannot tell which rows it counts; count with await SecretComment\.count\(\) instead$/);
    expect(refused.events).toEqual([]);
    expect(await stored("cc_posts")).toEqual({ p: 0 });
    const { events, db } = listen();
    expect(await withDatabase(db, () => SecretPost.resetCounters(post.id, "comments"))).toBe(1);
    expect(await stored("cc_posts")).toEqual({ p: 2 });
    expect(events).toHaveLength(1);
    expect(events[0]!.params.map(String)).not.toContain(kept);
  });

  it("resetCounters applies the children's default scope once, in the recount's WHERE", async () => {
    class TrashPost extends Model({ id: { type: "string", null: false }, title: "string", commentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      comments = hasMany(TrashComment, { foreignKey: "ccPostId" });
    }
    class TrashComment extends Model({ id: { type: "string", null: false }, ccPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      static {
        this.defaultScope((q) => q.where({ body: ["a", "b"] }));
      }
      post = belongsTo(TrashPost, { foreignKey: "ccPostId", counterCache: "commentsCount" });
    }
    const post = await TrashPost.createOrThrow({ title: "p" });
    for (const body of ["a", "b", "c"]) await TrashComment.createOrThrow({ ccPostId: post.id, body });
    const { events, db } = listen();
    expect(await withDatabase(db, () => TrashPost.resetCounters(post.id, "comments"))).toBe(1);
    expect(await stored("cc_posts")).toEqual({ p: 2 });
    expect(events[0]!.sql.split(`"body" IN`).length - 1).toBe(1);
  });

  it("a counter statement lifts the parent's default scope, so one on an encrypted attribute (which a sync plan cannot prepare) is no obstacle", async () => {
    class SealedPost extends Model({ id: { type: "string", null: false }, title: "string", commentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      static {
        this.use(encrypts({ key: () => "UztXy7xYILLuU3J4qWW3MeA+qr2nS//Ch4FJrW0/enQ=" }));
        this.encrypts("title", { deterministic: true });
        this.defaultScope((q) => q.where({ title: "open" }));
      }
      comments = hasMany(SealedComment, { foreignKey: "ccPostId" });
    }
    class SealedComment extends Model({ id: { type: "string", null: false }, ccPostId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      post = belongsTo(SealedPost, { foreignKey: "ccPostId", counterCache: "commentsCount" });
    }
    const post = await SealedPost.createOrThrow({ title: "open" });
    const { events, db } = listen();
    await withDatabase(db, () => SealedComment.createOrThrow({ ccPostId: post.id, body: "hi" }));
    expect(events.map((event) => event.sql.split(" ").slice(0, 2).join(" "))).toEqual(["INSERT INTO", 'UPDATE "cc_posts"']);
    expect((await SealedPost.find(post.id)).commentsCount).toBe(1);
  });
});
