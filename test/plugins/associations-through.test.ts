import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, CastError, connect, hasMany, hasOne, InvalidModel, Model, RecordInvalid, RecordNotFound, withTenant } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips, listen } from "../helpers/queries.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { commentsOnPostsAndPhotos } from "../models/comments-on-posts-and-photos.js";
import { SrcPost, SrcTag } from "../models/tagged-posts-and-photos.js";
import { membershipCallbacks, taggingCallbacks, tenantTaggedPosts, ThrBio, ThrClub, ThrComment, ThrMember, ThrMembership, ThrPost, ThrTag, ThrTagging, ThrWriter } from "../models/tagged-posts.js";

beforeEach(async () => {
  await resetDatabase();
  taggingCallbacks.length = 0;
  membershipCallbacks.length = 0;
});

/** Two writers: ann (posts a1 tagged red, blue; a2 tagged blue) and bob (post b1 tagged green); a comment per post. */
async function seed() {
  const ann = await ThrWriter.create({ name: "ann" });
  const bob = await ThrWriter.create({ name: "bob" });
  const [red, blue, green, unused] = await Promise.all(["red", "blue", "green", "unused"].map((name) => ThrTag.create({ name })));
  const a1 = await ThrPost.create({ thrWriterId: ann.id, title: "a1" });
  const a2 = await ThrPost.create({ thrWriterId: ann.id, title: "a2" });
  const b1 = await ThrPost.create({ thrWriterId: bob.id, title: "b1" });
  for (const [post, tag] of [[a1, red], [a1, blue], [a2, blue], [b1, green]] as const) await ThrTagging.create({ thrPostId: post.id!, thrTagId: tag!.id! });
  for (const post of [a1, a2, b1]) await ThrComment.create({ thrPostId: post.id!, body: `on ${post.title}` });
  await ThrBio.create({ thrWriterId: ann.id!, text: "ann's bio" });
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

  it("the guide's count: the through condition, then the Relation's own", async () => {
    const { a1 } = await seed();
    const { events, db } = listen();
    const post = await db.model(ThrPost).find(a1.id);
    await post.thrTags().where({ name: "red" }).count();
    expect(events.at(-1)!.sql).toBe(
      `SELECT COUNT(*) AS "recordflare_count" FROM "thr_tags" WHERE ("id" IN (SELECT "thr_tag_id" FROM "thr_taggings" WHERE "thr_post_id" = ?1 AND "deleted_at" IS NULL)) AND "name" = ?2 AND "deleted_at" IS NULL`,
    );
  });

  it("through given by name, as plain JavaScript declares it", async () => {
    const { a1 } = await seed();
    class Named extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override tableName = "thr_posts";
      static override binding = "DB";
      thrTaggings = hasMany(ThrTagging, { foreignKey: "thrPostId" });
      thrTags = hasMany(ThrTag, { through: "thrTaggings", source: "thrTag" } as never);
    }
    const post = await Named.find(a1.id);
    expect(names(await (post.thrTags as any)().toArray())).toEqual(["blue", "red"]);
  });

  it("source: the join Model's association of another name; by default its one association to the target (tag.posts)", async () => {
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

  it("updateAll on it acts on the targets it reaches, as on any Relation, by the same subquery", async () => {
    const { a1, b1 } = await seed();
    expect(await a1.thrTags().where({ name: "red" }).updateAll({ name: "crimson" })).toBe(1);
    expect(names(await a1.thrTags().toArray())).toEqual(["blue", "crimson"]);
    expect(names(await b1.thrTags().toArray())).toEqual(["green"]);
  });

  it("each target once, however many join rows reach it", async () => {
    const { a1, red } = await seed();
    await ThrTagging.create({ thrPostId: a1.id!, thrTagId: red.id! });
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

describe("guide: Through associations: includes, nested and paged", () => {
  it("nested under the owner's association (writers' posts' tags), and a through a through: one round trip each", async () => {
    await seed();
    const { roundTrips, Writer } = recording();
    const writers = await Writer.order({ name: "asc" }).includes({ thrPosts: ["thrTags"] }).toArray();
    expect(roundTrips).toHaveLength(1);
    const tagsOf = async (writer: ThrWriter) => Promise.all((await writer.thrPosts().toArray()).map(async (post) => [post.title, names(await post.thrTags().toArray())]));
    expect(await tagsOf(writers[0]!)).toEqual([["a1", ["blue", "red"]], ["a2", ["blue"]]]);
    expect(await tagsOf(writers[1]!)).toEqual([["b1", ["green"]]]);
    expect(roundTrips).toHaveLength(1);

    roundTrips.length = 0;
    const again = await Writer.order({ name: "asc" }).includes("thrTags", "thrComments").toArray();
    expect(roundTrips).toHaveLength(1);
    expect(names(await again[0]!.thrTags().toArray())).toEqual(["blue", "red"]);
    expect((await again[1]!.thrComments().toArray()).map((comment) => comment.body)).toEqual(["on b1"]);
    expect(await again[0]!.thrTags().size()).toBe(2);
    expect(roundTrips).toHaveLength(1);
  });

  it("beside the association it goes through, named with its own includes: one round trip, each loaded once", async () => {
    await seed();
    const { roundTrips, Post } = recording();
    const posts = await Post.order({ title: "asc" }).includes("thrTags", { thrTaggings: ["thrPost"] }).toArray();
    expect(roundTrips).toHaveLength(1);
    expect(names(await posts[0]!.thrTags().toArray())).toEqual(["blue", "red"]);
    const taggings = await posts[0]!.thrTaggings().toArray();
    expect(taggings.map((tagging) => tagging.thrPost.get()?.title)).toEqual(["a1", "a1"]);
    expect(roundTrips).toHaveLength(1);
  });

  it("with paginate: the count, the page, the join rows and the tags in one round trip", async () => {
    await seed();
    const { roundTrips, Post } = recording();
    const page = await Post.order({ title: "asc" }).includes("thrTags").paginate({ page: 1, perPage: 2 });
    expect(page.total).toBe(3);
    expect(await Promise.all(page.records.map(async (post) => names(await post.thrTags().toArray())))).toEqual([["blue", "red"], ["blue"]]);
    expect(roundTrips).toHaveLength(1);
    // The count, the page, the taggings of its posts, their tags.
    expect(roundTrips[0]).toHaveLength(4);
  });

  it("hasOne through: preloaded, and asJson nests what includes loaded", async () => {
    await seed();
    const { roundTrips, Post } = recording();
    const posts = await Post.order({ title: "asc" }).includes("thrBio", "thrTags").toArray();
    expect(posts.map((post) => post.thrBio.get()?.text ?? null)).toEqual(["ann's bio", "ann's bio", null]);
    expect(posts[0]!.thrBio.isLoaded).toBe(true);
    const json = posts[1]!.asJson({ include: ["thrTags", "thrBio"] });
    expect(json["thrTags"]).toEqual([expect.objectContaining({ name: "blue" })]);
    expect(json["thrBio"]).toEqual(expect.objectContaining({ text: "ann's bio" }));
    expect(roundTrips).toHaveLength(1);
  });

  it("a through association not loaded: get() and asJson throw AssociationNotLoaded; reloadAssociation reads it again", async () => {
    const { a1, blue } = await seed();
    expect(() => a1.thrBio.get()).toThrow(/thrBio is not loaded/);
    expect(() => a1.asJson({ include: ["thrTags"] })).toThrow(/thrTags is not loaded/);
    expect(names(await a1.thrTags().toArray())).toEqual(["blue", "red"]);
    await ThrTagging.where({ thrPostId: a1.id, thrTagId: blue.id }).deleteAll();
    expect(names(await a1.thrTags().toArray())).toEqual(["blue", "red"]);
    expect(names(await a1.reloadAssociation("thrTags"))).toEqual(["red"]);
  });
});

describe("guide: Through associations: a scope", () => {
  /** a1 tagged red (featured) and blue, a2 blue, b1 green (featured). */
  async function featuring() {
    const seeded = await seed();
    await ThrTag.where({ name: ["red", "green"] }).updateAll({ featured: true });
    return seeded;
  }

  it("narrows the targets: the through subquery, then the scope's conditions and order, in one statement", async () => {
    const { a1 } = await featuring();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const post = await Post.find(a1.id);
    events.length = 0;
    expect((await post.primaryColours().toArray()).map((tag) => tag.name)).toEqual(["red", "blue"]);
    expect(names(await post.featuredTags().toArray())).toEqual(["red"]);
    expect(await post.featuredTags().count()).toBe(1);
    expect(await post.featuredTags().where({ name: "blue" }).count()).toBe(0);
    expect(events).toHaveLength(4);
    expect(events[1]!.sql).toBe(
      `SELECT * FROM "thr_tags" WHERE ("id" IN (SELECT "thr_tag_id" FROM "thr_taggings" WHERE "thr_post_id" = ?1 AND "deleted_at" IS NULL)) AND "featured" = ?2 AND "deleted_at" IS NULL`,
    );
  });

  it("includes: one round trip, what each owner holds narrowed and in the scope's order; no query after", async () => {
    await featuring();
    const { roundTrips, Post } = recording();
    const posts = await Post.order({ title: "asc" }).includes("primaryColours", "featuredTags", "thrTags").toArray();
    expect(roundTrips).toHaveLength(1);
    const held = await Promise.all(posts.map(async (post) => [(await post.primaryColours().toArray()).map((tag) => tag.name), names(await post.featuredTags().toArray()), names(await post.thrTags().toArray())]));
    expect(held).toEqual([
      [["red", "blue"], ["red"], ["blue", "red"]],
      [["blue"], [], ["blue"]],
      [[], ["green"], ["green"]],
    ]);
    expect(await posts[0]!.featuredTags().size()).toBe(1);
    expect(roundTrips).toHaveLength(1);
  });

  it("includes with paginate and nested under the owner's association: one round trip each", async () => {
    const { ann } = await featuring();
    const { roundTrips, Post, Writer } = recording();
    const page = await Post.order({ title: "asc" }).includes("featuredTags").paginate({ page: 1, perPage: 2 });
    expect(await Promise.all(page.records.map(async (post) => names(await post.featuredTags().toArray())))).toEqual([["red"], []]);
    expect(roundTrips).toHaveLength(1);
    const writer = await Writer.includes({ thrPosts: ["featuredTags"] }).find(ann.id);
    const posts = (await writer.thrPosts().toArray()).sort((one, other) => one.title.localeCompare(other.title));
    expect(await Promise.all(posts.map(async (post) => names(await post.featuredTags().toArray())))).toEqual([["red"], []]);
    expect(roundTrips).toHaveLength(2);
  });

  it("the hops loaded without the scoped association do not answer for it: it reads its rows", async () => {
    const { a1 } = await featuring();
    const { roundTrips, Post } = recording();
    const post = await Post.includes({ thrTaggings: ["thrTag"] }).find(a1.id);
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "red"]);
    expect(roundTrips).toHaveLength(1);
    expect(names(await post.featuredTags().toArray())).toEqual(["red"]);
    expect(roundTrips).toHaveLength(2);
  });

  it("hasOne through with a scope: read and preloaded narrowed", async () => {
    const { a1, b1 } = await featuring();
    await ThrBio.where({}).updateAll({ text: "ann's long bio" });
    const { roundTrips, Post } = recording();
    const posts = await Post.where({ id: [a1.id, b1.id] }).order({ title: "asc" }).includes("longBio").toArray();
    expect(posts.map((post) => post.longBio.get()?.text ?? null)).toEqual(["ann's long bio", null]);
    expect(roundTrips).toHaveLength(1);
    await ThrBio.where({}).updateAll({ text: "short" });
    expect(await (await Post.find(a1.id)).longBio.load()).toBeNull();
  });

  it("build starts with the scope's equality conditions, as in Rails; add links any tag, the scope reads only its own", async () => {
    const { a1, blue } = await featuring();
    const post = await ThrPost.find(a1.id);
    const built = post.featuredTags().build({ name: "violet" });
    expect(built.featured).toBe(true);
    await post.saveOrThrow();
    expect(names(await (await ThrPost.find(a1.id)).featuredTags().toArray())).toEqual(["red", "violet"]);
    await post.featuredTags().add(blue);
    expect(names(await (await ThrPost.find(a1.id)).thrTags().toArray())).toEqual(["blue", "red", "violet"]);
    expect(names(await (await ThrPost.find(a1.id)).featuredTags().toArray())).toEqual(["red", "violet"]);
  });

  it("set and setIds replace the join rows of the targets the scope admits; the others stay", async () => {
    const { a1, green } = await featuring();
    const post = await ThrPost.find(a1.id);
    await post.featuredTags().set([green]);
    const reread = await ThrPost.find(a1.id);
    expect(names(await reread.thrTags().toArray())).toEqual(["blue", "green"]);
    const red = (await ThrTag.findBy({ name: "red" }))!;
    await reread.featuredTags().setIds([red.id!]);
    expect(names(await (await ThrPost.find(a1.id)).thrTags().toArray())).toEqual(["blue", "red"]);
  });

  it("a scope with a limit cannot be preloaded, nor taken with dependent: each names the Model and association", async () => {
    class Limited extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override tableName = "thr_posts";
      static override binding = "DB";
      thrTaggings = hasMany(ThrTagging, { foreignKey: "thrPostId" });
      firstTag = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag", scope: (q) => q.limit(1) });
    }
    const { a1 } = await featuring();
    expect(String(await thrown(() => Limited.includes("firstTag").toArray()))).toMatch(/firstTag: a scope with limit or offset cannot be preloaded with includes/);
    class Dependent extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override tableName = "thr_posts";
      static override binding = "DB";
      thrTaggings = hasMany(ThrTagging, { foreignKey: "thrPostId" });
      tags = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag", scope: (q) => q.limit(1), dependent: "destroy" });
    }
    const post = await Dependent.find(a1.id);
    expect(await thrown(() => post.destroy())).toEqual(
      new InvalidModel("Dependent.tags: dependent is not taken with a scope that has a limit or offset (one statement cannot page each owner's targets)"),
    );
    expect(await ThrPost.where({ id: a1.id }).count()).toBe(1);
  });
});

describe("guide: Through associations: dependent with a scope", () => {
  /** Join rows of src_taggings read as tags on posts alone (their type aside); a destroy callback records the post. */
  class PostTagging extends Model({ id: "integer", srcTagId: { type: "integer", null: false }, taggableType: "string", taggableId: { type: "integer", null: false } }) {
    static override tableName = "src_taggings";
    static override binding = "DB";
    static {
      this.afterDestroy((tagging) => void taggingCallbacks.push(`destroy ${tagging.taggableId}`));
    }
    post = belongsTo(SrcPost, { foreignKey: "taggableId" });
  }
  /** Tags whose dependent handles the join rows to posts titled "a" (the scope), and, unscoped, all of them. */
  function tagsWith(dependent: "destroy" | "deleteAll" | "nullify" | "restrictWithError", scoped: boolean) {
    return class extends Model({ id: "integer", name: { type: "string", null: false } }) {
      static override tableName = "src_tags";
      static override binding = "DB";
      postTaggings = hasMany(PostTagging, { foreignKey: "srcTagId" });
      posts = hasMany(SrcPost, { through: this.postTaggings, source: "post", dependent, ...(scoped && { scope: (q: any) => q.where({ title: "a" }) }) });
    };
  }
  /** Tag red on posts a and b; tag blue on post b. */
  async function seedTags() {
    const [a, b] = [await SrcPost.create({ title: "a" }), await SrcPost.create({ title: "b" })];
    const [red, blue] = [await SrcTag.create({ name: "red" }), await SrcTag.create({ name: "blue" })];
    for (const [tag, post] of [[red, a], [red, b], [blue, b]] as const) await PostTagging.create({ srcTagId: tag.id!, taggableType: "SrcPost", taggableId: post.id! });
    taggingCallbacks.length = 0;
    return { a, b, red, blue };
  }
  const joinRows = async () => (await PostTagging.order({ id: "asc" }).toArray()).map((row) => [row.srcTagId, row.taggableId]);
  async function destroyCounted(Tag: ReturnType<typeof tagsWith>, id: unknown) {
    const { binding, roundTrips } = recordingRoundTrips();
    const tag = await connect(binding).model(Tag).find(id);
    roundTrips.length = 0;
    const destroyed = await tag.destroy();
    return { destroyed, roundTrips: roundTrips.length, tag };
  }

  it("destroy, deleteAll and nullify: only the join rows to the targets the scope admits go, in as many round trips as without a scope", async () => {
    for (const dependent of ["destroy", "deleteAll", "nullify"] as const) {
      const { a, b, red, blue } = await seedTags();
      const scoped = await destroyCounted(tagsWith(dependent, true), red.id);
      expect(await joinRows()).toEqual([[red.id, b.id], [blue.id, b.id]]);
      expect(taggingCallbacks).toEqual(dependent === "destroy" ? [`destroy ${a.id}`] : []);
      expect(await SrcPost.count()).toBe(2);
      const unscoped = await destroyCounted(tagsWith(dependent, false), blue.id);
      expect(await joinRows()).toEqual([[red.id, b.id]]);
      expect(scoped.roundTrips).toBe(unscoped.roundTrips);
      expect(scoped.roundTrips).toBe(dependent === "destroy" ? 2 : 1);
      await resetDatabase();
    }
  });

  it("destroy with the join rows loaded: those outside the scope stay, in the database and unharmed in memory", async () => {
    const { b, red } = await seedTags();
    const Tag = tagsWith("destroy", true);
    const tag = await Tag.includes("postTaggings").find(red.id);
    await tag.destroy();
    expect(await joinRows()).toEqual([[red.id, b.id], [(await SrcTag.findBy({ name: "blue" }))!.id, b.id]]);
    expect((await tag.postTaggings().toArray()).map((row: PostTagging) => row.isDestroyed())).toContain(false);
  });

  it("deleteAll: one DELETE of the owner's join rows whose target the scope admits, by a subquery", async () => {
    const { red } = await seedTags();
    const { events, db } = listen();
    await (await db.model(tagsWith("deleteAll", true)).find(red.id)).destroy();
    expect(events.map((event) => event.sql).filter((sql) => sql.startsWith("DELETE FROM \"src_taggings\""))).toEqual([
      `DELETE FROM "src_taggings" WHERE ("taggable_id" IN (SELECT "id" FROM "src_posts" WHERE "title" = ?1)) AND "src_tag_id" = ?2`,
    ]);
  });

  it("restrictWithError: refused only while a join row reaches a target the scope admits", async () => {
    const { red, blue } = await seedTags();
    const Tag = tagsWith("restrictWithError", true);
    const refused = await destroyCounted(Tag, red.id);
    expect(refused.destroyed).toBe(false);
    expect(refused.tag.errors.fullMessages()).toEqual(["Cannot delete record because dependent posts exist"]);
    const allowed = await destroyCounted(Tag, blue.id);
    expect(allowed.destroyed).not.toBe(false);
    expect(allowed.roundTrips).toBe(refused.roundTrips + 1);
    expect(await SrcTag.where({ id: blue.id }).count()).toBe(0);
  });
});

describe("guide: Through associations: writes keep the join rows right", () => {
  it("add on a saved post: the join rows in one batch, their validations and callbacks run; the tags are not written", async () => {
    const { a2, red, green } = await seed();
    const { roundTrips, Post } = recording();
    const post = await Post.find(a2.id);
    roundTrips.length = 0;
    await post.thrTags().add(red, green);
    expect(roundTrips).toHaveLength(1);
    expect(taggingCallbacks).toEqual([`save ${red.id}`, `save ${green.id}`]);
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "green", "red"]);
    expect(await ThrTag.count()).toBe(4);
  });

  it("add on a new post: the join rows are written by the post's save, a new tag with them", async () => {
    const { red } = await seed();
    const post = ThrPost.build({ title: "new" });
    const fresh = ThrTag.build({ name: "fresh" });
    await post.thrTags().add(red, fresh);
    expect(await ThrTagging.count()).toBe(4);
    expect(names(await post.thrTags().toArray())).toEqual(["fresh", "red"]);
    await post.save();
    expect(post.isNewRecord()).toBe(false);
    expect(names(await ThrPost.find(post.id).then((saved) => saved.thrTags().toArray()))).toEqual(["fresh", "red"]);
  });

  it("build: a new tag and its join row, written by the post's next save in its batch", async () => {
    const { a2 } = await seed();
    const post = await ThrPost.find(a2.id);
    const built = post.thrTags().build({ name: "built" });
    expect(built).toBeInstanceOf(ThrTag);
    expect(built.isNewRecord()).toBe(true);
    expect(await ThrTag.findBy({ name: "built" })).toBeNull();
    await post.save();
    expect(built.isNewRecord()).toBe(false);
    expect(names(await ThrPost.find(a2.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["blue", "built"]);
    expect(taggingCallbacks).toEqual([`save ${built.id}`]);
  });

  it("build and create on its unscoped(): a tag without the target's default scope's attributes, as Model.unscoped() builds, still with its join row", async () => {
    class ShownTag extends Model({ id: "integer", name: { type: "string", null: false }, tenantId: "string" }) {
      static override binding = "DB";
      static override tableName = "thr_tags";
      static {
        this.defaultScope((q) => q.where({ tenantId: "shown" }));
      }
    }
    class ShownTagging extends Model({ id: "integer", thrPostId: { type: "integer", null: false }, thrTagId: { type: "integer", null: false } }) {
      static override binding = "DB";
      static override tableName = "thr_taggings";
      shownTag = belongsTo(ShownTag, { foreignKey: "thrTagId" });
    }
    class ShownPost extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override binding = "DB";
      static override tableName = "thr_posts";
      shownTaggings = hasMany(ShownTagging, { foreignKey: "thrPostId" });
      shownTags = hasMany(ShownTag, { through: this.shownTaggings });
    }
    const post = await ShownPost.create({ title: "p" });
    expect(post.shownTags().build({ name: "scoped" }).tenantId).toBe("shown");
    const built = post.shownTags().unscoped().build({ name: "unscoped" });
    const narrowed = post.shownTags().unscoped().where({ name: "narrowed" }).build();
    expect([built.tenantId, narrowed.tenantId, narrowed.name]).toEqual([null, null, "narrowed"]);
    await post.saveOrThrow();
    expect([built.isPersisted(), narrowed.isPersisted()]).toEqual([true, true]);
    expect((await post.shownTags().unscoped().create({ name: "created" })).tenantId).toBeNull();
    const linked = await ShownTag.unscoped(() => post.shownTags().order({ name: "asc" }).toArray());
    expect(linked.map((tag) => [tag.name, tag.tenantId])).toEqual([["created", null], ["narrowed", null], ["scoped", "shown"], ["unscoped", null]]);
  });

  it("create (Rails' create): the tag and its join row written now; a tag its validations refuse is answered unsaved; a new post is refused", async () => {
    const { a2 } = await seed();
    const post = await ThrPost.find(a2.id);
    const created = await post.thrTags().create({ name: "created" });
    expect(created.isPersisted()).toBe(true);
    expect(taggingCallbacks).toEqual([`save ${created.id}`]);
    expect(names(await ThrPost.find(a2.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["blue", "created"]);
    expect((await post.featuredTags().createOrThrow({ name: "shiny" })).featured).toBe(true);
    const tags = await ThrTag.count();
    const joins = await ThrTagging.count();
    const blank = await post.thrTags().create({ name: "" });
    expect(blank.isNewRecord()).toBe(true);
    expect(blank.errors.fullMessages()).toEqual(["Name can't be blank"]);
    await expect(post.thrTags().createOrThrow({ name: "" })).rejects.toThrow("Name can't be blank");
    // Nothing was written, and nothing waits for the post's next save.
    expect(await post.save()).toBe(true);
    expect([await ThrTag.count(), await ThrTagging.count()]).toEqual([tags, joins]);
    await expect(ThrPost.build({ title: "new" }).thrTags().create({ name: "x" })).rejects.toThrow(
      "ThrPost.thrTags.create: the ThrPost is not saved yet; save it first, or build the target with build (its save writes both)",
    );
  });

  it("narrowed (where, order, whereNot, merge, or), create writes the tag and its join row in the round trip the un-narrowed create takes", async () => {
    const { a2 } = await seed();
    const { roundTrips, Post, Tag } = recording();
    const post = await Post.find(a2.id);
    await post.thrTags().toArray();
    roundTrips.length = 0;
    const plainTag = await post.thrTags().create({ name: "plain" });
    const plain = roundTrips.length;
    roundTrips.length = 0;
    const created = await post.thrTags().where({ name: "narrowed" }).order({ name: "asc" }).create({ featured: true });
    expect(roundTrips).toHaveLength(plain);
    const others = [
      await post.thrTags().whereNot({ name: "x" }).createOrThrow({ name: "whereNot" }),
      await post.thrTags().merge(Tag.where({ featured: false })).create({ name: "merged" }),
      await post.thrTags().where({ name: "a" }).or(Tag.where({ name: "b" })).create({ name: "or" }),
      await post.featuredTags().where({ name: "shiny" }).createOrThrow(),
    ];
    expect([created.name, created.featured, others[1]!.featured, others[3]!.featured]).toEqual(["narrowed", true, false, true]);
    expect(taggingCallbacks).toEqual([plainTag, created, ...others].map((tag) => `save ${tag.id}`));
    // The loaded tags hold those created through thrTags; shiny joined featuredTags, another association.
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "merged", "narrowed", "or", "plain", "whereNot"]);
    expect(names(await ThrPost.find(a2.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["blue", "merged", "narrowed", "or", "plain", "shiny", "whereNot"]);
  });

  it("narrowed, build makes a tag with its join row, among the loaded tags, written by the post's save; create on a new post is refused", async () => {
    const { a2 } = await seed();
    const post = await ThrPost.find(a2.id);
    await post.thrTags().toArray();
    const built = post.thrTags().where({ name: "built" }).limit(1).build();
    expect(built.isNewRecord()).toBe(true);
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "built"]);
    await post.save();
    expect(built.isPersisted()).toBe(true);
    expect(names(await ThrPost.find(a2.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["blue", "built"]);
    const fresh = ThrPost.build({ title: "new" });
    const waiting = fresh.featuredTags().where({ name: "waiting" }).build();
    for (const method of ["create", "createOrThrow"] as const) {
      await expect(fresh.thrTags().where({ name: "x" })[method]()).rejects.toThrow(
        `ThrPost.thrTags.${method}: the ThrPost is not saved yet; save it first, or build the target with build (its save writes both)`,
      );
    }
    expect(await fresh.save()).toBe(true);
    expect([waiting.isPersisted(), waiting.featured]).toEqual([true, true]);
    expect(names(await ThrPost.find(fresh.id).then((saved) => saved.thrTags().toArray()))).toEqual(["waiting"]);
  });

  it("a join row its validations refuse: RecordInvalid naming the join Model, and nothing written", async () => {
    const { a2, red } = await seed();
    const forbidden = await ThrTag.create({ name: "forbidden" });
    const error = await rejectionOf(a2.thrTags().add(red, forbidden));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(error.message).toMatch(/Note can't be blank/);
    expect(await ThrTagging.where({ thrPostId: a2.id }).count()).toBe(1);
    expect(names(await a2.thrTags().toArray())).toEqual(["blue"]);
  });

  it("after includes, what add and remove write is what the loaded association holds, with no query", async () => {
    const { a1, red, green } = await seed();
    const [post] = await ThrPost.where({ id: a1.id }).includes("thrTags").toArray();
    await post!.thrTags().add(green);
    await post!.thrTags().remove(red);
    const { events, db } = listen();
    expect(names(await post!.thrTags().toArray())).toEqual(["blue", "green"]);
    expect(events).toHaveLength(0);
    expect(names(await db.model(ThrPost).find(a1.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["blue", "green"]);
  });

  it("remove deletes the join rows (destroyed, their callbacks run), never the tags", async () => {
    const { a1, red, blue } = await seed();
    const { roundTrips, Post } = recording();
    const post = await Post.find(a1.id);
    roundTrips.length = 0;
    await post.thrTags().remove(red);
    // The join rows are read, then destroyed in one batch (the join Model has destroy callbacks).
    expect(roundTrips).toHaveLength(2);
    expect(taggingCallbacks).toEqual([`destroy ${red.id}`]);
    expect(names(await post.thrTags().toArray())).toEqual(["blue"]);
    expect(await ThrTag.where({ id: [red.id, blue.id] }).count()).toBe(2);
  });

  it("remove with a join Model without destroy callbacks: one DELETE of the join rows, one round trip", async () => {
    const { a1, red } = await seed();
    const PlainPost = postsTaggedWithoutCallbacks();
    const { roundTrips, db } = recording();
    const post = await db.model(PlainPost).find(a1.id);
    roundTrips.length = 0;
    await post.thrTags().remove(red);
    // Made only where every target has its row: a target not linked deletes nothing (see below).
    expect(roundTrips).toEqual([
      [
        `DELETE FROM "thr_taggings" WHERE "thr_post_id" = ?1 AND "thr_tag_id" IN (SELECT value FROM json_each(?2)) AND ((SELECT count(DISTINCT "thr_tag_id") FROM (SELECT "thr_tag_id" FROM "thr_taggings" WHERE "thr_post_id" = ?3 AND "thr_tag_id" IN (SELECT value FROM json_each(?4)))) = ?5)`,
      ],
    ]);
    expect(names(await post.thrTags().toArray())).toEqual(["blue"]);
    // Nothing to add or remove: nothing is sent.
    roundTrips.length = 0;
    await post.thrTags().add();
    await post.thrTags().remove();
    expect(roundTrips).toHaveLength(0);
  });

  it("remove refuses a target the owner does not link, naming it, as a plain hasMany's remove does; nothing is removed", async () => {
    const { a1, red, green } = await seed();
    const refused = await rejectionOf(a1.thrTags().remove(red, green));
    expect(refused).toBeInstanceOf(RecordNotFound);
    expect(refused.message).toBe(`ThrPost.thrTags.remove: ThrTag ${green.id} is not one of this ThrPost's thrTags`);
    const stranger = ThrTag.build({ name: "new" });
    expect((await rejectionOf(a1.thrTags().remove(stranger))).message).toBe(`ThrPost.thrTags.remove: a new ThrTag not built or added through it is not one of this ThrPost's thrTags`);
    expect((await rejectionOf(ThrPost.build({ title: "new" }).thrTags().remove(red))).message).toMatch(/^ThrPost\.thrTags\.remove: ThrTag \d+ is not one of this ThrPost's thrTags$/);
    expect(taggingCallbacks).toEqual([]);
    expect(names(await a1.thrTags().toArray())).toEqual(["blue", "red"]);
    // A target built through it, waiting for the owner's save, is linked: removing it drops it from that save.
    const built = a1.thrTags().build({ name: "built" });
    await a1.thrTags().remove(built, red);
    await a1.saveOrThrow();
    expect(names(await a1.thrTags().toArray())).toEqual(["blue"]);
  });

  it("remove with a join Model without destroy callbacks: a target not linked deletes nothing, and is named after a read", async () => {
    const { a1, red, green } = await seed();
    const PlainPost = postsTaggedWithoutCallbacks();
    const { roundTrips, db } = recording();
    const post = await db.model(PlainPost).find(a1.id);
    roundTrips.length = 0;
    const refused = await rejectionOf(post.thrTags().remove(red, green));
    expect(refused).toBeInstanceOf(RecordNotFound);
    expect(refused.message).toBe(`PlainPost.thrTags.remove: ThrTag ${green.id} is not one of this PlainPost's thrTags`);
    expect(roundTrips).toHaveLength(2);
    expect(names(await post.thrTags().toArray())).toEqual(["blue", "red"]);
    // Linked twice (no unique index holds the join rows), a target is still one target.
    await ThrTagging.create({ thrPostId: a1.id!, thrTagId: red.id! });
    roundTrips.length = 0;
    await post.thrTags().remove(red);
    expect(roundTrips).toHaveLength(1);
    expect(names(await post.thrTags().toArray())).toEqual(["blue"]);
  });

  it("set writes the difference in one batch after one read; setIds reads the tags with the join rows", async () => {
    const { a1, red, blue, green, unused } = await seed();
    const { roundTrips, Post, Tag } = recording();
    const post = await Post.find(a1.id);
    roundTrips.length = 0;
    await post.thrTags().set([red, green]);
    expect(roundTrips).toHaveLength(2);
    expect(roundTrips[1]!.filter((sql) => /^(INSERT|UPDATE|DELETE)/.test(sql))).toHaveLength(2);
    expect(taggingCallbacks).toEqual([`destroy ${blue.id}`, `save ${green.id}`]);
    expect(names(await post.thrTags().toArray())).toEqual(["green", "red"]);
    expect(names(await Post.find(a1.id).then((fresh) => fresh.thrTags().toArray()))).toEqual(["green", "red"]);

    roundTrips.length = 0;
    await post.thrTags().setIds([unused.id!, red.id!]);
    expect(roundTrips).toHaveLength(2);
    expect(roundTrips[0]).toHaveLength(2);
    expect(names(await Tag.where({ id: (await ThrTagging.where({ thrPostId: a1.id }).pluck("thrTagId")) as number[] }).toArray())).toEqual(["red", "unused"]);

    // Nothing to change: the join rows are read and nothing is written. The tags are soft-deletable, so a set whose
    // tags are not loaded reads only the join rows to the tags it reaches (a join row to a deleted tag stays), which
    // the association does not keep: each set reads once.
    roundTrips.length = 0;
    await post.thrTags().set([red, unused]);
    const again = await Post.find(a1.id);
    await again.thrTags().set([unused, red]);
    expect(roundTrips).toHaveLength(3);
  });

  it("setIds with a key of no row: RecordNotFound naming the Model and the key, nothing written", async () => {
    const { a1, red } = await seed();
    const error = await rejectionOf(a1.thrTags().setIds([red.id!, 999]));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).toBe("ThrPost.thrTags.setIds: no ThrTag with id 999");
    expect(await ThrTagging.where({ thrPostId: a1.id }).count()).toBe(2);
  });

  it("setIds quotes the keys it finds no row of readably, each once; an object or a list given as a key is a CastError naming the method", async () => {
    const { a1, red } = await seed();
    const refusal = async (ids: unknown[]) => rejectionOf(a1.thrTags().setIds(ids as never));
    expect((await refusal([998, "998", "997", 998, "nine", "nine"])).message).toBe('ThrPost.thrTags.setIds: no ThrTag with id 998, "997", "nine"');
    const object = await refusal([red.id!, { id: red.id }]);
    expect(object).toBeInstanceOf(CastError);
    expect(object.message).toBe(`ThrPost.thrTags.setIds: { id: ${red.id} } is no key of ThrTag (id)`);
    expect((await refusal([[red.id]])).message).toBe(`ThrPost.thrTags.setIds: [${red.id}] is no key of ThrTag (id)`);
    expect((await refusal([Object.create(null)])).message).toBe("ThrPost.thrTags.setIds: {} is no key of ThrTag (id)");
    expect(await ThrTagging.where({ thrPostId: a1.id }).count()).toBe(2);
    // A form's text of a key finds the row of that key.
    await a1.thrTags().setIds([String(red.id)]);
    expect((await ThrTagging.where({ thrPostId: a1.id }).pluck("thrTagId")).map(Number)).toEqual([red.id]);
  });

  it("bad arguments are refused naming the method; a through a through is read-only", async () => {
    const { a1, ann } = await seed();
    await expect(a1.thrTags().add("red" as never)).rejects.toThrow("ThrPost.thrTags.add takes records of ThrTag, not");
    await expect(a1.thrTags().set("red" as never)).rejects.toThrow("ThrPost.thrTags.set takes a list of records of ThrTag");
    await expect(a1.thrTags().setIds(5 as never)).rejects.toThrow("ThrPost.thrTags.setIds takes a list of keys");
    await expect(ann.thrTags().add(await ThrTag.findBy({ name: "red" }) as never)).rejects.toThrow("ThrWriter.thrTags.add: thrTags is read-only");
  });
});

/** The join rows without soft delete (a destroy deletes them), whose destroy callback records the tag. */
class HardTagging extends Model({ id: "integer", thrPostId: { type: "integer", null: false }, thrTagId: { type: "integer", null: false } }) {
  static override tableName = "thr_taggings";
  static override binding = "DB";
  static {
    this.afterDestroy((tagging) => void taggingCallbacks.push(`destroy ${tagging.thrTagId}`));
  }
  thrTag = belongsTo(ThrTag);
}

/** Posts on the same table whose tags go through taggings with each `dependent` strategy. */
function postsWith(dependent: "destroy" | "deleteAll" | "nullify" | "restrictWithError") {
  return class extends Model({ id: "integer", thrWriterId: "integer", title: { type: "string", null: false }, tenantId: "string" }) {
    static override tableName = "thr_posts";
    static override binding = "DB";
    thrTaggings = hasMany(HardTagging, { foreignKey: "thrPostId" });
    thrTags = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag", dependent });
  };
}

describe("guide: Through associations: hasOne through writes its join row", () => {
  async function clubs() {
    const [chess, golf, closed] = await Promise.all(["chess", "golf", "closed"].map((name) => ThrClub.create({ name })));
    return { chess: chess!, golf: golf!, closed: closed! };
  }
  const membershipRows = async () => (await ThrMembership.order({ id: "asc" }).toArray()).map((row) => [row.thrMemberId, row.thrClubId]);

  it("a new member: set builds the membership, written by the member's save", async () => {
    const { chess } = await clubs();
    const { roundTrips, db } = recording();
    const member = db.model(ThrMember).build({ name: "ann" });
    await member.thrClub.set(chess);
    expect(roundTrips).toHaveLength(0);
    expect(member.thrClub.get()).toBe(chess);
    await member.saveOrThrow();
    // The member, then the membership with the key the database assigned it: a graph save's two levels.
    expect(roundTrips).toHaveLength(2);
    expect(await membershipRows()).toEqual([[member.id, chess.id]]);
    expect(membershipCallbacks).toEqual([`save ${chess.id}`]);
  });

  it("a saved member: set creates the membership, or updates the one there is; one write batch, callbacks run", async () => {
    const { chess, golf } = await clubs();
    const ann = await ThrMember.create({ name: "ann" });
    const { roundTrips, db } = recording();
    const member = await db.model(ThrMember).find(ann.id);
    roundTrips.length = 0;
    await member.thrClub.set(chess);
    // The membership is read (none), then written.
    expect(roundTrips).toHaveLength(2);
    expect(await membershipRows()).toEqual([[ann.id, chess.id]]);
    roundTrips.length = 0;
    await member.thrClub.set(golf);
    // Loaded now: only the UPDATE.
    expect(roundTrips).toHaveLength(1);
    expect(await membershipRows()).toEqual([[ann.id, golf.id]]);
    expect(membershipCallbacks).toEqual([`save ${chess.id}`, `save ${golf.id}`]);
    expect((await (await ThrMember.find(ann.id)).thrClub.load())?.name).toBe("golf");
    await member.saveOrThrow();
    expect(await membershipRows()).toEqual([[ann.id, golf.id]]);
  });

  it("set(null) destroys the membership, never the club; a new club is saved with its membership", async () => {
    const { chess } = await clubs();
    const ann = await ThrMember.create({ name: "ann" });
    await ann.thrClub.set(chess);
    await ann.thrClub.set(null);
    expect(ann.thrClub.get()).toBeNull();
    expect(await membershipRows()).toEqual([]);
    expect(await ThrClub.count()).toBe(3);
    expect(membershipCallbacks).toEqual([`save ${chess.id}`, `destroy ${chess.id}`]);
    const fresh = ThrClub.build({ name: "bridge" });
    await ann.thrClub.set(fresh);
    expect(fresh.isNewRecord()).toBe(false);
    expect(await membershipRows()).toEqual([[ann.id, fresh.id]]);
  });

  it("a membership its validations refuse: RecordInvalid naming the join Model; nothing written, nothing left to save", async () => {
    const { closed } = await clubs();
    const ann = await ThrMember.create({ name: "ann" });
    const error = await rejectionOf(ann.thrClub.set(closed));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(String(error)).toMatch(/ThrMembership/);
    expect(await membershipRows()).toEqual([]);
    await ann.saveOrThrow();
    expect(await membershipRows()).toEqual([]);
  });

  it("refuses what Rails refuses, naming the Model, association and method: a join row without the target's key, a through a through; and a wrong record", async () => {
    const { a1 } = await seed();
    const { chess } = await clubs();
    const post = await ThrPost.find(a1.id);
    expect(String(await rejectionOf(post.thrBio.set(null)))).toBe(
      "TypeError: ThrPost.thrBio.set: thrBio goes through the belongsTo thrWriter, whose row other records share; assign it through thrWriter",
    );
    const member = await ThrMember.create({ name: "ann" });
    expect(String(await rejectionOf(member.thrCard.set(null)))).toBe(
      "TypeError: ThrMember.thrCard.set: thrCard is read-only: its source ThrMembership.thrCard is a hasOne, and the join row holds no key of the target",
    );
    expect(String(await rejectionOf(member.cardClub.set(chess)))).toBe("TypeError: ThrMember.cardClub.set: cardClub is read-only: it goes through another through association");
    expect(String(await rejectionOf(member.thrClub.set(post as never)))).toMatch(/^TypeError: ThrMember.thrClub.set takes a record of ThrClub or null, not /);
    expect(await membershipRows()).toEqual([]);
  });
});

describe("guide: Through associations: dependent deletes the join rows, never the targets", () => {
  it("destroy: each join row destroyed, its callbacks run, in the post's destroy", async () => {
    const { a1, red, blue } = await seed();
    const Post = postsWith("destroy");
    await ThrComment.where({ thrPostId: a1.id }).deleteAll();
    await (await Post.find(a1.id)).destroy();
    expect(taggingCallbacks.sort()).toEqual([`destroy ${red.id}`, `destroy ${blue.id}`].sort());
    expect(await ThrTagging.where({ thrPostId: a1.id }).count()).toBe(0);
    expect(await ThrTag.count()).toBe(4);
  });

  it("deleteAll and nullify: the join rows go with one statement in the destroy's batch, no callbacks", async () => {
    for (const dependent of ["deleteAll", "nullify"] as const) {
      const { a1 } = await seed();
      await ThrComment.where({ thrPostId: a1.id }).deleteAll();
      const { roundTrips, db } = recording();
      const Post = db.model(postsWith(dependent));
      const post = await Post.find(a1.id);
      roundTrips.length = 0;
      await post.destroy();
      expect(roundTrips).toHaveLength(1);
      expect(taggingCallbacks).toEqual([]);
      expect(await ThrTagging.where({ thrPostId: a1.id }).count()).toBe(0);
      expect(await ThrTag.count()).toBe(4);
      await resetDatabase();
    }
  });

  it("restrictWithError: a post with join rows is not destroyed; the reason names the association", async () => {
    const { a1 } = await seed();
    const post = await postsWith("restrictWithError").find(a1.id);
    expect(await post.destroy()).toBe(false);
    expect(post.errors.fullMessages()).toEqual(["Cannot delete record because dependent thr tags exist"]);
  });

  it("dependent on a through association that cannot write its join rows is refused", async () => {
    class Writer extends Model({ id: "integer", name: { type: "string", null: false }, tenantId: "string" }) {
      static override tableName = "thr_writers";
      static override binding = "DB";
      thrPosts = hasMany(ThrPost, { foreignKey: "thrWriterId" });
      thrComments = hasMany(ThrComment, { through: this.thrPosts, dependent: "destroy" });
    }
    const writer = await Writer.create({ name: "w" });
    await expect(writer.destroy()).rejects.toThrow("Writer.thrComments: dependent needs a hasMany through a hasMany whose source is a belongsTo");
  });
});

describe("guide: Through associations: soft delete and multi-tenancy narrow every hop", () => {
  it("a soft-deleted join row or tag is not reached, by the Relation or by includes", async () => {
    const { a1, red, blue } = await seed();
    await ThrTag.find(red.id).then((tag) => tag.destroy());
    await ThrTagging.findBy({ thrPostId: a1.id, thrTagId: blue.id }).then((tagging) => tagging!.destroy());
    expect(await a1.thrTags().count()).toBe(0);
    const [post] = await ThrPost.where({ id: a1.id }).includes("thrTags").toArray();
    expect(await post!.thrTags().toArray()).toEqual([]);
    const withDeleted = (ThrTagging.all() as unknown as { withDeleted(): typeof ThrTagging }).withDeleted();
    expect(await withDeleted.where({ thrPostId: a1.id }).count()).toBe(2);
  });

  it("multi-tenancy: each hop's rows are the current tenant's", async () => {
    const { TTag, TTagging, TPost } = tenantTaggedPosts();
    const post = await withTenant("a", () => TPost.create({ title: "p" }));
    const [mine, theirs] = await Promise.all([withTenant("a", () => TTag.create({ name: "mine" })), withTenant("b", () => TTag.create({ name: "theirs" }))]);
    await withTenant("a", () => TTagging.create({ thrPostId: post.id!, thrTagId: mine.id! }));
    await withTenant("b", () => TTagging.create({ thrPostId: post.id!, thrTagId: theirs.id! }));
    const { events, db } = listen();
    await withTenant("a", async () => {
      const read = await db.model(TPost).find(post.id);
      expect(names(await read.tTags().toArray())).toEqual(["mine"]);
      const [preloaded] = await db.model(TPost).where({ id: post.id }).includes("tTags").toArray();
      expect(names(await preloaded!.tTags().toArray())).toEqual(["mine"]);
    });
    expect(events[1]!.params.filter((param) => param === "a")).toHaveLength(2);
  });
});

describe("guide: Through associations: declarations", () => {
  const declare = (fields: (self: any) => Record<string, unknown>) => {
    class Declared extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override tableName = "thr_posts";
      static override binding = "DB";
      thrTaggings = hasMany(ThrTagging, { foreignKey: "thrPostId" });
      constructor() {
        super();
        Object.assign(this, fields(this));
      }
    }
    return Declared;
  };

  it("an unknown or misplaced option, or a through named wrong, is refused naming the Model, association and option", async () => {
    const refused = async (fields: (self: any) => Record<string, unknown>) => ((await thrown(() => declare(fields).all().toArray())) as Error).message;
    expect(await refused((self) => ({ tags: hasMany(ThrTag, { through: self.thrTaggings, dependant: "destroy" } as never) }))).toBe(
      "Declared.tags (hasMany): dependant is an unknown option (options: through, source, sourceType, scope, dependent)",
    );
    expect(await refused((self) => ({ tags: hasMany(ThrTag, { through: self.thrTaggings, foreignKey: "x" } as never) }))).toMatch(
      /^Declared.tags \(hasMany through\): foreignKey is not taken/,
    );
    expect(await refused(() => ({ tags: hasMany(ThrTag, { through: "taggings" } as never) }))).toBe("Declared.tags: through taggings is not an association of Declared");
    expect(await refused(() => ({ tags: hasMany(ThrTag, { through: undefined } as never) }))).toBe(
      "Declared.tags: through must be an association of Declared declared before tags (this.<association>)",
    );
    expect(await refused((self) => ({ tag: hasOne(ThrTag, { through: self.thrTaggings, dependent: "destroy" } as never) }))).toBe(
      "Declared.tag (hasOne): dependent is an unknown option (options: through, source, sourceType, scope)",
    );
  });

  it("a source that does not exist or reaches another Model, and a hasOne through a hasMany: InvalidModel at first use", async () => {
    const Missing = declare((self) => ({ things: hasMany(ThrTag, { through: self.thrTaggings }) }));
    const missing: any = await Missing.create({ title: "t" });
    expect(await thrown(() => missing.things().toArray())).toEqual(
      new InvalidModel("Declared.things: ThrTagging has several associations to ThrTag (thrTag, label); pass { source }"),
    );
    const Unknown = declare((self) => ({ things: hasMany(ThrTag, { through: self.thrTaggings, source: "thing" } as never) }));
    const unknown: any = await Unknown.create({ title: "t" });
    expect(await thrown(() => unknown.things().toArray())).toEqual(new InvalidModel("Declared.things: ThrTagging has no association thing (the source)"));
    const None = declare((self) => ({ things: hasMany(ThrBio, { through: self.thrTaggings }) }));
    const none: any = await None.create({ title: "t" });
    expect(await thrown(() => none.things().toArray())).toEqual(new InvalidModel("Declared.things: ThrTagging has no association things nor one to ThrBio; pass { source }"));
    const Other = declare((self) => ({ tags: hasMany(ThrComment, { through: self.thrTaggings, source: "thrTag" } as never) }));
    const other: any = await Other.create({ title: "t" });
    expect(await thrown(() => other.tags().toArray())).toEqual(new InvalidModel("Declared.tags: its source ThrTagging.thrTag reaches ThrTag, not ThrComment"));
    const One = declare((self) => ({ tag: hasOne(ThrTag, { through: self.thrTaggings, source: "thrTag" } as never) }));
    const one: any = await One.create({ title: "t" });
    expect(String(await thrown(() => one.tag.load()))).toMatch(/^InvalidModel: Declared.tag: a hasOne cannot go through a hasMany/);
    expect(await thrown(() => One.includes("tag" as never).toArray())).toBeInstanceOf(InvalidModel);
  });
  it("a polymorphic belongsTo as the association gone through, or as the source without sourceType: InvalidModel naming it", async () => {
    const { Comment, Post } = commentsOnPostsAndPhotos();
    class Liking extends Model({ id: "integer", commentId: "string" }) {
      static override binding = "DB";
      static override tableName = "pm_likes";
      comment = belongsTo(Comment, { foreignKey: "commentId" });
      post = hasOne(Post, { through: this.comment, source: "commentable" } as never);
      commentable = hasOne(Post, { through: this.comment } as never);
    }
    class Remark extends Model({ id: "string", commentableType: "string", commentableId: "string" }) {
      static override binding = "DB";
      static override tableName = "pm_comments";
      commentable = belongsTo([Post], { polymorphic: true });
      images = hasMany(ThrBio, { through: this.commentable, source: "image" } as never);
    }
    const liking: any = Liking.build({ commentId: "c" });
    for (const name of ["post", "commentable"]) {
      const error = await thrown(() => liking[name].load());
      expect(error).toBeInstanceOf(InvalidModel);
      expect(String(error)).toMatch(new RegExp(`^InvalidModel: Liking.${name}: its source Comment.commentable is a polymorphic belongsTo; add sourceType`));
    }
    const remark: any = Remark.build({});
    expect(String(await thrown(() => remark.images().toArray()))).toMatch(/^InvalidModel: Remark.images: Remark.commentable is a polymorphic belongsTo/);
  });
});

/** Posts on the tables of the tagged posts whose join Model (taggings) has no destroy callbacks. */
function postsTaggedWithoutCallbacks() {
  class PlainTagging extends Model({ id: "integer", thrPostId: { type: "integer", null: false }, thrTagId: { type: "integer", null: false } }) {
    static override tableName = "thr_taggings";
    static override binding = "DB";
    thrTag = belongsTo(ThrTag);
  }
  class PlainPost extends Model({ id: "integer", title: { type: "string", null: false } }) {
    static override tableName = "thr_posts";
    static override binding = "DB";
    plainTaggings = hasMany(PlainTagging, { foreignKey: "thrPostId" });
    thrTags = hasMany(ThrTag, { through: this.plainTaggings });
  }
  return PlainPost;
}
