/**
 * Conditions by association name (Rails' `Post.where(author: user)`): a `belongsTo` in a `where` object, and in
 * every method that takes one, matches its foreign key (and a polymorphic one's type) in the one statement.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { connect, withDatabase } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { Review, Reviewer } from "../models/reviewers-and-reviews.js";
import { commentsOnPostsAndPhotos, type CommentsOnPostsAndPhotos } from "../models/comments-on-posts-and-photos.js";

beforeEach(resetDatabase);

/** Two reviewers, a review by each, one by the first again, and one by nobody. */
async function seedReviews() {
  const ada = await Reviewer.createOrThrow({ id: "u1", name: "Ada" });
  const bob = await Reviewer.createOrThrow({ id: "u2", name: "Bob" });
  await Reviewer.createOrThrow({ id: "u3", name: "Cy" });
  await Review.insertAll([
    { id: "r1", userId: "u1", body: "by Ada" },
    { id: "r2", userId: "u2", body: "by Bob" },
    { id: "r3", userId: "u1", body: "by Ada again" },
    { id: "r4", userId: null, body: "by nobody" },
  ]);
  return { ada, bob };
}

const ids = (records: readonly { id: unknown }[]) => records.map((record) => record.id).sort();

/** The round trips `work` sends, each as the SQL of its statements. */
async function roundTripsOf(work: () => Promise<unknown>): Promise<string[][]> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), work);
  return roundTrips;
}

describe("a belongsTo in a where object", () => {
  it("takes a record of its target: the foreign key equals its key, in the SQL the attribute gives", async () => {
    const { ada } = await seedReviews();
    expect(Review.where({ reviewer: ada }).toSql()).toEqual(Review.where({ userId: "u1" }).toSql());
    expect(Review.where({ reviewer: ada }).toSql().sql).toContain(`WHERE "user_id" = ?`);
    expect(ids(await Review.where({ reviewer: ada }).toArray())).toEqual(["r1", "r3"]);
  });

  it("takes null (the foreign key IS NULL) and a list of records (one IN, bound as one value; a null in it matches NULL)", async () => {
    const { ada, bob } = await seedReviews();
    expect(ids(await Review.where({ reviewer: null }).toArray())).toEqual(["r4"]);
    expect(Review.where({ reviewer: null }).toSql()).toEqual(Review.where({ userId: null }).toSql());
    const list = Review.where({ reviewer: [ada, bob] });
    expect(list.toSql()).toEqual(Review.where({ userId: ["u1", "u2"] }).toSql());
    expect(list.toSql().params).toEqual(['["u1","u2"]']);
    expect(ids(await list.toArray())).toEqual(["r1", "r2", "r3"]);
    expect(ids(await Review.where({ reviewer: [bob, null] }).toArray())).toEqual(["r2", "r4"]);
    expect(await Review.where({ reviewer: [] }).toArray()).toEqual([]);
  });

  it("goes beside attributes, in the order given, and in the statics and Relations alike", async () => {
    const { ada } = await seedReviews();
    expect(Review.where({ body: "by Ada", reviewer: ada }).toSql()).toEqual(Review.where({ body: "by Ada", userId: "u1" }).toSql());
    expect(ids(await Review.all().where({ reviewer: ada, body: "by Ada again" }).toArray())).toEqual(["r3"]);
    expect(ids(await Review.where({ body: ["by Ada", "by Bob"] }).where({ reviewer: ada }).toArray())).toEqual(["r1"]);
  });

  it("matches the key as the record's row has it, not a change to it not yet saved", async () => {
    const { ada } = await seedReviews();
    ada.id = "u9";
    expect(ids(await Review.where({ reviewer: ada }).toArray())).toEqual(["r1", "r3"]);
  });

  it("serves findBy, findByOrThrow, exists, whereNot and an or of such Relations, each one statement in one round trip", async () => {
    const { ada, bob } = await seedReviews();
    const Bound = listen({ models: { Review } });
    expect((await Bound.Review.findBy({ reviewer: bob }))?.id).toBe("r2");
    expect((await Bound.Review.all().findByOrThrow({ reviewer: bob })).id).toBe("r2");
    expect(await Bound.Review.exists({ reviewer: null })).toBe(true);
    expect(await Bound.Review.all().exists({ reviewer: [] })).toBe(false);
    expect(ids(await Bound.Review.whereNot({ reviewer: ada }).toArray())).toEqual(["r2"]);
    expect(ids(await Bound.Review.where({ reviewer: bob }).or(Bound.Review.where({ reviewer: null })).toArray())).toEqual(["r2", "r4"]);
    expect(Bound.sqls()).toHaveLength(6);
    expect(Review.whereNot({ reviewer: ada }).toSql()).toEqual(Review.whereNot({ userId: "u1" }).toSql());
    const trips = await roundTripsOf(() => Review.findBy({ reviewer: [ada, bob, null] }));
    expect(trips).toEqual([[`SELECT * FROM "reviews" WHERE ("user_id" IN (SELECT value FROM json_each(?1)) OR "user_id" IS NULL) LIMIT 1`]]);
  });

  it("narrows an association's Relation, and a record built from the Relation takes the key", async () => {
    const { ada, bob } = await seedReviews();
    expect(ids(await ada.reviews().where({ reviewer: [ada, bob] }).toArray())).toEqual(["r1", "r3"]);
    expect(await ada.reviews().where({ reviewer: bob }).toArray()).toEqual([]);
    const built = Review.where({ reviewer: bob }).build({ id: "r5", body: "new" });
    expect(built.userId).toBe("u2");
  });
});

describe("what a belongsTo condition refuses, naming the Model, the association and the method, before any query", () => {
  it("refuses a new record, a record of another Model, a key, and anything else", async () => {
    const { ada } = await seedReviews();
    const { db, sqls } = listen();
    const Bound = db.model(Review) as typeof Review;
    const unsaved = Reviewer.build({ name: "New" });
    expect(() => Bound.where({ reviewer: unsaved })).toThrow(new TypeError("Review.where: reviewer is a new Reviewer, whose row has no key yet; save it first"));
    const otherModel = Review.build({ id: "x", body: "x" });
    const takes = "takes a saved record of Reviewer, null or a list of them (a key goes under userId)";
    expect(() => Bound.where({ reviewer: otherModel as never })).toThrow(new TypeError(`Review.where: reviewer ${takes}, not a Review`));
    expect(() => Bound.whereNot({ reviewer: "u1" as never })).toThrow(new TypeError(`Review.whereNot: reviewer ${takes}, not "u1"`));
    expect(() => Bound.all().where({ reviewer: [ada, 1] as never })).toThrow(new TypeError(`Review.where: reviewer ${takes}, not 1`));
    expect(await rejectionOf(Bound.findBy({ reviewer: {} as never }))).toEqual(new TypeError(`Review.findBy: reviewer ${takes}, not {}`));
    expect(await rejectionOf(Bound.findByOrThrow({ reviewer: [unsaved] }))).toEqual(new TypeError("Review.findByOrThrow: reviewer is a new Reviewer, whose row has no key yet; save it first"));
    expect(await rejectionOf(Bound.exists({ reviewer: undefined as never }))).toEqual(new TypeError(`Review.exists: reviewer ${takes}, not undefined`));
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => Bound.where({ reviewer: revoked as never })).toThrow(new TypeError(`Review.where: reviewer ${takes}, not [object]`));
    expect(() => Bound.where({ reviewer: [ada, revoked] as never })).toThrow(new TypeError(`Review.where: reviewer ${takes}, not [object]`));
    expect(sqls()).toEqual([]);
  });

  it("refuses a hasMany or hasOne, and two entries that give the same attribute", () => {
    expect(() => Reviewer.where({ reviews: [] } as never)).toThrow(new TypeError("Reviewer.where: reviews is a hasMany association; conditions take a belongsTo's records"));
    expect(() => Reviewer.whereNot({ latest: null } as never)).toThrow(new TypeError("Reviewer.whereNot: latest is a hasOne association; conditions take a belongsTo's records"));
    expect(() => Review.where({ userId: "u1", reviewer: null })).toThrow(new TypeError("Review.where: userId and reviewer both give userId; give one of them"));
    expect(() => Review.whereNot({ reviewer: null, userId: "u1" })).toThrow(new TypeError("Review.whereNot: reviewer and userId both give userId; give one of them"));
  });
});

describe("a polymorphic belongsTo in a where object", () => {
  /** A post and a photo whose keys are stored alike ("1"), comments on each, and one on nothing. */
  async function seedComments(models: CommentsOnPostsAndPhotos) {
    const { Post, Photo, Comment } = models;
    const post = await Post.createOrThrow({ id: "1", title: "A post" });
    const photo = await Photo.createOrThrow({ id: 1, caption: "A photo" });
    const other = await Photo.createOrThrow({ id: 2, caption: "Another photo" });
    await Comment.insertAll([
      { id: "c1", commentableType: "Post", commentableId: "1", body: "on the post" },
      { id: "c2", commentableType: "Photo", commentableId: "1", body: "on the photo" },
      { id: "c3", commentableType: "Photo", commentableId: "2", body: "on the other photo" },
      { id: "c4", commentableType: null, commentableId: null, body: "on nothing" },
    ]);
    return { post, photo, other };
  }

  it("takes a record of any listed Model and matches both the type and the key", async () => {
    const models = commentsOnPostsAndPhotos({ optional: true });
    const { Comment } = models;
    const { post, photo } = await seedComments(models);
    expect(Comment.where({ commentable: photo }).toSql()).toEqual(Comment.where({ commentableType: "Photo", commentableId: "1" }).toSql());
    expect(ids(await Comment.where({ commentable: post }).toArray())).toEqual(["c1"]);
    expect(ids(await Comment.where({ commentable: photo }).toArray())).toEqual(["c2"]);
    expect(ids(await Comment.where({ commentable: null }).toArray())).toEqual(["c4"]);
    expect(Comment.where({ commentable: null }).toSql()).toEqual(Comment.where({ commentableType: null, commentableId: null }).toSql());
  });

  it("takes a list of several Models: an OR of one condition per Model, each with one JSON list, in one statement", async () => {
    const models = commentsOnPostsAndPhotos({ optional: true });
    const { Comment } = models;
    const { post, photo, other } = await seedComments(models);
    const relation = Comment.where({ body: ["on the post", "on the other photo", "on nothing"], commentable: [post, photo, other, null] });
    const { sql, params } = relation.toSql();
    expect(sql).toBe(
      `SELECT * FROM "pm_comments" ` +
        `WHERE "body" IN (SELECT value FROM json_each(?1)) AND ("commentable_type" = ?2 AND "commentable_id" IN (SELECT value FROM json_each(?3)) OR ` +
        `"commentable_type" = ?4 AND "commentable_id" IN (SELECT value FROM json_each(?5)) OR "commentable_type" IS NULL AND "commentable_id" IS NULL)`,
    );
    expect(params).toEqual(['["on the post","on the other photo","on nothing"]', "Post", '["1"]', "Photo", '["1","2"]']);
    const trips = await roundTripsOf(() => relation.toArray());
    expect(trips).toHaveLength(1);
    expect(trips[0]).toHaveLength(1);
    expect(ids(await relation.toArray())).toEqual(["c1", "c3", "c4"]);
    expect(ids(await Comment.where({ commentable: [photo, other] }).toArray())).toEqual(["c2", "c3"]);
    expect(await Comment.where({ commentable: [] }).toArray()).toEqual([]);
  });

  it("whereNot excludes each: NOT (a OR b) as NOT a AND NOT b, with the kernel's rule for NULL", async () => {
    const models = commentsOnPostsAndPhotos({ optional: true });
    const { Comment } = models;
    const { post, photo, other } = await seedComments(models);
    expect(Comment.whereNot({ commentable: post }).toSql()).toEqual(Comment.whereNot({ commentableType: "Post", commentableId: "1" }).toSql());
    expect(ids(await Comment.whereNot({ commentable: post }).toArray())).toEqual(["c2", "c3"]);
    expect(ids(await Comment.whereNot({ commentable: [post, other] }).toArray())).toEqual(["c2"]);
    expect(ids(await Comment.whereNot({ commentable: null }).toArray())).toEqual(["c1", "c2", "c3"]);
    expect(ids(await Comment.whereNot({ commentable: [photo, null] }).toArray())).toEqual(["c1", "c3"]);
    expect(await Comment.findBy({ commentable: [post, photo], body: "on the photo" })).toMatchObject({ id: "c2" });
  });

  it("refuses a record of a Model it does not list, and a new one, naming the association", async () => {
    const models = commentsOnPostsAndPhotos({ optional: true });
    const { Comment, Like, Post } = models;
    const like = Like.build({ id: 1, commentId: "c1" });
    const takes = "takes a saved record of Post or Photo, null or a list of them (a key goes under commentableId, its Model's name under commentableType)";
    expect(() => Comment.where({ commentable: like as never })).toThrow(new TypeError(`Comment.where: commentable ${takes}, not a Like`));
    expect(() => Comment.where({ commentable: [Post.build({ title: "new" })] })).toThrow(new TypeError("Comment.where: commentable is a new Post, whose row has no key yet; save it first"));
  });
});
