/**
 * A belongsTo assigned by its name (Rails' `Comment.create(post: post)`): every method that assigns an object of
 * attributes to a record takes it, as `record.<name>.set(value)` assigns it, once the attributes are set; anything
 * else under an association's name is refused before anything is assigned.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { MissingAttribute, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown, typeError } from "../helpers/errors.js";
import { statementHeads, withRecordedRoundTrips } from "../helpers/queries.js";
import { Review, Reviewer } from "../models/reviewers-and-reviews.js";
import { commentsOnPostsAndPhotos } from "../models/comments-on-posts-and-photos.js";

beforeEach(resetDatabase);

async function seed() {
  const ada = await Reviewer.createOrThrow({ id: "u1", name: "Ada" });
  const bob = await Reviewer.createOrThrow({ id: "u2", name: "Bob" });
  const review = await Review.createOrThrow({ id: "r1", userId: "u1", body: "first" });
  return { ada, bob, review };
}

describe("a belongsTo given by name to build, create and createOrThrow", () => {
  it("sets the foreign key to the record's key, and the association holds the record (no query to read it)", async () => {
    const { ada, bob } = await seed();
    const built = Review.build({ id: "r2", body: "built", reviewer: ada });
    expect(built.userId).toBe("u1");
    expect(built.reviewer.get()).toBe(ada);
    const created = await Review.create({ id: "r3", body: "created", reviewer: bob });
    expect(created.isPersisted()).toBe(true);
    expect((await Review.find("r3")).userId).toBe("u2");
    const thrownOrNot = await Review.createOrThrow({ reviewer: null, id: "r4", body: "nobody's" });
    expect(thrownOrNot.reviewer.get()).toBeNull();
    expect((await Review.find("r4")).userId).toBeNull();
  });

  it("is set after the attributes, as set() after them would", async () => {
    const { ada } = await seed();
    const built = Review.build({ reviewer: ada, id: "r2", body: "x" });
    expect(built.attributes()).toEqual({ id: "r2", userId: "u1", body: "x" });
  });

  it("saves a new parent before the record, in the one batch of the record's save", async () => {
    await withRecordedRoundTrips(async (roundTrips) => {
      const parent = Reviewer.build({ id: "u9", name: "New" });
      const review = await Review.createOrThrow({ id: "r9", body: "with a new reviewer", reviewer: parent });
      expect(roundTrips).toHaveLength(1);
      expect(statementHeads(roundTrips[0]!)).toEqual(["INSERT INTO", "INSERT INTO"]);
      expect(roundTrips[0]![0]).toContain(`"users"`);
      expect(roundTrips[0]![1]).toContain(`"reviews"`);
      expect(parent.isPersisted()).toBe(true);
      expect(review.userId).toBe("u9");
    });
    expect((await Review.find("r9")).userId).toBe("u9");
  });
});

describe("a belongsTo given by name to assign, update and updateOrThrow", () => {
  it("assign sets it without saving; update and updateOrThrow save it", async () => {
    const { bob, review } = await seed();
    review.assign({ reviewer: bob });
    expect(review.userId).toBe("u2");
    expect(review.changes()).toEqual({ userId: ["u1", "u2"] });
    expect((await Review.find("r1")).userId).toBe("u1");
    expect(await review.update({ body: "moved", reviewer: null })).toBe(true);
    expect((await Review.find("r1")).attributes()).toEqual({ id: "r1", userId: null, body: "moved" });
    await review.updateOrThrow({ reviewer: bob });
    expect((await Review.find("r1")).userId).toBe("u2");
    expect(review.reviewer.get()).toBe(bob);
  });

  it("update saves a new parent first, in the update's batch", async () => {
    await seed();
    await withRecordedRoundTrips(async (roundTrips) => {
      const review = await Review.find("r1");
      roundTrips.length = 0;
      await review.updateOrThrow({ reviewer: Reviewer.build({ id: "u9", name: "New" }) });
      expect(roundTrips).toHaveLength(1);
      expect(statementHeads(roundTrips[0]!)).toEqual(["INSERT INTO", "UPDATE \"reviews\""]);
    });
    expect((await Review.find("r1")).userId).toBe("u9");
  });
});

describe("a belongsTo given by name to a Relation's and an association's build and create", () => {
  it("replaces the foreign key a Relation's condition starts the record with", async () => {
    const { ada, bob } = await seed();
    const built = Review.where({ userId: "u1", body: "scoped" }).build({ id: "r2", reviewer: bob });
    expect(built.attributes()).toEqual({ id: "r2", userId: "u2", body: "scoped" });
    const created = await Review.where({ body: "scoped" }).create({ id: "r3", reviewer: ada });
    expect((await Review.find(created.id)).attributes()).toEqual({ id: "r3", userId: "u1", body: "scoped" });
  });

  it("goes with an association's build and create, whose owner's key it gives", async () => {
    const { ada } = await seed();
    const child = ada.reviews().build({ id: "r2", body: "built", reviewer: ada });
    expect(child.userId).toBe("u1");
    await ada.reviews().create({ id: "r3", body: "created", reviewer: ada });
    expect((await Review.find("r3")).userId).toBe("u1");
    expect(ada.latest.build({ id: "r4", body: "latest", reviewer: ada }).userId).toBe("u1");
  });

  it("refuses the child's belongsTo back to the owner given another record, whose key the owner's would replace", async () => {
    const { ada, bob } = await seed();
    expect(typeError(() => ada.reviews().build({ id: "r2", body: "x", reviewer: bob }))).toBe(
      "Reviewer.reviews.build: reviewer is the Reviewer it is built through, not a Reviewer; leave reviewer out",
    );
    expect(await rejectionOf(ada.reviews().create({ id: "r2", body: "x", reviewer: null }))).toEqual(
      new TypeError("Reviewer.reviews.build: reviewer is the Reviewer it is built through, not null; leave reviewer out"),
    );
    expect(typeError(() => ada.latest.build({ id: "r3", body: "x", reviewer: bob }))).toBe(
      "Reviewer.latest.build: reviewer is the Reviewer it is built through, not a Reviewer; leave reviewer out",
    );
    const { Post, Photo } = commentsOnPostsAndPhotos();
    const photo = await Photo.createOrThrow({ caption: "sunset" });
    expect(typeError(() => Post.build({ title: "t" }).comments().build({ body: "x", commentable: photo }))).toBe(
      "Post.comments.build: commentable is the Post it is built through, not a Photo; leave commentable out",
    );
    expect(await Review.count()).toBe(1);
  });
});

describe("a belongsTo given by name to findOrCreateBy and findOrInitializeBy", () => {
  it("goes in the attributes only a new record gets", async () => {
    const { ada, bob } = await seed();
    const created = await Review.findOrCreateBy({ id: "r2", body: "new" }, { reviewer: bob });
    expect((await Review.find(created.id)).userId).toBe("u2");
    const found = await Review.findOrCreateBy({ id: "r1" }, { reviewer: bob });
    expect(found.userId).toBe("u1");
    const initialized = await Review.findOrInitializeBy({ id: "r3" }, { body: "x", reviewer: ada });
    expect(initialized.isNewRecord()).toBe(true);
    expect(initialized.reviewer.get()).toBe(ada);
  });
});

describe("a polymorphic belongsTo given by name", () => {
  it("sets the type and the key, null clears both, a new parent is saved first", async () => {
    const { Post, Photo, Comment } = commentsOnPostsAndPhotos({ optional: true });
    const photo = await Photo.createOrThrow({ caption: "sunset" });
    const created = await Comment.createOrThrow({ body: "nice", commentable: photo });
    expect(created.attributes()).toMatchObject({ commentableType: "Photo", commentableId: String(photo.id) });
    await withRecordedRoundTrips(async (roundTrips) => {
      const comment = await Comment.find(created.id);
      roundTrips.length = 0;
      await comment.updateOrThrow({ commentable: Post.build({ title: "new" }) });
      expect(roundTrips).toHaveLength(1);
      expect(statementHeads(roundTrips[0]!)).toEqual(["INSERT INTO", 'UPDATE "pm_comments"']);
    });
    expect((await Comment.find(created.id)).commentableType).toBe("Post");
    created.assign({ commentable: null });
    expect(created.attributes()).toMatchObject({ commentableType: null, commentableId: null });
  });

  it("refuses a record of a Model it does not list, and its type given too", async () => {
    const { Photo, Comment, Like } = commentsOnPostsAndPhotos();
    const photo = await Photo.createOrThrow({ caption: "sunset" });
    expect(typeError(() => Comment.build({ body: "x", commentable: Like.build() as never }))).toBe(
      "Comment.build: commentable takes a record of Post or Photo or null, not a Like",
    );
    expect(typeError(() => Comment.build({ commentableType: "Photo", commentable: photo }))).toBe(
      "Comment.build: commentable and commentableType both give commentableType; give one of them",
    );
  });
});

describe("what an association's name refuses, before anything is assigned", () => {
  async function refusalOf(record: { assign(attributes: object): unknown; changes(): object }, attributes: object): Promise<string> {
    const message = typeError(() => record.assign(attributes));
    expect(record.changes()).toEqual({});
    return message;
  }

  it("another kind of association", async () => {
    const { ada, review } = await seed();
    expect(await refusalOf(ada, { name: "Changed", reviews: [review] })).toBe(
      "Reviewer.assign: reviews is a hasMany association; only a belongsTo is assigned by its name",
    );
    expect(await refusalOf(ada, { name: "Changed", latest: review })).toBe(
      "Reviewer.assign: latest is a hasOne association; only a belongsTo is assigned by its name",
    );
  });

  it("a list, a record of another Model, and what is no record", async () => {
    const { ada, review } = await seed();
    expect(await refusalOf(review, { body: "changed", reviewer: [ada] })).toBe("Review.assign: reviewer takes a record of Reviewer or null, not a list");
    expect(await refusalOf(review, { body: "changed", reviewer: review })).toBe("Review.assign: reviewer takes a record of Reviewer or null, not a Review");
    expect(await refusalOf(review, { body: "changed", reviewer: "u2" })).toBe(`Review.assign: reviewer takes a record of Reviewer or null, not "u2"`);
    expect(review.reviewer.isLoaded).toBe(false);
  });

  it("the association and its foreign key given together, in either order", async () => {
    const { ada, review } = await seed();
    const message = "Review.assign: reviewer and userId both give userId; give one of them";
    expect(await refusalOf(review, { reviewer: ada, userId: "u2" })).toBe(message);
    expect(await refusalOf(review, { userId: "u2", reviewer: ada })).toBe(message);
  });

  it("names the method: build for create, update's rejection, nothing saved", async () => {
    const { ada, review } = await seed();
    expect(typeError(() => Reviewer.build({ id: "u3", name: "X", reviews: [] } as never))).toBe(
      "Reviewer.build: reviews is a hasMany association; only a belongsTo is assigned by its name",
    );
    const rejected = await rejectionOf(review.update({ body: "changed", reviewer: [ada] as never }));
    expect(rejected).toBeInstanceOf(TypeError);
    expect(rejected.message).toBe("Review.update: reviewer takes a record of Reviewer or null, not a list");
    expect(review.changes()).toEqual({});
    expect((await Review.find("r1")).body).toBe("first");
  });

  it("a foreign key a partial select left out: MissingAttribute, the other attributes unset", async () => {
    const { ada } = await seed();
    const partial = (await Review.select("id", "body").find("r1"))!;
    expect(await thrown(() => partial.assign({ body: "changed", reviewer: ada }))).toBeInstanceOf(MissingAttribute);
    expect(partial.changes()).toEqual({});
  });

  it("a name that is neither attribute nor association stays UnknownAttribute", async () => {
    const { review } = await seed();
    const error = await thrown(() => review.assign({ body: "changed", author: null } as never));
    expect(error).toBeInstanceOf(UnknownAttribute);
    expect((error as Error).message).toBe("Review has no attribute author");
    expect(review.changes()).toEqual({});
  });
});

describe("bulk writes keep refusing an association's name", () => {
  it("insertAll, upsertAll and updateAll name the Model and the name they do not know", async () => {
    const { ada } = await seed();
    const rows = [{ id: "r2", body: "x", reviewer: ada }] as never;
    for (const write of [() => Review.insertAll(rows), () => Review.upsertAll(rows), () => Review.where({ id: "r1" }).updateAll({ reviewer: ada } as never)]) {
      const error = await thrown(write);
      expect(error).toBeInstanceOf(UnknownAttribute);
      expect((error as Error).message).toBe("Review has no attribute reviewer");
    }
    expect(await Review.count()).toBe(1);
  });
});
