import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, connect, hasMany, InvalidModel, Model, withDatabase } from "../../src/index.js";
import { listen, recordingRoundTrips, statementHeads, withRecordedRoundTrips } from "../helpers/queries.js";
import {
  COUNTED_POLYMORPHIC_TABLES,
  countedPolymorphicComments,
  type CountedPolymorphicComments,
  countedPolymorphicTaggings,
} from "../models/counted-polymorphic-comments.js";

beforeEach(async () => {
  await env.DB.batch(COUNTED_POLYMORPHIC_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** The counters as D1 holds them: posts by title, photos by caption (`pc_comments_count` unless told). */
async function stored(column = "pc_comments_count"): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(`SELECT title AS label, ${column} AS n FROM pc_posts UNION ALL SELECT caption, ${column} FROM pc_photos`).all<{ label: string; n: number }>();
  return Object.fromEntries(results.map((row) => [row.label, row.n]));
}



/** A post "post" and a photo "photo" with the same key as stored ("1"), a photo "other" (2) and a user. */
async function seed({ Post, Photo, User }: CountedPolymorphicComments) {
  const post = await Post.createOrThrow({ id: "1", title: "post" });
  const photo = await Photo.createOrThrow({ id: 1, caption: "photo" });
  const other = await Photo.createOrThrow({ id: 2, caption: "other" });
  const ada = await User.createOrThrow({ name: "ada" });
  return { post, photo, other, ada };
}

describe("guide: Counter caches, a polymorphic belongsTo: what keeps it right", () => {
  it("a create adds 1 to the parent its type and key name, in the INSERT's round trip, and to no parent of another type with the same key", async () => {
    const models = countedPolymorphicComments();
    const { photo, post } = await seed(models);
    const { db, events } = listen();
    await withDatabase(db, async () => {
      const comment = models.Comment.build({ body: "on the photo" });
      comment.commentable.set(photo);
      await comment.saveOrThrow();
    });
    expect(statementHeads(events.map((event) => event.sql))).toEqual(["INSERT INTO", 'UPDATE "pc_photos"']);
    expect(events[1]!.sql).toContain(`AND "commentable_type" = ?`);
    expect(events[1]!.params).toContain("Photo");
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
    await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "on the post" });
    // A comment on no parent counts nowhere.
    await models.Comment.createOrThrow({ body: "on nothing" });
    expect(await stored()).toEqual({ post: 1, photo: 1, other: 0 });
  });

  it("a destroy takes 1 from the parent its type names, before the DELETE, in its round trip; a row already gone takes nothing", async () => {
    const models = countedPolymorphicComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { photo, post } = await seed(models);
      const comment = await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "on the photo" });
      await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "on the post" });
      const again = await models.Comment.find(comment.id);
      roundTrips.length = 0;
      await comment.destroyOrThrow();
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "pc_photos"', "DELETE FROM"]]);
      // Another request already deleted the row: this destroy succeeds and takes nothing twice.
      await again.destroyOrThrow();
    });
    expect(await stored()).toEqual({ post: 1, photo: 0, other: 0 });
  });

  it("an update that changes the key, the type or both moves the count from the old parent's table to the new one's, in one round trip", async () => {
    const models = countedPolymorphicComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { post, photo, other } = await seed(models);
      const comment = await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "moving" });
      roundTrips.length = 0;
      // The key: photo 1 to photo 2.
      await comment.updateOrThrow({ commentableId: String(other.id) });
      expect(await stored()).toEqual({ post: 0, photo: 0, other: 1 });
      // The type and the key: photo 2 to post "1".
      comment.commentable.set(post);
      await comment.saveOrThrow();
      expect(await stored()).toEqual({ post: 1, photo: 0, other: 0 });
      // The type alone: post "1" to photo 1, whose key is the same as stored.
      await comment.updateOrThrow({ commentableType: "Photo" });
      expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
      expect(roundTrips.map(statementHeads)).toEqual([
        ['UPDATE "pc_photos"', 'UPDATE "pc_comments"', 'UPDATE "pc_photos"'],
        ['UPDATE "pc_photos"', 'UPDATE "pc_comments"', 'UPDATE "pc_posts"'],
        ['UPDATE "pc_posts"', 'UPDATE "pc_comments"', 'UPDATE "pc_photos"'],
      ]);
      // A save that changes neither sends no counter statement; set(null) takes from the old parent only.
      roundTrips.length = 0;
      await comment.updateOrThrow({ body: "edited" });
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "pc_comments"']]);
      roundTrips.length = 0;
      comment.commentable.set(null);
      await comment.saveOrThrow();
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "pc_photos"', 'UPDATE "pc_comments"']]);
    });
    expect(await stored()).toEqual({ post: 0, photo: 0, other: 0 });
  });

  it("reads the key and type the row holds when the batch runs: a stale record counts its row's real parent, and never one its row no longer names", async () => {
    const models = countedPolymorphicComments();
    const { post, photo, other } = await seed(models);
    const comment = await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "hi" });
    const stale = await models.Comment.find(comment.id);
    await comment.updateOrThrow({ commentableId: String(other.id) });
    await stale.destroyOrThrow(); // loaded when it was photo 1's, destroyed as photo 2's
    expect(await stored()).toEqual({ post: 0, photo: 0, other: 0 });
    // Loaded as photo 1's, moved by another request to post "1" (the same key): its destroy takes nothing from photo 1.
    const moved = await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "moved" });
    const staleMoved = await models.Comment.find(moved.id);
    await moved.updateOrThrow({ commentableType: "Post", commentableId: post.id });
    await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "stays" });
    await staleMoved.destroyOrThrow();
    expect((await stored()).photo).toBe(1);
  });

  it("children built through their owner are counted in its save's batch, and a write that fails changes no counter", async () => {
    const models = countedPolymorphicComments();
    const { Post, Comment } = models;
    await withRecordedRoundTrips(async (roundTrips) => {
      const post = Post.build({ title: "new" });
      post.comments().build({ body: "one" });
      post.comments().build({ body: "two" });
      await post.saveOrThrow();
      expect(roundTrips).toHaveLength(1);
      expect(post.pcCommentsCount).toBe(2);
    });
    expect(await stored()).toEqual({ new: 2 });
    const post = (await Post.first())!;
    await expect(Comment.create({ pcUserId: "no such user", commentableType: "Post", commentableId: post.id, body: "x" })).rejects.toThrow(/FOREIGN KEY/);
    expect(await stored()).toEqual({ new: 2 });
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: loaded parents and size()", () => {
  it("the parent a child holds, of whichever Model, and the owner it was created through count it as stored", async () => {
    const models = countedPolymorphicComments();
    const { post, photo } = await seed(models);
    const comment = models.Comment.build({ body: "hi" });
    comment.commentable.set(photo);
    await comment.saveOrThrow();
    expect(photo.pcCommentsCount).toBe(1);
    // Moved to the post with the same key: the post it now holds counts it, the photo it left is not held.
    comment.commentable.set(post);
    await comment.saveOrThrow();
    expect([post.pcCommentsCount, photo.pcCommentsCount]).toEqual([1, 1]);
    expect(post.isChanged()).toBe(false);
    await comment.destroyOrThrow();
    expect(post.pcCommentsCount).toBe(0);
    await photo.comments().create({ body: "created" });
    expect(photo.pcCommentsCount).toBe(2);
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
  });

  it("add moves a child from a photo to the post with the same key, remove destroys it: both counters follow, the owner's in memory too", async () => {
    const models = countedPolymorphicComments();
    const { post, photo } = await seed(models);
    const comment = await photo.comments().create({ body: "moving" });
    const loaded = await models.Post.find(post.id);
    await withRecordedRoundTrips(async (roundTrips) => {
      await loaded.comments().add(comment);
      expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "pc_photos"', 'UPDATE "pc_comments"', 'UPDATE "pc_posts"']]);
    });
    expect([loaded.pcCommentsCount, photo.pcCommentsCount]).toEqual([1, 0]);
    expect(await stored()).toEqual({ post: 1, photo: 0, other: 0 });
    await loaded.comments().remove(comment);
    expect(loaded.pcCommentsCount).toBe(0);
    expect(await stored()).toEqual({ post: 0, photo: 0, other: 0 });
  });

  it("set and setIds of an as association leave the owner's counter as stored, the photo with the same key untouched", async () => {
    const models = countedPolymorphicComments();
    const { post, photo } = await seed(models);
    const second = await models.Post.createOrThrow({ title: "second" });
    const one = await post.comments().create({ body: "one" });
    await post.comments().create({ body: "two" });
    const three = await second.comments().create({ body: "three" });
    await photo.comments().create({ body: "on the photo" });
    const loaded = await models.Post.find(post.id);
    await loaded.comments().set([one]);
    expect(loaded.pcCommentsCount).toBe(1);
    await loaded.comments().setIds([one.id, three.id]);
    expect(loaded.pcCommentsCount).toBe(2);
    expect(loaded.isChanged()).toBe(false);
    expect(await stored()).toEqual({ post: 2, second: 0, photo: 1, other: 0 });
  });

  it("size() reads each parent's counter without a query; a scoped association queries; count() asks the database", async () => {
    const models = countedPolymorphicComments();
    const { post, photo } = await seed(models);
    await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "one" });
    await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "two", hidden: true });
    await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "three" });
    await withRecordedRoundTrips(async (roundTrips) => {
      const loadedPost = await models.Post.find(post.id);
      const loadedPhoto = await models.Photo.find(photo.id);
      roundTrips.length = 0;
      expect(await loadedPost.comments().size()).toBe(2);
      expect(await loadedPhoto.comments().size()).toBe(1);
      expect(await loadedPhoto.comments().hasAny()).toBe(true);
      expect(roundTrips).toEqual([]);
      expect(await loadedPost.comments().count()).toBe(2);
      expect(await loadedPost.shownComments().size()).toBe(1);
      expect(roundTrips).toHaveLength(2);
    });
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: a destroy's dependents, grouped by type", () => {
  /** ada comments on the post and twice on the photo, grace on the photo and on the other photo. */
  async function discussion(models: CountedPolymorphicComments) {
    const { post, photo, other, ada } = await seed(models);
    const grace = await models.User.createOrThrow({ name: "grace" });
    const on = (parent: { id: unknown }, type: string, user: { id: string }, body: string) =>
      models.Comment.createOrThrow({ commentableType: type, commentableId: String(parent.id), pcUserId: user.id, body });
    await on(post, "Post", ada, "ada on post");
    await on(photo, "Photo", ada, "ada on photo");
    await on(photo, "Photo", ada, "ada on photo again");
    await on(photo, "Photo", grace, "grace on photo");
    await on(other, "Photo", grace, "grace on other");
    expect(await stored()).toEqual({ post: 1, photo: 3, other: 1 });
    return { post, photo, other, ada, grace };
  }

  it("set-based: destroying a user takes their comments off the posts and the photos in one round trip, one statement per type", async () => {
    const models = countedPolymorphicComments();
    await withRecordedRoundTrips(async (roundTrips) => {
      const { ada } = await discussion(models);
      const loaded = await models.User.find(ada.id);
      roundTrips.length = 0;
      await loaded.destroyOrThrow();
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]!.filter((text) => text.startsWith("SELECT"))).toEqual([]);
      expect(statementHeads(roundTrips[0]!)).toEqual(['UPDATE "pc_posts"', 'UPDATE "pc_photos"', "DELETE FROM", "DELETE FROM"]);
      expect(roundTrips[0]![0]).toContain(`GROUP BY "commentable_id"`);
    });
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 1 });
  });

  it("record by record (comments have destroy callbacks), deleteAll and nullify: the same counts", async () => {
    const destroying = countedPolymorphicComments({ callbacks: true });
    const first = await discussion(destroying);
    await (await destroying.User.find(first.ada.id)).destroyOrThrow();
    expect(destroying.log.sort()).toEqual(["destroy ada on photo", "destroy ada on photo again", "destroy ada on post"]);
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 1 });
    await env.DB.batch(COUNTED_POLYMORPHIC_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
    const deleting = countedPolymorphicComments({ userComments: "deleteAll" });
    const second = await discussion(deleting);
    await (await deleting.User.find(second.grace.id)).destroyOrThrow();
    expect(await stored()).toEqual({ post: 1, photo: 2, other: 0 });
    await env.DB.batch(COUNTED_POLYMORPHIC_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
    // nullify unsets the author only: the comments still count on their parents.
    const nullifying = countedPolymorphicComments({ userComments: "nullify" });
    const third = await discussion(nullifying);
    await (await nullifying.User.find(third.grace.id)).destroyOrThrow();
    expect(await stored()).toEqual({ post: 1, photo: 3, other: 1 });
  });

  it("a post's destroy with its comments takes nothing from the photo with the same key", async () => {
    const models = countedPolymorphicComments();
    const { post } = await discussion(models);
    await post.destroyOrThrow();
    expect(await stored()).toEqual({ photo: 3, other: 1 });
  });

  for (const pinned of ["nullify", "delete"] as const) {
    it(`a hasOne child replaced (${pinned}) leaves its parent's counter in the save's one round trip, before the new child's insert`, async () => {
      const models = countedPolymorphicComments(pinned === "nullify" ? {} : { pinned });
      await withRecordedRoundTrips(async (roundTrips) => {
        const { post } = await seed(models);
        await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "first" });
        const loaded = await models.Post.find(post.id);
        loaded.pinned.build({ body: "second" });
        roundTrips.length = 0;
        await loaded.saveOrThrow();
        expect(roundTrips).toHaveLength(1);
        const writes = statementHeads(roundTrips[0]!);
        const own = pinned === "nullify" ? 'UPDATE "pc_comments"' : "DELETE FROM";
        expect(writes.indexOf('UPDATE "pc_posts"')).toBeLessThan(writes.indexOf(own));
        expect(writes.indexOf(own)).toBeLessThan(writes.indexOf("INSERT INTO"));
      });
      expect(await stored()).toEqual({ post: 1, photo: 0, other: 0 });
    });
  }

  /** The taggings counters of posts, photos and tags, by title, caption or name. */
  async function taggingCounts(): Promise<Record<string, number>> {
    const { results } = await env.DB.prepare("SELECT name AS label, pc_taggings_count AS n FROM pc_tags").all<{ label: string; n: number }>();
    return { ...(await stored("pc_taggings_count")), ...Object.fromEntries(results.map((row) => [row.label, row.n])) };
  }

  it("join rows written through a hasMany through keep the taggable's counter and the tag's: add, remove's one DELETE, set, setIds, dependent", async () => {
    for (const dependent of ["deleteAll", "destroy"] as const) {
      await env.DB.batch(COUNTED_POLYMORPHIC_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const { Post, Photo, Tag } = countedPolymorphicTaggings({ dependent });
      const post = await Post.createOrThrow({ id: "1", title: "post" });
      const photo = await Photo.createOrThrow({ id: 1, caption: "photo" });
      const [red, blue] = [await Tag.createOrThrow({ name: "red" }), await Tag.createOrThrow({ name: "blue" })];
      await post.tags().add(red, blue);
      await photo.tags().add(red);
      expect(await taggingCounts()).toEqual({ post: 2, photo: 1, red: 2, blue: 1 });
      await withRecordedRoundTrips(async (roundTrips) => {
        const loaded = await Post.find(post.id);
        roundTrips.length = 0;
        await loaded.tags().remove(red);
        expect(roundTrips.map(statementHeads)).toEqual([['UPDATE "pc_tags"', 'UPDATE "pc_posts"', 'UPDATE "pc_photos"', "DELETE FROM"]]);
      });
      expect(await taggingCounts()).toEqual({ post: 1, photo: 1, red: 1, blue: 1 });
      await post.tags().set([red]);
      expect(await taggingCounts()).toEqual({ post: 1, photo: 1, red: 2, blue: 0 });
      await post.tags().setIds([red.id!, blue.id!]);
      expect(await taggingCounts()).toEqual({ post: 2, photo: 1, red: 2, blue: 1 });
      await (await Post.find(post.id)).destroyOrThrow();
      expect(await taggingCounts()).toEqual({ photo: 1, red: 1, blue: 0 });
    }
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: what it counts", () => {
  it("within the child's default scope: hiding and showing a comment moves its parent's counter, as a move of type does", async () => {
    const models = countedPolymorphicComments({ hidden: true });
    const { post, photo } = await seed(models);
    const comment = await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "shown" });
    await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "hidden", hidden: true });
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
    const { db, events } = listen();
    await withDatabase(db, () => models.Comment.unscoped().where({ id: comment.id }).first()).then((loaded) => withDatabase(db, () => loaded!.updateOrThrow({ hidden: true })));
    expect(events.at(-3)!.sql).toMatch(/"commentable_type" = \?\d AND "hidden" = \?\d/);
    expect(await stored()).toEqual({ post: 0, photo: 0, other: 0 });
    const hidden = (await models.Comment.unscoped().where({ id: comment.id }).first())!;
    // Shown again on the post: the post counts it, the photo it was hidden from takes nothing.
    await hidden.updateOrThrow({ hidden: false, commentableType: "Post", commentableId: post.id });
    expect(await stored()).toEqual({ post: 1, photo: 0, other: 0 });
    for (const parent of [await models.Post.find(post.id), await models.Photo.find(photo.id)]) {
      expect(await parent.comments().size()).toBe(await parent.comments().count());
    }
  });

  it("soft delete: a soft-deleted comment is taken off its parent, a restored one added back; resetCounters counts the rows the association reads", async () => {
    const models = countedPolymorphicComments({ softDelete: true });
    const { post, photo } = await seed(models);
    const comment = await models.Comment.createOrThrow({ commentableType: "Post", commentableId: post.id, body: "kept" });
    await models.Comment.createOrThrow({ commentableType: "Photo", commentableId: String(photo.id), body: "on the photo" });
    await comment.destroyOrThrow();
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
    // softDelete's methods exist at run time but are not in the Models' types (see the guide).
    type Restorable = { restore(): Promise<boolean>; destroyOrThrow(): Promise<unknown> };
    const deleted = (await models.Comment.unscoped().where({ id: comment.id }).first()) as unknown as Restorable;
    await deleted.restore();
    expect(await stored()).toEqual({ post: 1, photo: 1, other: 0 });
    await deleted.destroyOrThrow();
    await env.DB.prepare("UPDATE pc_posts SET pc_comments_count = 9").run();
    expect(await models.Post.resetCounters(post.id, "comments")).toBe(1);
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 0 });
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: resetCounters and bulk writes", () => {
  it("bulk writes skip counters; resetCounters recounts the rows of the Model's type alone, in one statement", async () => {
    const models = countedPolymorphicComments();
    const { post, photo, other } = await seed(models);
    await models.Comment.insertAll([
      { commentableType: "Post", commentableId: post.id, body: "x" },
      { commentableType: "Photo", commentableId: String(photo.id), body: "y" },
      { commentableType: "Photo", commentableId: String(photo.id), body: "z" },
    ]);
    await models.Comment.where({ body: "z" }).updateAll({ commentableId: String(other.id) });
    await models.Comment.where({ body: "x" }).deleteAll();
    expect(await stored()).toEqual({ post: 0, photo: 0, other: 0 });
    const { db, events } = listen();
    await withDatabase(db, async () => {
      // Post "1" and photo 1 have the same key: the post counts no photo's comment.
      expect(await models.Post.resetCounters([post.id], "comments")).toBe(1);
      expect(await models.Photo.resetCounters([photo.id, other.id], "pcCommentsCount")).toBe(2);
    });
    expect(events).toHaveLength(2);
    expect(events[0]!.sql).toContain(`"commentable_type" = ?`);
    expect(await stored()).toEqual({ post: 0, photo: 1, other: 1 });
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: resetCounters refusals", () => {
  it("an as association whose polymorphic belongsTo keeps no counter, or that has a scope of its own: TypeError saying what to declare", async () => {
    class Post extends Model({ id: { type: "string", null: false }, title: "string", pcCommentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "pc_posts";
      comments = hasMany(Comment, { as: "commentable" });
    }
    class Comment extends Model({ id: { type: "string", null: false }, commentableType: "string", commentableId: "string" }) {
      static override binding = "DB";
      static override tableName = "pc_comments";
      commentable = belongsTo([Post], { polymorphic: true });
    }
    await expect(Post.resetCounters("1", "comments")).rejects.toThrow(
      new TypeError("Post.resetCounters: comments keeps no counter cache (declare counterCache: true on Comment.commentable, and no scope on comments)"),
    );
    const { Post: CountedPost } = countedPolymorphicComments();
    await expect(CountedPost.resetCounters("1", "shownComments")).rejects.toThrow(/^Post\.resetCounters: shownComments keeps no counter cache \(declare counterCache: true on Comment\.commentable, and no scope on shownComments\)$/);
  });
});

describe("guide: Counter caches, a polymorphic belongsTo: the column", () => {
  const firstUse = (model: { all(): { toSql(): unknown } }) => {
    try {
      model.all().toSql();
      return "used";
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };

  it("a counter a listed Model lacks, or that is no number: InvalidModel naming the Model and column; a name given is kept on every listed Model", async () => {
    class Post extends Model({ id: { type: "string", null: false }, title: "string", pcCommentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "pc_posts";
      comments = hasMany(Comment, { as: "commentable" });
    }
    class Photo extends Model({ id: "integer", caption: "string" }) {
      static override binding = "DB";
      static override tableName = "pc_photos";
    }
    class Comment extends Model({ id: { type: "string", null: false }, commentableType: "string", commentableId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "pc_comments";
      commentable = belongsTo([Post, Photo], { polymorphic: true, counterCache: true });
    }
    class Bare extends Model({ id: { type: "string", null: false }, title: "string", pcCommentsCount: "integer" }) {
      static override binding = "DB";
      static override tableName = "pc_posts";
    }
    class Texted extends Model({ id: { type: "string", null: false }, commentableType: "string", commentableId: "string" }) {
      static override binding = "DB";
      static override tableName = "pc_comments";
      // @ts-expect-error the counter must be a number attribute of every listed Model
      commentable = belongsTo([Bare], { polymorphic: true, counterCache: "title" });
    }
    class Named extends Model({ id: { type: "string", null: false }, commentableType: "string", commentableId: "string", body: "string" }) {
      static override binding = "DB";
      static override tableName = "pc_comments";
      commentable = belongsTo([Bare], { polymorphic: true, counterCache: "pcCommentsCount", optional: true });
    }
    expect(firstUse(Comment)).toMatch(/^InvalidModel: Comment\.commentable \(belongsTo\): counterCache needs Photo\.pcCommentsCount \(column pc_comments_count\), which Photo does not have/);
    expect(() => Comment.all().toSql()).toThrow(InvalidModel);
    expect(firstUse(Texted)).toMatch(/^InvalidModel: Texted\.commentable \(belongsTo\): counterCache Bare\.title \(column title\) must be an integer attribute, not string/);
    const post = await Bare.createOrThrow({ title: "p" });
    await Named.createOrThrow({ commentableType: "Bare", commentableId: post.id, body: "hi" });
    expect((await Bare.find(post.id)).pcCommentsCount).toBe(1);
  });
});
