import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { AssociationNotLoaded, belongsTo, connect, hasMany, InvalidModel, Model, sql, UnknownPolymorphicType, withDatabase } from "../../src/index.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import { commentsOnPostsAndPhotos, type CommentsOnPostsAndPhotos, POLYMORPHIC_TABLES } from "../models/comments-on-posts-and-photos.js";

beforeEach(async () => {
  await env.DB.batch(POLYMORPHIC_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** Runs `work` on a database whose round trips are recorded. */
async function counting(work: () => Promise<void>): Promise<string[][]> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), work);
  return roundTrips;
}

/** Rows as stored, read straight from D1. */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare(sql).all()).results;
}

/**
 * A post and a photo whose keys are the same as stored ("1"), each with comments, and a comment of neither: a
 * condition on the key alone would mix them up.
 */
async function seed({ Post, Photo, Comment }: CommentsOnPostsAndPhotos) {
  const post = await Post.createOrThrow({ id: "1", title: "A post" });
  const photo = await Photo.createOrThrow({ id: 1, caption: "A photo" });
  const other = await Photo.createOrThrow({ id: 2, caption: "Another photo" });
  await Comment.insertAll([
    { id: "c1", commentableType: "Post", commentableId: "1", body: "on the post" },
    { id: "c2", commentableType: "Photo", commentableId: "1", body: "on the photo" },
    { id: "c3", commentableType: "Photo", commentableId: "2", body: "on another photo" },
    { id: "c4", commentableType: "Post", commentableId: "1", body: "on the post again" },
  ]);
  return { post, photo, other };
}

describe("guide: Polymorphic associations, reading and assigning", () => {
  it("set writes the key and the Model's name; load reads the record of the Model the type names", async () => {
    const models = commentsOnPostsAndPhotos();
    const { Post, Photo, Comment } = models;
    const post = await Post.createOrThrow({ title: "Hello" });
    const photo = await Photo.createOrThrow({ caption: "Sunset" });
    const onPost = Comment.build({ body: "nice post" });
    onPost.commentable.set(post);
    const onPhoto = Comment.build({ body: "nice photo" });
    onPhoto.commentable.set(photo);
    expect([onPost.commentableType, onPost.commentableId]).toEqual(["Post", post.id]);
    expect([onPhoto.commentableType, onPhoto.commentableId]).toEqual(["Photo", String(photo.id)]);
    await onPost.saveOrThrow();
    await onPhoto.saveOrThrow();
    expect(await rows(`SELECT commentable_type, commentable_id FROM pm_comments ORDER BY body`)).toEqual([
      { commentable_type: "Photo", commentable_id: String(photo.id) },
      { commentable_type: "Post", commentable_id: post.id },
    ]);

    const [first, second] = await Comment.order({ body: "asc" }).toArray();
    const parentOfPhotoComment = await first!.commentable.load();
    const parentOfPostComment = await second!.commentable.load();
    expect(parentOfPhotoComment).toBeInstanceOf(Photo);
    expect((parentOfPhotoComment as InstanceType<typeof Photo>).caption).toBe("Sunset");
    expect(parentOfPostComment).toBeInstanceOf(Post);
    expect(parentOfPostComment!.id).toBe(post.id);
  });

  it("reads the row of the named Model when a post and a photo have the same key as stored", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const onPhoto = await models.Comment.find("c2");
    const parent = await onPhoto.commentable.load();
    expect(parent).toBeInstanceOf(models.Photo);
    expect(parent!.id).toBe(1);
  });

  it("set(null) clears the key and the type; a null type or key loads null without a query", async () => {
    const { Post, Comment } = commentsOnPostsAndPhotos({ optional: true });
    const post = await Post.createOrThrow({ title: "Hello" });
    const comment = Comment.build({ body: "x" });
    comment.commentable.set(post);
    comment.commentable.set(null);
    expect([comment.commentableType, comment.commentableId]).toEqual([null, null]);
    await comment.saveOrThrow();
    const { db, events, Comment: Bound } = listen({ models: { Comment } });
    void db;
    const loaded = await Bound.find(comment.id);
    events.length = 0;
    expect(await loaded.commentable.load()).toBeNull();
    const typeOnly = Bound.build({ body: "y", commentableType: "Post" });
    expect(await typeOnly.commentable.load()).toBeNull();
    expect(events).toHaveLength(0);
  });

  it("set with a record of a Model that is not listed is a TypeError naming the Model and association", async () => {
    const { Comment, Like } = commentsOnPostsAndPhotos();
    const comment = Comment.build({ body: "x" });
    expect(() => comment.commentable.set(Like.build({}) as never)).toThrow(new TypeError("Comment.commentable.set takes a record of Post, Photo or null, not a Like"));
    expect(() => comment.commentable.set("Post" as never)).toThrow(/Comment\.commentable\.set takes a record of Post, Photo or null, not "Post"/);
    expect(() => comment.commentable.set({ id: 1 } as never)).toThrow(new TypeError("Comment.commentable.set takes a record of Post, Photo or null, not { id: 1 }"));
    expect(() => comment.commentable.set(Object.create(null) as never)).toThrow(new TypeError("Comment.commentable.set takes a record of Post, Photo or null, not {}"));
    expect([comment.commentableType, comment.commentableId]).toEqual([null, null]);
  });

  it("used on a record made with new: AssociationNotLoaded naming the listed Models", async () => {
    const { Comment } = commentsOnPostsAndPhotos();
    expect(() => new Comment().commentable.get()).toThrow(new AssociationNotLoaded("Post or Photo association used on a record made with new; make records with Model.build()"));
  });

  it("a record of a subclass of a listed Model stores the listed Model's name (Rails stores the base class)", async () => {
    const { Post, Comment } = commentsOnPostsAndPhotos();
    class Announcement extends Post {}
    const announcement = await Announcement.createOrThrow({ title: "News" });
    const comment = Comment.build({ body: "x" });
    comment.commentable.set(announcement);
    expect(comment.commentableType).toBe("Post");
  });

  it("a new parent assigned with set is saved with the record, before it, in the same batch", async () => {
    const { Photo, Comment } = commentsOnPostsAndPhotos();
    const comment = Comment.build({ body: "x" });
    comment.commentable.set(Photo.build({ caption: "new" }));
    await comment.saveOrThrow();
    const [stored] = await rows(`SELECT commentable_type, commentable_id FROM pm_comments`);
    const [photo] = await rows(`SELECT id FROM pm_photos`);
    expect(stored).toEqual({ commentable_type: "Photo", commentable_id: String(photo!["id"]) });
  });

  it("a type that names none of the listed Models reads as UnknownPolymorphicType naming the Model, attribute and value", async () => {
    const { Comment } = commentsOnPostsAndPhotos();
    await Comment.insertAll([{ id: "v", commentableType: "Video", commentableId: "1", body: "?" }]);
    const comment = await Comment.find("v");
    const error = await comment.commentable.load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownPolymorphicType);
    expect((error as Error).message).toBe(`Comment.commentableType: "Video" names none of commentable's Models (Post, Photo)`);
  });
});

describe("guide: Polymorphic associations, validation", () => {
  it("a required one fails with must exist when the key or the type is null", async () => {
    const { Comment } = commentsOnPostsAndPhotos();
    const noType = Comment.build({ body: "x", commentableId: "1" });
    expect(await noType.save()).toBe(false);
    expect(noType.errors.fullMessages()).toEqual(["Commentable must exist"]);
    const noKey = Comment.build({ body: "x", commentableType: "Post" });
    expect(await noKey.save()).toBe(false);
    expect(noKey.errors.fullMessages()).toEqual(["Commentable must exist"]);
    expect(await countRows("pm_comments")).toBe(0);
  });

  it("a type that names none of the listed Models fails validation, so such a row is never written", async () => {
    const { Comment } = commentsOnPostsAndPhotos();
    const comment = Comment.build({ body: "x", commentableType: "Video", commentableId: "1" });
    expect(await comment.save()).toBe(false);
    expect(comment.errors.fullMessages()).toEqual(["Commentable type is not one of Post, Photo"]);
    expect(await countRows("pm_comments")).toBe(0);
  });

  it("blank type and key from a form read as null", async () => {
    const { Comment } = commentsOnPostsAndPhotos({ optional: true });
    const comment = Comment.build({ body: "x", commentableType: " ", commentableId: "" });
    expect([comment.commentableType, comment.commentableId]).toEqual([null, null]);
    expect(await comment.save()).toBe(true);
  });
});

describe("guide: Polymorphic associations, includes in one round trip", () => {
  it("includes(commentable) reads each listed Model's rows in the main query's batch, the type bound", async () => {
    const models = commentsOnPostsAndPhotos({ optional: true });
    await seed(models);
    await models.Comment.insertAll([{ id: "c5", commentableType: null, commentableId: null, body: "on nothing" }]);
    let comments: Array<InstanceType<typeof models.Comment>> = [];
    const { binding, roundTrips } = recordingRoundTrips();
    const { db, events } = listen({ binding });
    await withDatabase(db, async () => {
      comments = await models.Comment.includes("commentable").order({ id: "asc" }).toArray();
    });
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(3);
    const parents = comments.map((comment) => comment.commentable.get());
    expect(parents.map((parent) => parent?.constructor)).toEqual([models.Post, models.Photo, models.Photo, models.Post, undefined]);
    expect(parents.map((parent) => parent?.id ?? null)).toEqual(["1", 1, 2, "1", null]);
    expect(parents[0]).toBe(parents[3]);
    // The type is a bound value, never SQL text.
    const preloads = events.slice(1);
    expect(preloads.map((event) => event.params)).toEqual([expect.arrayContaining(["Post"]), expect.arrayContaining(["Photo"])]);
    for (const event of preloads) expect(event.sql).not.toMatch(/'Post'|'Photo'/);
  });

  it("with paginate: the count, the page and a read per listed Model in one round trip", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const trips = await counting(async () => {
      const page = await models.Comment.includes("commentable").order({ id: "asc" }).paginate({ page: 1, perPage: 3 });
      expect(page.records.map((comment) => comment.commentable.get()?.constructor)).toEqual([models.Post, models.Photo, models.Photo]);
    });
    expect(trips).toHaveLength(1);
  });

  it("the parents are those of the rows returned, whichever rows SQLite's second run of a random order chose", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const expected = { c1: "1", c2: 1, c3: 2, c4: "1" } as Record<string, unknown>;
    for (let run = 0; run < 5; run += 1) {
      const trips = await counting(async () => {
        const comments = await models.Comment.includes("commentable").order(sql`random()`).limit(2).toArray();
        for (const comment of comments) expect(comment.commentable.get()?.id).toBe(expected[comment.id]);
      });
      expect(trips.length).toBeLessThanOrEqual(2);
    }
  });

  it("a row whose type names no listed Model makes the load throw UnknownPolymorphicType", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    await models.Comment.insertAll([{ id: "c9", commentableType: "Video", commentableId: "1", body: "?" }]);
    await expect(models.Comment.includes("commentable").toArray()).rejects.toThrow(
      new UnknownPolymorphicType(`Comment.commentableType: "Video" names none of commentable's Models (Post, Photo)`),
    );
  });

  it("includes(comments) on posts and on photos reads only the comments of the owner's Model", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const trips = await counting(async () => {
      const [post] = await models.Post.includes("comments").toArray();
      expect((await post!.comments().toArray()).map((comment) => comment.id).sort()).toEqual(["c1", "c4"]);
      const photos = await models.Photo.includes("comments").order({ id: "asc" }).toArray();
      expect(await Promise.all(photos.map(async (photo) => (await photo.comments().toArray()).map((comment) => comment.id)))).toEqual([["c2"], ["c3"]]);
    });
    expect(trips).toHaveLength(2);
  });

  it("nested through the polymorphic association and below it, still one round trip", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const trips = await counting(async () => {
      const [post] = await models.Post.includes({ comments: { commentable: "comments" } }).toArray();
      const [comment] = await post!.comments().toArray();
      const parent = comment!.commentable.get() as InstanceType<typeof models.Post>;
      expect(parent.id).toBe("1");
      expect((await parent.comments().toArray()).map((each) => each.id).sort()).toEqual(["c1", "c4"]);
    });
    expect(trips).toHaveLength(1);
  });
});

describe("guide: Polymorphic associations, hasMany and hasOne with as", () => {
  it("post.comments() is the rows of the post's type and key", async () => {
    const models = commentsOnPostsAndPhotos();
    const { post, photo } = await seed(models);
    expect((await post.comments().order({ id: "asc" }).pluck("id"))).toEqual(["c1", "c4"]);
    expect(await photo.comments().pluck("id")).toEqual(["c2"]);
    expect(await post.comments().count()).toBe(2);
  });

  it("build sets the owner's type and key; the owner's save writes it in its batch", async () => {
    const { Post, Comment } = commentsOnPostsAndPhotos();
    const post = Post.build({ title: "new" });
    const comment = post.comments().build({ body: "first" });
    expect(comment.commentableType).toBe("Post");
    const trips = await counting(async () => void (await post.saveOrThrow()));
    expect(trips).toHaveLength(1);
    const stored = await Comment.find(comment.id);
    expect([stored.commentableType, stored.commentableId]).toEqual(["Post", post.id]);
  });

  it("narrowed (or, whereNot), build and create set the owner's type and key as the un-narrowed forms do", async () => {
    const { Post, Photo, Comment } = commentsOnPostsAndPhotos();
    const photo = Photo.build({ caption: "new" });
    const built = photo.comments().where({ body: "a" }).or(Comment.where({ body: "b" })).build({ body: "built" });
    await expect(photo.comments().whereNot({ body: "x" }).create({ body: "early" })).rejects.toThrow(/^Photo\.comments\.create: the Photo is not saved yet/);
    await photo.saveOrThrow();
    const stored = await Comment.find(built.id);
    expect([stored.commentableType, stored.commentableId]).toEqual(["Photo", String(photo.id)]);
    const { binding, roundTrips } = recordingRoundTrips();
    const post = await connect(binding).model(Post).createOrThrow({ title: "saved" });
    await post.comments().toArray();
    roundTrips.length = 0;
    await post.comments().whereNot({ body: "x" }).order({ id: "asc" }).createOrThrow({ body: "created" });
    expect(roundTrips).toHaveLength(1);
    const [created] = await post.comments().toArray();
    expect([created!.body, created!.commentableType, created!.commentableId]).toEqual(["created", "Post", post.id]);
  });

  it("a child of an owner whose key the database assigns takes it after the owner's insert, with the owner's type", async () => {
    const { Photo, Comment } = commentsOnPostsAndPhotos();
    const photo = Photo.build({ caption: "new" });
    const comment = photo.comments().build({ body: "first" });
    await photo.saveOrThrow();
    const stored = await Comment.find(comment.id);
    expect([stored.commentableType, stored.commentableId]).toEqual(["Photo", String(photo.id)]);
  });

  it("a new image built for a saved post replaces the old one by clearing its key and type (no dependent)", async () => {
    const models = commentsOnPostsAndPhotos();
    const { post } = await seed(models);
    await models.Image.insertAll([{ imageableType: "Post", imageableId: "1", url: "old.png" }, { imageableType: "Photo", imageableId: "1", url: "photo.png" }]);
    post.image.build({ url: "new.png" });
    await post.saveOrThrow();
    expect(await rows(`SELECT url, imageable_type, imageable_id FROM pm_images ORDER BY url`)).toEqual([
      { url: "new.png", imageable_type: "Post", imageable_id: "1" },
      { url: "old.png", imageable_type: null, imageable_id: null },
      { url: "photo.png", imageable_type: "Photo", imageable_id: "1" },
    ]);
  });

  it("hasOne as: build with the owner's type, load by type and key", async () => {
    const models = commentsOnPostsAndPhotos();
    const { post, photo } = await seed(models);
    post.image.build({ url: "post.png" });
    await post.saveOrThrow();
    await models.Image.insertAll([{ imageableType: "Photo", imageableId: "1", url: "photo.png" }]);
    const reloadedPost = await models.Post.find(post.id);
    const reloadedPhoto = await models.Photo.find(photo.id);
    expect((await reloadedPost.image.load())?.url).toBe("post.png");
    expect((await reloadedPhoto.image.load())?.url).toBe("photo.png");
    const images = await models.Image.includes("imageable").order({ url: "asc" }).toArray();
    expect(images.map((image) => image.imageable.get()?.constructor)).toEqual([models.Photo, models.Post]);
  });
});

describe("guide: Polymorphic associations, dependent through as", () => {
  it("destroy without callbacks: one round trip, set-based, narrowed by the type at every level", async () => {
    const models = commentsOnPostsAndPhotos({ comments: "destroy" });
    const { post } = await seed(models);
    await models.Like.insertAll([{ commentId: "c1" }, { commentId: "c2" }, { commentId: "c4" }]);
    const trips = await counting(async () => {
      const loaded = await models.Post.find(post.id);
      await loaded.destroy();
    });
    expect(trips.slice(1)).toHaveLength(1);
    expect(trips[1]![0]).toBe(
      `DELETE FROM "pm_likes" WHERE "comment_id" IN (SELECT "id" FROM "pm_comments" WHERE "commentable_type" = ?1 AND "commentable_id" = ?2)`,
    );
    expect(await rows(`SELECT id FROM pm_comments ORDER BY id`)).toEqual([{ id: "c2" }, { id: "c3" }]);
    expect(await rows(`SELECT comment_id FROM pm_likes`)).toEqual([{ comment_id: "c2" }]);
  });

  it("destroy with callbacks: the post's comments only are destroyed one by one, in two round trips", async () => {
    const models = commentsOnPostsAndPhotos({ comments: "destroy", callbacks: true });
    const { post } = await seed(models);
    const trips = await counting(async () => {
      const loaded = await models.Post.find(post.id);
      await loaded.destroy();
    });
    expect(trips.slice(1)).toHaveLength(2);
    expect(models.log.sort()).toEqual(["destroy on the post", "destroy on the post again"]);
    expect(await rows(`SELECT id FROM pm_comments ORDER BY id`)).toEqual([{ id: "c2" }, { id: "c3" }]);
  });

  it("deleteAll deletes the owner's rows of its type with one DELETE", async () => {
    const models = commentsOnPostsAndPhotos({ comments: "deleteAll" });
    const { photo } = await seed(models);
    await photo.destroy();
    expect(await rows(`SELECT id FROM pm_comments ORDER BY id`)).toEqual([{ id: "c1" }, { id: "c3" }, { id: "c4" }]);
  });

  it("nullify clears the key and the type, as Rails does", async () => {
    const models = commentsOnPostsAndPhotos({ comments: "nullify", optional: true });
    const { post } = await seed(models);
    const { db, events, Post } = listen({ models: { Post: models.Post } });
    void db;
    await (await Post.find(post.id)).destroy();
    expect(events.map((event) => event.sql).slice(1)).toEqual([
      `UPDATE "pm_comments" SET "commentable_id" = ?1, "commentable_type" = ?2 WHERE "commentable_type" = ?3 AND "commentable_id" = ?4`,
      `DELETE FROM "pm_posts" WHERE "id" = ?1`,
    ]);
    expect(await rows(`SELECT id, commentable_type, commentable_id FROM pm_comments ORDER BY id`)).toEqual([
      { id: "c1", commentable_type: null, commentable_id: null },
      { id: "c2", commentable_type: "Photo", commentable_id: "1" },
      { id: "c3", commentable_type: "Photo", commentable_id: "2" },
      { id: "c4", commentable_type: null, commentable_id: null },
    ]);
  });

  it("restrictWithError counts only the owner's rows of its type", async () => {
    const models = commentsOnPostsAndPhotos({ comments: "restrictWithError" });
    const { photo, other } = await seed(models);
    await models.Comment.where({ id: "c3" }).deleteAll();
    expect(await photo.destroy()).toBe(false);
    expect(photo.errors.fullMessages()).toEqual(["Cannot delete record because dependent comments exist"]);
    expect(await other.destroy()).toBe(other);
  });

  it("hasOne as with dependent destroy removes the owner's image only", async () => {
    const models = commentsOnPostsAndPhotos({ image: "destroy" });
    const { post } = await seed(models);
    await models.Image.insertAll([{ imageableType: "Post", imageableId: "1", url: "post.png" }, { imageableType: "Photo", imageableId: "1", url: "photo.png" }]);
    await post.destroy();
    expect(await rows(`SELECT url FROM pm_images`)).toEqual([{ url: "photo.png" }]);
  });
});

describe("guide: Polymorphic associations, declarations checked at first use", () => {
  const base = { id: { type: "string", null: false }, commentableType: "string", commentableId: "string" } as const;

  it("as naming no polymorphic belongsTo of the target", async () => {
    class Note extends Model(base) {
      static override binding = "DB";
      static override tableName = "pm_comments";
    }
    class Page extends Model({ id: "string" }) {
      static override binding = "DB";
      static override tableName = "pm_posts";
      notes = hasMany(Note, { as: "commentable" as never });
    }
    expect(() => Page.all()).toThrow(new InvalidModel("Page.notes: Note has no polymorphic belongsTo named commentable (as)"));
  });

  it("as on an owner the polymorphic belongsTo does not list", async () => {
    const { Comment } = commentsOnPostsAndPhotos();
    class Video extends Model({ id: "string" }) {
      static override binding = "DB";
      static override tableName = "pm_posts";
      comments = hasMany(Comment, { as: "commentable" });
    }
    expect(() => Video.all()).toThrow(new InvalidModel("Video.comments: Comment.commentable does not list Video among its Models (Post, Photo)"));
  });

  it("a list without polymorphic, a single Model, an unknown option, a type attribute that is missing or not a string", async () => {
    const { Post, Photo } = commentsOnPostsAndPhotos();
    const declare = (field: () => unknown, attributes: object = base) => {
      class Remark extends Model(attributes as typeof base) {
        static override binding = "DB";
        static override tableName = "pm_comments";
        commentable = field();
      }
      return () => Remark.all();
    };
    expect(declare(() => belongsTo([Post, Photo] as never))).toThrow(new InvalidModel("Remark.commentable (polymorphic belongsTo): a list of Models needs { polymorphic: true }"));
    expect(declare(() => belongsTo(Post, { polymorphic: true } as never))).toThrow(
      new InvalidModel("Remark.commentable (polymorphic belongsTo): polymorphic takes a list of Model classes, as belongsTo([Post, Photo], { polymorphic: true }), not Post alone"),
    );
    expect(declare(() => belongsTo([Post, Photo], { polymorphic: true, dependent: "destroy" } as never))).toThrow(
      new InvalidModel("Remark.commentable (polymorphic belongsTo): dependent is an unknown option (options: polymorphic, foreignKey, foreignType, optional, counterCache)"),
    );
    expect(declare(() => belongsTo([Post, Photo], { polymorphic: true, foreignType: "kind" }))).toThrow(
      new InvalidModel("Remark.commentable (polymorphic belongsTo): Remark has no attribute kind (foreignType); pass { foreignType }"),
    );
    expect(declare(() => belongsTo([Post, Photo], { polymorphic: true }), { ...base, commentableType: "integer" })).toThrow(
      new InvalidModel("Remark.commentable (polymorphic belongsTo): Remark.commentableType (foreignType) is integer, not string: it stores a Model's name"),
    );
  });
});

describe("guide: Polymorphic associations, as JSON", () => {
  it("asJson nests the loaded parent of each comment, whatever its Model", async () => {
    const models = commentsOnPostsAndPhotos();
    await seed(models);
    const comments = await models.Comment.includes("commentable").where({ id: ["c1", "c2"] }).order({ id: "asc" }).toArray();
    expect(comments.map((comment) => comment.asJson({ include: "commentable" })["commentable"])).toEqual([
      { id: "1", title: "A post" },
      { id: 1, caption: "A photo" },
    ]);
    // Below the polymorphic association: what every listed Model has.
    const [first] = await models.Comment.includes({ commentable: "comments" }).where({ id: "c2" }).toArray();
    expect(first!.asJson({ include: { commentable: "comments" } })["commentable"]).toEqual({
      id: 1,
      caption: "A photo",
      comments: [{ id: "c2", commentableType: "Photo", commentableId: "1", body: "on the photo" }],
    });
  });
});
