import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, hasMany, MissingAttribute, Model, sql, withTenant } from "../../src/index.js";
import { expectNoTableScans } from "../../src/testing/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown, typeError } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { commentsOnPostsAndPhotos } from "../models/comments-on-posts-and-photos.js";
import { countedComments } from "../models/counted-comments.js";
import { threadedComments } from "../models/threaded-comments.js";
import { tenantTaggedPosts, ThrComment, ThrPost, ThrTag, ThrTagging, ThrWriter } from "../models/tagged-posts.js";

beforeEach(resetDatabase);

/** Posts a1 (2 comments, tags red and blue), a2 (1 comment, tag blue) and b1 (no comment, no tag), by ann and bob. */
async function seed() {
  const ann = await ThrWriter.create({ name: "ann" });
  const bob = await ThrWriter.create({ name: "bob" });
  const [red, blue] = await Promise.all(["red", "blue"].map((name) => ThrTag.create({ name })));
  const a1 = await ThrPost.create({ thrWriterId: ann.id, title: "a1" });
  const a2 = await ThrPost.create({ thrWriterId: ann.id, title: "a2" });
  const b1 = await ThrPost.create({ thrWriterId: bob.id, title: "b1" });
  for (const [post, tag] of [[a1, red], [a1, blue], [a2, blue]] as const) await ThrTagging.create({ thrPostId: post.id!, thrTagId: tag!.id! });
  for (const [post, body] of [[a1, "first"], [a1, "second"], [a2, "third"]] as const) await ThrComment.create({ thrPostId: post.id!, body });
  return { ann, bob, red: red!, blue: blue!, a1, a2, b1 };
}

const countsByTitle = (posts: ReadonlyArray<{ title: string; thrCommentsCount: number }>) => Object.fromEntries(posts.map((post) => [post.title, post.thrCommentsCount]));

describe("guide: Counts of associations", () => {
  it("withCount adds each record's count in the one SELECT: a correlated subquery under a reserved name", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const posts = await Post.withCount("thrComments").order({ title: "asc" }).toArray();
    expect(countsByTitle(posts)).toEqual({ a1: 2, a2: 1, b1: 0 });
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(
      `SELECT "thr_posts".*, ((SELECT COUNT(*) FROM "thr_comments" AS "recordflare_counted_0" WHERE ("thr_post_id" = "thr_posts"."id"))) AS "recordflare_count_thrComments" FROM "thr_posts" ORDER BY "title" ASC`,
    );
  });

  it("reads each count by the index on the foreign key: rows read are the query's own and each count's, no more", async () => {
    const { a1, a2, b1 } = await seed();
    await ThrComment.insertAll(Array.from({ length: 20 }, (_, index) => ({ thrPostId: a2.id!, body: `more ${index}` })));
    const { events, Post, Comment } = listen({ models: { Post: ThrPost, Comment: ThrComment } });
    const chosen = Post.where({ title: ["a1", "b1"] });
    const posts = await expectNoTableScans(() => chosen.withCount("thrComments").toArray(), { allow: ["thr_posts"] });
    expect(countsByTitle(posts)).toEqual({ a1: 2, b1: 0 });
    const counted = events[0]!.rowsRead;
    events.length = 0;
    await chosen.toArray();
    for (const post of [a1, b1]) await Comment.where({ thrPostId: post.id }).count();
    // What the SELECT alone reads, and each count alone (its comments by the index, and the probe past them): a2's
    // 21 comments are never read.
    expect(counted).toBe(events.reduce((sum, event) => sum + event.rowsRead, 0));
    expect(counted).toBeLessThan(21);
  });

  it("first, find, findBy and several names; records loaded without it have no count", async () => {
    const { a1, a2 } = await seed();
    const first = (await ThrPost.withCount("thrComments", "thrTags").order({ title: "asc" }).first())!;
    expect([first.thrCommentsCount, first.thrTagsCount]).toEqual([2, 2]);
    expect((await ThrPost.withCount("thrComments").find(a2.id)).thrCommentsCount).toBe(1);
    expect((await ThrPost.withCount("thrTags").findBy({ title: "a2" }))!.thrTagsCount).toBe(1);
    const plain = (await ThrPost.find(a1.id)) as unknown as { thrCommentsCount: number };
    const error = (await thrown(() => plain.thrCommentsCount)) as Error;
    expect(error).toBeInstanceOf(MissingAttribute);
    expect(error.message).toBe(`ThrPost#thrCommentsCount is not loaded; query with ThrPost.withCount("thrComments")`);
  });

  it("an object narrows what is counted; names and objects mix", async () => {
    await seed();
    const posts = await ThrPost.withCount({ thrComments: (q) => q.where({ body: "first" }) }, "thrTags").order({ title: "asc" }).toArray();
    expect(posts.map((post) => [post.title, post.thrCommentsCount, post.thrTagsCount])).toEqual([
      ["a1", 1, 2],
      ["a2", 0, 1],
      ["b1", 0, 0],
    ]);
  });

  it("through: counts each target once, leaving out soft-deleted targets and join rows (their default scope)", async () => {
    const { a1, red, blue } = await seed();
    await ThrTagging.create({ thrPostId: a1.id!, thrTagId: red.id! });
    expect((await ThrPost.withCount("thrTags").find(a1.id)).thrTagsCount).toBe(2);
    await red.destroy();
    expect((await ThrPost.withCount("thrTags").find(a1.id)).thrTagsCount).toBe(1);
    const [tagging] = await ThrTagging.where({ thrPostId: a1.id, thrTagId: blue.id }).toArray();
    await tagging!.destroy();
    const post = await ThrPost.withCount("thrTags").find(a1.id);
    expect(post.thrTagsCount).toBe(0);
    expect(post.thrTagsCount).toBe(await (await ThrPost.find(a1.id)).thrTags().count());
  });

  it("a through a through: a writer's comments through posts", async () => {
    await seed();
    const writers = await ThrWriter.withCount("thrComments", "thrTags").order({ name: "asc" }).toArray();
    expect(writers.map((writer) => [writer.name, writer.thrCommentsCount, writer.thrTagsCount])).toEqual([
      ["ann", 3, 2],
      ["bob", 0, 0],
    ]);
  });

  it("polymorphic as: counts the rows whose type names the owner's Model", async () => {
    const { Post, Photo, Comment } = commentsOnPostsAndPhotos();
    const post = await Post.create({ id: "1", title: "p" });
    const photo = await Photo.create({ id: 1, caption: "c" });
    await Comment.create({ commentableType: "Post", commentableId: post.id, body: "on post" });
    for (const body of ["x", "y"]) await Comment.create({ commentableType: "Photo", commentableId: String(photo.id), body });
    expect((await Post.withCount("comments").find("1")).commentsCount).toBe(1);
    expect((await Photo.withCount("comments").find(1)).commentsCount).toBe(2);
  });

  it("a count that binds values (an as: association's type) leaves the queries that select something else intact", async () => {
    const { Post, Comment } = commentsOnPostsAndPhotos();
    for (const id of ["1", "2", "3"]) await Post.create({ id, title: `t${id}` });
    await Comment.create({ commentableType: "Post", commentableId: "1", body: "on post" });
    const counted = () => Post.withCount("comments").order({ id: "asc" });
    expect(await counted().pluck("title")).toEqual(["t1", "t2", "t3"]);
    expect(await counted().count()).toBe(3);
    expect(await counted().limit(2).count()).toBe(2);
    expect(await counted().exists()).toBe(true);
    const page = await counted().paginate({ page: 1, perPage: 2 });
    expect([page.total, page.records.map((post) => post.commentsCount)]).toEqual([3, [1, 0]]);
    expect(await counted().limit(1).updateAll({ title: "first" })).toBe(1);
    expect(await counted().offset(2).deleteAll()).toBe(1);
    expect(await Post.order({ id: "asc" }).pluck("title")).toEqual(["first", "t2"]);
  });

  it("a Model counting its own table (replies of comments) counts the children, never the row itself", async () => {
    const { User, Comment } = threadedComments();
    const user = await User.create({ name: "u" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    for (const body of ["r1", "r2"]) await Comment.create({ tcUserId: user.id, parentId: root.id, body });
    const counts = await Comment.withCount("replies").order({ id: "asc" }).pluck("body");
    expect(counts).toEqual(["root", "r1", "r2"]);
    const comments = await Comment.withCount("replies").order({ id: "asc" }).toArray();
    expect(comments.map((comment) => comment.repliesCount)).toEqual([2, 0, 0]);
  });

  it("a scope may count in turn: whereCount inside a withCount scope correlates to the scope's rows, its own table too", async () => {
    const { ann, bob } = await seed();
    const busy = { thrPosts: (q: any) => q.whereCount("thrComments", ">", 0) };
    const writers = await ThrWriter.withCount(busy).order({ id: "asc" }).toArray();
    expect(writers.map((writer) => [writer.name, writer.thrPostsCount])).toEqual([
      [ann.name, 2],
      [bob.name, 0],
    ]);
    const { User, Comment } = threadedComments();
    const user = await User.create({ name: "u" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    const r1 = await Comment.create({ tcUserId: user.id, parentId: root.id, body: "r1" });
    await Comment.create({ tcUserId: user.id, parentId: root.id, body: "r2" });
    await Comment.create({ tcUserId: user.id, parentId: r1.id, body: "r1.1" });
    // The replies that have replies: root has one (r1), r1 none (its reply r1.1 has none).
    const answered = await Comment.withCount({ replies: (q: any) => q.whereCount("replies", ">", 0) }).order({ id: "asc" }).toArray();
    expect(answered.map((comment) => [comment.body, comment.repliesCount])).toEqual([
      ["root", 1],
      ["r1", 0],
      ["r2", 0],
      ["r1.1", 0],
    ]);
  });

  it("a through back to the owner's own table (a comment's siblings through its post) correlates to the owner's row", async () => {
    class Sibling extends Model({ id: "integer", thrPostId: { type: "integer", null: false }, body: { type: "string", null: false } }) {
      static override tableName = "thr_comments";
      static override binding = "DB";
      thrPost = belongsTo(ThrPost);
      siblings = hasMany(ThrComment, { through: this.thrPost, source: "thrComments" });
    }
    const { a1 } = await seed();
    await ThrComment.create({ thrPostId: a1.id!, body: "third on a1" });
    const counts = await Sibling.withCount("siblings").order({ id: "asc" }).toArray();
    expect(counts.map((comment) => [comment.body, comment.siblingsCount])).toEqual([
      ["first", 3],
      ["second", 3],
      ["third", 1],
      ["third on a1", 3],
    ]);
  });

  it("multi-tenancy: a count never counts another tenant's rows, at any hop", async () => {
    const { TTag, TTagging, TPost } = tenantTaggedPosts();
    const post = await withTenant("a", () => TPost.create({ title: "p" }));
    const [mine, ...theirs] = await Promise.all(["mine", "theirs", "others"].map((name) => withTenant(name === "mine" ? "a" : "b", () => TTag.create({ name }))));
    await withTenant("a", () => TTagging.create({ thrPostId: post.id!, thrTagId: mine!.id! }));
    // A tagging of tenant a's to tenant b's tag: counted among a's taggings, never among a's tags.
    await withTenant("a", () => TTagging.create({ thrPostId: post.id!, thrTagId: theirs[0]!.id! }));
    for (const tag of theirs) await withTenant("b", () => TTagging.create({ thrPostId: post.id!, thrTagId: tag.id! }));
    const { events, db } = listen();
    const counted = await withTenant("a", () => db.model(TPost).withCount("tTaggings", "tTags").find(post.id));
    expect([counted.tTaggingsCount, counted.tTagsCount]).toEqual([2, 1]);
    expect(events[0]!.params.every((param) => param !== "b")).toBe(true);
  });

  it("paginate: the page's records carry their counts, the count and the page in one round trip", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const page = await Post.withCount("thrComments").order({ title: "asc" }).paginate({ page: 1, perPage: 2 });
    expect(countsByTitle(page.records)).toEqual({ a1: 2, a2: 1 });
    expect(page.total).toBe(3);
    expect(new Set(events.map((event) => event.roundTrip)).size).toBe(1);
    // The total counts rows, never the comments.
    expect(events[0]!.sql).not.toContain("thr_comments");
  });

  it("last() reverses an orderByCount: the app wrote no sql (IrreversibleOrder is for an sql order alone)", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const most = await Post.withCount("thrComments").orderByCount("thrComments", "asc").last();
    expect([most!.title, most!.thrCommentsCount]).toEqual(["a1", 2]);
    expect(events[0]!.sql).toMatch(/ORDER BY \(SELECT COUNT\(\*\) .*\) DESC LIMIT 1$/);
    expect((await Post.orderByCount("thrComments", "desc").last())!.title).toBe("b1");
    // With other terms, each reversed; last(n) reads them back in the Relation's order.
    const lastTwo = await Post.orderByCount("thrTags", "desc").order({ title: "desc" }).last(2);
    expect(lastTwo.map((post) => post.title)).toEqual(["a2", "b1"]);
    expect(await Post.orderByCount("thrComments").last(3)).toHaveLength(3);
  });

  it("a count is read-only: assigning it throws TypeError naming the Model and the count", async () => {
    const { a1 } = await seed();
    const post = (await ThrPost.withCount("thrComments").find(a1.id))!;
    const error = await thrown(() => {
      (post as { thrCommentsCount: number }).thrCommentsCount = 10;
    });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`ThrPost#thrCommentsCount is read-only: the query computes it (withCount("thrComments")); change the thrComments themselves`);
    expect(post.thrCommentsCount).toBe(2);
  });

  it("whereCount and orderByCount: on the count, with the scope withCount gave it; the page's total agrees", async () => {
    await seed();
    const many = await ThrPost.withCount("thrComments").whereCount("thrComments", ">=", 1).orderByCount("thrComments", "desc").toArray();
    expect(many.map((post) => [post.title, post.thrCommentsCount])).toEqual([
      ["a1", 2],
      ["a2", 1],
    ]);
    expect(await ThrPost.whereCount("thrComments", "=", 0).pluck("title")).toEqual(["b1"]);
    const scoped = ThrPost.withCount({ thrComments: (q) => q.where({ body: "third" }) }).whereCount("thrComments", ">", 0);
    expect(await scoped.pluck("title")).toEqual(["a2"]);
    const page = await ThrPost.whereCount("thrComments", ">", 0).orderByCount("thrComments").paginate({ perPage: 1 });
    expect([page.total, page.records.map((post) => post.title)]).toEqual([2, ["a2"]]);
    expect(await ThrPost.orderByCount("thrTags", "desc").order({ title: "desc" }).pluck("title")).toEqual(["a1", "a2", "b1"]);
    const { events, Post } = listen({ models: { Post: ThrPost } });
    expect(await Post.withCount("thrComments").orderByCount("thrComments").limit(2).count()).toBe(2);
    expect(await Post.withCount("thrComments").exists()).toBe(true);
    expect(events.map((event) => event.sql.includes("recordflare_count_thrComments"))).toEqual([false, false]);
  });

  it("size(), isEmpty() and hasAny() answer from a loaded count without a query; a scoped count does not", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const [a1, , b1] = await Post.withCount("thrComments", "thrTags").order({ title: "asc" }).toArray();
    events.length = 0;
    expect(await a1!.thrComments().size()).toBe(2);
    expect(await a1!.thrTags().size()).toBe(2);
    expect(await b1!.thrComments().isEmpty()).toBe(true);
    expect(await b1!.thrTags().hasAny()).toBe(false);
    expect(events).toHaveLength(0);
    const [scoped] = await Post.withCount({ thrComments: (q) => q.where({ body: "first" }) }).order({ title: "asc" }).toArray();
    events.length = 0;
    expect([scoped!.thrCommentsCount, await scoped!.thrComments().size()]).toEqual([1, 2]);
    expect(events).toHaveLength(1);
  });

  it("with includes: one round trip, the preload's source computing no count", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const posts = await Post.withCount("thrComments").includes("thrComments").order({ title: "asc" }).toArray();
    expect(countsByTitle(posts)).toEqual({ a1: 2, a2: 1, b1: 0 });
    expect(new Set(events.map((event) => event.roundTrip)).size).toBe(1);
    expect(events.filter((event) => event.sql.includes("COUNT(*)"))).toHaveLength(1);
    expect((await posts[0]!.thrComments().toArray()).length).toBe(posts[0]!.thrCommentsCount);
  });

  it("a save keeps the count (it counts other rows); reload drops it, as Rails drops a query's extra columns", async () => {
    const { a1 } = await seed();
    const post = await ThrPost.withCount("thrComments").find(a1.id);
    await post.update({ title: "renamed" });
    expect(post.thrCommentsCount).toBe(2);
    await post.reload();
    expect(await thrown(() => post.thrCommentsCount)).toBeInstanceOf(MissingAttribute);
  });

  it("refuses, naming the Model and method: an unknown name, a belongsTo, a counter cache's attribute, bad operators and scopes", async () => {
    const { Post } = countedComments();
    const cases: Array<[() => unknown, string]> = [
      [() => (ThrPost as any).withCount("nope"), "ThrPost.withCount: nope is not an association of ThrPost"],
      [() => (ThrPost as any).withCount(), "ThrPost.withCount needs the name of a hasMany association"],
      [() => (ThrPost as any).withCount("thrWriter"), "ThrPost.withCount: thrWriter is a belongsTo; only a hasMany's records are counted"],
      [() => (ThrPost as any).withCount({ thrComments: 1 }), "ThrPost.withCount: the scope of thrComments must be a function of the Relation, not 1"],
      [() => (ThrPost as any).whereCount("thrComments", "LIKE", 1), `ThrPost.whereCount: the operator must be one of =, !=, >, >=, <, <=, not "LIKE"`],
      [() => (ThrPost as any).whereCount("thrComments", ">", "1"), `ThrPost.whereCount: the count is compared with a whole number, not "1"`],
      [() => (ThrPost as any).orderByCount("thrComments", "up"), `ThrPost.orderByCount: the direction must be "asc" or "desc", not "up"`],
      [() => (Post as any).withCount("comments"), "Post.withCount: Post has an attribute commentsCount (a counter cache?), which the count would hide; read it, or count with comments().count()"],
    ];
    for (const [call, message] of cases) expect(typeError(call)).toBe(message);
    // A scope is read when the count is asked for, so a bad one is refused there, before any query.
    expect(typeError(() => ThrPost.withCount({ thrComments: (q) => q.limit(1) }))).toBe(
      "ThrPost.withCount: thrComments: a scope with a limit or offset cannot be counted (one COUNT does not page each owner's rows)",
    );
    expect(typeError(() => ThrPost.withCount({ thrComments: () => ThrTag.all() as never }))).toMatch(/^ThrPost\.withCount: thrComments: the scope must return a Relation of ThrComment/);
  });
});

describe("whereCount and orderByCount beside a counter cache", () => {
  it("count the association though an attribute <name>Count exists: they load no column that would hide it", async () => {
    const { Post, Comment } = countedComments();
    const busy = await Post.createOrThrow({ id: "p1", title: "busy", commentsCount: 0 });
    await Post.createOrThrow({ id: "p2", title: "quiet", commentsCount: 0 });
    await Comment.createOrThrow({ id: "c1", ccPostId: busy.id, body: "a", repliesCount: 0 });
    await Comment.createOrThrow({ id: "c2", ccPostId: busy.id, body: "b", repliesCount: 0 });
    expect((await Post.whereCount("comments", ">=", 2).toArray()).map((post) => post.title)).toEqual(["busy"]);
    expect((await Post.orderByCount("comments", "asc").toArray()).map((post) => post.title)).toEqual(["quiet", "busy"]);
    const loaded = await Post.whereCount("comments", ">", 0).first();
    // The record reads its own column, the counter cache.
    expect(loaded!.commentsCount).toBe(2);
  });
});

describe("withCount: within D1's limit of 100 columns in a result", () => {
  it("counts a name given many times once, by its last scope", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const names = Array.from({ length: 150 }, () => "thrComments" as const);
    const posts = await Post.withCount(...(names as ["thrComments"])).order({ title: "asc" }).toArray();
    expect(countsByTitle(posts)).toEqual({ a1: 2, a2: 1, b1: 0 });
    expect(events[0]!.sql.match(/SELECT COUNT\(\*\)/g)).toHaveLength(1);
    const firsts = await Post.withCount("thrComments", { thrComments: (q) => q.where({ body: "first" }) }).order({ title: "asc" }).toArray();
    expect(countsByTitle(firsts)).toEqual({ a1: 1, a2: 0, b1: 0 });
    expect(events[1]!.sql.match(/SELECT COUNT\(\*\)/g)).toHaveLength(1);
  });

  it("counts by a scope whatever its order, which a count drops", async () => {
    await seed();
    const { events, Post } = listen({ models: { Post: ThrPost } });
    const ordered = (q: any) => Array.from({ length: 120 }, (_, index) => index).reduce((relation, index) => relation.order(sql`${index}`), q.where({ body: "first" }));
    const posts = await Post.withCount({ thrComments: ordered }).order({ title: "asc" }).toArray();
    expect(countsByTitle(posts)).toEqual({ a1: 1, a2: 0, b1: 0 });
    expect(events[0]!.sql).not.toMatch(/\(SELECT COUNT\(\*\)[^)]*ORDER BY/);
    expect(events[0]!.params).toEqual(["first"]);
  });

  it("refuses a count beside 100 attributes with TypeError naming the Model, before anything is sent; with select it runs", async () => {
    class WideOwner extends ApplicationRecord("wide_rows") {
      thrComments = hasMany(ThrComment, { foreignKey: "thrPostId" });
    }
    const { db, events } = listen();
    const owners = db.model(WideOwner);
    const refused = /^WideOwner: a SELECT of 100 attributes and 1 computed columns \(withCount's\) is over D1's limit of 100 columns; it was not sent$/;
    await expect(owners.withCount("thrComments").toArray()).rejects.toThrow(refused);
    await expect(owners.withCount("thrComments").first()).rejects.toThrow(refused);
    expect(events).toHaveLength(0);
    expect(await owners.select("c01").withCount("thrComments").toArray()).toEqual([]);
  });
});

describe("guide: Counts of associations: a hasMany with a scope", () => {
  it("a hasMany with a scope counts what the association reads", async () => {
    class Scoped extends Model({ id: "integer", title: { type: "string", null: false } }) {
      static override tableName = "thr_posts";
      static override binding = "DB";
      firsts = hasMany(ThrComment, { foreignKey: "thrPostId", scope: (q) => q.where({ body: "first" }) });
    }
    const { a1 } = await seed();
    const post = await Scoped.withCount("firsts").find(a1.id);
    expect([post.firstsCount, await post.firsts().count()]).toEqual([1, 1]);
  });
});
