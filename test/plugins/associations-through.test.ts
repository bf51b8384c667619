import { beforeEach, describe, expect, it } from "vitest";
import { connect, hasMany, InvalidModel, Model, RecordInvalid, RecordNotFound, withTenant, multiTenancy, belongsTo } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips, listen } from "../helpers/queries.js";
import { rejectionOf } from "../helpers/errors.js";
import { taggingCallbacks, ThrBio, ThrComment, ThrPost, ThrTag, ThrTagging, ThrWriter } from "../models/tagged-posts.js";

beforeEach(async () => {
  await resetDatabase();
  taggingCallbacks.length = 0;
});

/** Two writers: ann (posts a1 tagged red, blue; a2 tagged blue) and bob (post b1 tagged green); a comment per post. */
async function seed() {
  const ann = await ThrWriter.create({ name: "ann" });
  const bob = await ThrWriter.create({ name: "bob" });
  const [red, blue, green, unused] = await Promise.all(["red", "blue", "green", "unused"].map((name) => ThrTag.create({ name })));
  const a1 = await ThrPost.create({ thrWriterId: ann.id, title: "a1" });
  const a2 = await ThrPost.create({ thrWriterId: ann.id, title: "a2" });
  const b1 = await ThrPost.create({ thrWriterId: bob.id, title: "b1" });
  for (const [post, tag] of [[a1, red], [a1, blue], [a2, blue], [b1, green]] as const) await ThrTagging.create({ thrPostId: post.id, thrTagId: tag!.id });
  for (const post of [a1, a2, b1]) await ThrComment.create({ thrPostId: post.id, body: `on ${post.title}` });
  await ThrBio.create({ thrWriterId: ann.id, text: "ann's bio" });
  taggingCallbacks.length = 0;
  return { ann, bob, red: red!, blue: blue!, green: green!, unused: unused!, a1, a2, b1 };
}

const names = (records: ReadonlyArray<{ name: string }>) => records.map((record) => record.name).sort();
const titles = (records: ReadonlyArray<{ title: string }>) => records.map((record) => record.title).sort();

function recording() {
  const { binding, roundTrips } = recordingRoundTrips();
  const db = connect(binding);
  return { roundTrips, db, Post: db.model(ThrPost), Writer: db.model(ThrWriter), Tag: db.model(ThrTag), Tagging: db.model(ThrTagging) };
}

describe("guide: Through associations: reads", () => {
  it("post.tags() is a Relation of one statement: the join rows by a subquery, never loaded first", async () => {
    const { a1 } = await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const post = await Post.find(a1.id);
    events.length = 0;
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "red"]);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(
      `SELECT * FROM "thr_tags" WHERE ("id" IN (SELECT "thr_tag_id" FROM "thr_taggings" WHERE "thr_post_id" = ?1 AND "deleted_at" IS NULL)) AND "deleted_at" IS NULL`,
    );
  });

  it("narrows, counts and pages like any Relation, each one statement", async () => {
    const { a1 } = await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const post = await Post.find(a1.id);
    events.length = 0;
    expect(names(await post.thrTags().where({ name: "red" }).toArray())).toEqual(["red"]);
    expect(await post.thrTags().count()).toBe(2);
    const page = await post.thrTags().order({ name: "asc" }).paginate({ page: 1, perPage: 1 });
    expect(names(page.records)).toEqual(["blue"]);
    expect(page.total).toBe(2);
    expect(events).toHaveLength(4);
  });

  it("source: the join Model's association of another name; and the other way, tag.posts", async () => {
    const { a1, blue } = await seed();
    expect(names(await a1.labels().toArray())).toEqual(["blue", "red"]);
    expect(titles(await blue.thrPosts().toArray())).toEqual(["a1", "a2"]);
  });

  it("a through a through (writer to posts to taggings to tags), and through a hasMany (writer's comments)", async () => {
    const { ann, bob } = await seed();
    const { events, Writer } = listen({ models: { Writer: ThrWriter } });
    const writer = await Writer.find(ann.id);
    events.length = 0;
    expect(names(await writer.thrTags().toArray())).toEqual(["blue", "red"]);
    expect(events[0]!.sql).toBe(
      `SELECT * FROM "thr_tags" WHERE ("id" IN (SELECT "thr_tag_id" FROM "thr_taggings" WHERE ("thr_post_id" IN (SELECT "id" FROM "thr_posts" WHERE "thr_writer_id" = ?1)) AND "deleted_at" IS NULL)) AND "deleted_at" IS NULL`,
    );
    expect((await writer.thrComments().toArray()).map((comment) => comment.body).sort()).toEqual(["on a1", "on a2"]);
    expect(await bob.thrComments().count()).toBe(1);
  });

  it("hasOne through a belongsTo: the post's writer's bio", async () => {
    const { a1, b1 } = await seed();
    expect((await a1.thrBio.load())?.text).toBe("ann's bio");
    expect(await b1.thrBio.load()).toBeNull();
    const orphan = await ThrPost.create({ title: "orphan" });
    expect(await orphan.thrBio.load()).toBeNull();
  });

  it("each target once, however many join rows reach it", async () => {
    const { a1, red } = await seed();
    await ThrTagging.create({ thrPostId: a1.id, thrTagId: red.id });
    expect(names(await a1.thrTags().toArray())).toEqual(["blue", "red"]);
  });
});

describe("guide: Through associations: includes", () => {
  it("includes tags: one round trip, the join rows and the tags by subqueries of the main query", async () => {
    await seed();
    const { roundTrips, Post } = recording();
    const posts = await Post.order({ title: "asc" }).includes("thrTags").toArray();
    expect(roundTrips).toHaveLength(1);
    const tags = await Promise.all(posts.map(async (post) => names(await post.thrTags().toArray())));
    expect(tags).toEqual([["blue", "red"], ["blue"], ["green"]]);
    expect(roundTrips).toHaveLength(1);
  });
});
