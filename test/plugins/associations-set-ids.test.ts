import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { CastError, type QueryEvent, RecordInvalid, RecordNotFound, RecordNotSaved, RecordNotUnique } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { SET_IDS_TABLES, setIdsPosts, type SetIdsPosts } from "../models/set-ids-posts.js";

beforeEach(async () => {
  await env.DB.batch(SET_IDS_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** The statements of each round trip, in order, from a connection's query events. */
function roundTrips(events: readonly QueryEvent[]): string[][] {
  const trips = new Map<number, string[]>();
  for (const event of events) trips.set(event.roundTrip, [...(trips.get(event.roundTrip) ?? []), event.sql]);
  return [...trips.values()];
}

/** Rows as stored, read straight from D1. */
async function rows(query: string): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare(query).all()).results;
}

/** The comments' post keys as stored, by body. */
async function commentPosts(): Promise<Record<string, unknown>> {
  return Object.fromEntries((await rows("SELECT body, si_post_id FROM si_comments ORDER BY body")).map((row) => [row["body"], row["si_post_id"]]));
}

/** The posts' comment counters as stored, by title. */
async function counters(): Promise<Record<string, unknown>> {
  return Object.fromEntries((await rows("SELECT title, si_comments_count FROM si_posts ORDER BY title")).map((row) => [row["title"], row["si_comments_count"]]));
}

/** Post a with comments a1 and a2, post b with b1, and a free comment; counters right. */
async function seed({ SiPost, SiComment }: SetIdsPosts) {
  const a = await SiPost.createOrThrow({ title: "a", siCommentsCount: 0 });
  const b = await SiPost.createOrThrow({ title: "b", siCommentsCount: 0 });
  const a1 = await SiComment.createOrThrow({ siPostId: a.id, body: "a1" });
  const a2 = await SiComment.createOrThrow({ siPostId: a.id, body: "a2" });
  const b1 = await SiComment.createOrThrow({ siPostId: b.id, body: "b1" });
  const free = await SiComment.createOrThrow({ siPostId: null, body: "free" });
  return { a, b, a1, a2, b1, free };
}

/** Album "1" and photo "1" (text keys: the same on both Models), and `pictures`; the album. */
async function seedHolders({ SiAlbum, SiPhoto, SiPicture }: SetIdsPosts, pictures: Parameters<SetIdsPosts["SiPicture"]["insertAll"]>[0]) {
  const album = await SiAlbum.createOrThrow({ id: "1", name: "album" });
  await SiPhoto.createOrThrow({ id: "1", name: "photo" });
  await SiPicture.insertAll(pictures);
  return album;
}

/** The models bound to a connection whose query events are collected, and post `id` loaded through it. */
async function listening(models: SetIdsPosts, id: number) {
  const listened = listen({ models: { SiPost: models.SiPost, SiAlbum: models.SiAlbum } });
  const post = await listened.SiPost.find(id);
  listened.events.length = 0;
  return { ...listened, post };
}

describe("guide: Replacing the children, hasMany setIds and set (Rails' comment_ids= and comments=)", () => {
  it("setIds makes the rows of those keys the children and unlinks the others: one read, then one write batch", async () => {
    const models = setIdsPosts();
    const { a, b1, a2, free } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    await post.comments().setIds([a2.id!, String(b1.id) as never, free.id!]);

    const trips = roundTrips(events);
    expect(trips).toHaveLength(2);
    expect(trips[0]).toHaveLength(1);
    // The keys bound as one JSON value.
    expect(trips[0]![0]).toMatch(/^SELECT "si_comments"\.\* FROM \(SELECT value AS "recordflare_list_value" FROM json_each\(\?1\)\)/);
    expect(trips[1]!.every((statement) => /^(UPDATE|DELETE)/.test(statement))).toBe(true);
    expect(await commentPosts()).toEqual({ a1: null, a2: a.id, b1: a.id, free: a.id });
    // The counter caches, in the same batch: a gained b1 and free and lost a1; b lost b1.
    expect(await counters()).toEqual({ a: 3, b: 0 });
    expect(post.siCommentsCount).toBe(3);

    // The association holds the new children: no query.
    events.length = 0;
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["a2", "b1", "free"]);
    expect(await post.comments().size()).toBe(3);
    expect(events).toHaveLength(0);
  });

  it("set takes records: a new one is inserted with the owner's key; without a read, one round trip", async () => {
    const models = setIdsPosts();
    const { a, b, a1, b1 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    await post.comments().set([a1, b1, models.SiComment.build({ body: "new" })]);
    expect(roundTrips(events)).toHaveLength(1);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: null, b1: a.id, free: null, new: a.id });
    expect(await counters()).toEqual({ a: 3, b: 0 });
    // The child's belongsTo holds its new parent.
    expect(b1.siPost.get()).toBe(post);
    expect(b1.siPostId).toBe(a.id);
    expect(b.id).not.toBe(a.id);
  });

  it("a child already the owner's is not saved again; nothing to change sends only the unlinking UPDATE and its counter's", async () => {
    const models = setIdsPosts({ callbacks: true });
    const { a, a1, a2 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    models.log.length = 0;
    await post.comments().set([a1, a2]);
    expect(models.log).toEqual([]);
    expect(roundTrips(events)).toEqual([[expect.stringMatching(/^UPDATE "si_posts" SET "si_comments_count"/), expect.stringMatching(/^UPDATE "si_comments" SET "si_post_id" = \?1 WHERE/)]]);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: expect.any(Number), free: null });
  });

  it("dependent destroy: the children left out are read with the targets, then destroyed with their callbacks in the batch", async () => {
    const models = setIdsPosts({ comments: "destroy", callbacks: true });
    const { a, a1, a2, free } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    models.log.length = 0;
    await post.comments().setIds([a2.id!, free.id!]);
    const trips = roundTrips(events);
    expect(trips).toHaveLength(2);
    expect(trips[0]).toHaveLength(2);
    expect(models.log).toEqual(["destroy a1", "save free"]);
    expect(await commentPosts()).toEqual({ a2: a.id, b1: expect.any(Number), free: a.id });
    expect(await counters()).toEqual({ a: 2, b: 1 });
    expect(a1.id).toBeDefined();
  });

  it("dependent deleteAll deletes the rows left out with one DELETE, the counter kept", async () => {
    const models = setIdsPosts({ comments: "deleteAll" });
    const { a, b1 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    await post.comments().setIds([b1.id!]);
    expect(roundTrips(events)).toHaveLength(2);
    expect(roundTrips(events)[1]!.filter((statement) => statement.startsWith("DELETE"))).toHaveLength(1);
    expect(await commentPosts()).toEqual({ b1: a.id, free: null });
    expect(await counters()).toEqual({ a: 1, b: 0 });
  });

  it("setIds([]) and set([]) with a deleting dependent need no read: one round trip", async () => {
    const models = setIdsPosts({ comments: "deleteAll" });
    const { a } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    await post.comments().setIds([]);
    expect(roundTrips(events)).toHaveLength(1);
    expect(await commentPosts()).toEqual({ b1: expect.any(Number), free: null });
    expect(await counters()).toEqual({ a: 0, b: 1 });
  });

  it("a NOT NULL foreign key and no dependent that deletes: RecordNotSaved naming Model, association and method; nothing written", async () => {
    const models = setIdsPosts();
    const { a, b } = await seed(models);
    const kept = await models.SiNote.createOrThrow({ siPostId: a.id!, body: "kept" });
    const left = await models.SiNote.createOrThrow({ siPostId: a.id!, body: "left" });
    const moved = await models.SiNote.createOrThrow({ siPostId: b.id!, body: "moved" });
    const post = await models.SiPost.find(a.id!);
    const error = await rejectionOf(post.notes().setIds([kept.id!, moved.id!]));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe(
      `SiPost.notes.setIds: SiNote ${left.id} would be left out, but SiNote.siPostId is NOT NULL; give notes dependent: "destroy" or "deleteAll" to remove the children left out, or keep them in the list`,
    );
    await expect(post.notes().set([])).rejects.toThrow("SiPost.notes.set: SiNote");
    const notes = async () => (await rows("SELECT body, si_post_id FROM si_notes ORDER BY body")).map((row) => `${row["body"]} ${row["si_post_id"]}`);
    expect(await notes()).toEqual([`kept ${a.id}`, `left ${a.id}`, `moved ${b.id}`]);
    // Keeping every child is no removal: the note moves.
    await post.notes().setIds([kept.id!, left.id!, moved.id!]);
    expect(await notes()).toEqual([`kept ${a.id}`, `left ${a.id}`, `moved ${a.id}`]);
    // With a dependent that deletes, the notes left out go.
    const deleting = setIdsPosts({ notes: "deleteAll" });
    await (await deleting.SiPost.find(a.id!)).notes().setIds([moved.id!]);
    expect(await notes()).toEqual([`moved ${a.id}`]);
  });

  it("a key with no row: RecordNotFound naming the Model and each missing key once, as given; nothing written", async () => {
    const models = setIdsPosts();
    const { a, b1 } = await seed(models);
    const post = await models.SiPost.find(a.id!);
    const error = await rejectionOf(post.comments().setIds([b1.id!, 999, "999", "998"] as never));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).toBe('SiPost.comments.setIds: no SiComment with id 999, "998"');
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: expect.any(Number), free: null });
  });

  it("bad input is a TypeError naming the method, before anything is sent; blanks stand for no key", async () => {
    const models = setIdsPosts();
    const { a, a1 } = await seed(models);
    const { events, post, SiAlbum } = await listening(models, a.id!);
    await expect(post.comments().setIds(5 as never)).rejects.toThrow("SiPost.comments.setIds takes a list of keys, not 5");
    const uncastable = await rejectionOf(post.comments().setIds([a1.id!, { id: a1.id } as never]));
    expect(uncastable).toBeInstanceOf(CastError);
    expect(uncastable.message).toBe(`SiPost.comments.setIds: { id: ${a1.id} } is no key of SiComment (id)`);
    await expect(post.comments().set(a1 as never)).rejects.toThrow("SiPost.comments.set takes a list of records of SiComment, not");
    await expect(post.comments().set([SiAlbum.build({ name: "x" }) as never])).rejects.toThrow("SiPost.comments.set takes records of SiComment, not");
    const unsaved = models.SiPost.build({ title: "new", siCommentsCount: 0 });
    await expect(unsaved.comments().setIds([a1.id!])).rejects.toThrow("SiPost.comments.setIds: the SiPost is not saved yet; save it first, or build its children with build or attach them with add");
    expect(events).toHaveLength(0);
    // A value the key cannot take is no row's key, as for find: refused after the read, with nothing written.
    const noRow = await rejectionOf(post.comments().setIds(["x", "x", 998] as never));
    expect(noRow).toBeInstanceOf(RecordNotFound);
    expect(noRow.message).toBe('SiPost.comments.setIds: no SiComment with id "x", 998');
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["SELECT"]);
    // A form's multi-select sends "" for none, as Rails drops blanks.
    await post.comments().setIds(["", null] as never);
    expect(await commentPosts()).toEqual({ a1: null, a2: null, b1: expect.any(Number), free: null });
  });

  it("500 keys: read by one bound value, every statement within 100 parameters, all written in one batch", async () => {
    const models = setIdsPosts();
    const { a } = await seed(models);
    const many = Array.from({ length: 500 }, (_, index) => ({ body: `many ${index}` }));
    await models.SiComment.insertAll(many);
    const ids = (await models.SiComment.where({ siPostId: null }).pluck("id")) as number[];
    expect(ids).toHaveLength(501);
    const { events, post } = await listening(models, a.id!);
    await post.comments().setIds(ids);
    expect(roundTrips(events)).toHaveLength(2);
    expect(Math.max(...events.map((event) => event.params.length))).toBeLessThanOrEqual(100);
    expect(events[0]!.params).toHaveLength(1);
    expect((await rows(`SELECT COUNT(*) AS n FROM si_comments WHERE si_post_id = ${a.id}`))[0]!["n"]).toBe(501);
    expect(await counters()).toEqual({ a: 501, b: 1 });
  });

  it("as: the type is written with the key; the children left out lose both; another Model's rows of the same key stay", async () => {
    const models = setIdsPosts();
    const album = await seedHolders(models, [
      { id: "p1", holderType: "SiAlbum", holderId: "1", name: "on the album" },
      { id: "p2", holderType: "SiPhoto", holderId: "1", name: "on the photo" },
      { id: "p3", holderType: null, holderId: null, name: "free" },
    ]);
    await album.pictures().setIds(["p3"]);
    expect(await rows("SELECT id, holder_type, holder_id FROM si_pictures ORDER BY id")).toEqual([
      { id: "p1", holder_type: null, holder_id: null },
      { id: "p2", holder_type: "SiPhoto", holder_id: "1" },
      { id: "p3", holder_type: "SiAlbum", holder_id: "1" },
    ]);
    const reread = await models.SiAlbum.find("1");
    expect((await reread.pictures().toArray()).map((picture) => picture.id)).toEqual(["p3"]);
  });

  it("a scope: the children outside it stay the owner's; the keys are found among all the Model's rows", async () => {
    const models = setIdsPosts();
    const { a, a2 } = await seed(models);
    const short = await models.SiComment.createOrThrow({ siPostId: a.id!, body: "short" });
    const post = await models.SiPost.find(a.id!);
    await post.shortComments().setIds([a2.id!]);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: expect.any(Number), free: null, short: null });
    expect(short.id).toBeDefined();
  });

  it("a preloaded association holds the new children; a refused save writes nothing and leaves the records as they were", async () => {
    const models = setIdsPosts({ refuse: "late" });
    const { a, b1 } = await seed(models);
    await models.SiComment.insertAll([{ body: "late" }]);
    const late = (await models.SiComment.findBy({ body: "late" }))!;
    const { events, SiPost } = listen({ models: { SiPost: models.SiPost } });
    const post = (await SiPost.includes("comments").where({ id: a.id! }).first())!;
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["a1", "a2"]);
    await post.comments().setIds([b1.id!]);
    events.length = 0;
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["b1"]);
    expect(events).toHaveLength(0);

    const error = await rejectionOf(post.comments().set([late]));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe("late refused");
    expect(late.siPostId).toBeNull();
    expect(late.isChanged()).toBe(false);
    expect(await commentPosts()).toEqual({ a1: null, a2: null, b1: a.id, free: null, late: null });
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["b1"]);
  });
});

describe("guide: Adding and removing children, hasMany add and remove (Rails' << and delete)", () => {
  it("add points each record at the owner and saves it with its callbacks: one batch, no read, counters kept in it", async () => {
    const models = setIdsPosts({ callbacks: true });
    const { a, b, b1, free } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    models.log.length = 0;
    const fresh = models.SiComment.build({ body: "fresh" });
    await post.comments().add(b1, free, fresh);

    const trips = roundTrips(events);
    expect(trips).toHaveLength(1);
    expect(trips[0]!.filter((statement) => statement.startsWith("SELECT"))).toEqual([]);
    expect(models.log).toEqual(["save b1", "save free", "save fresh"]);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: a.id, free: a.id, fresh: a.id });
    expect(await counters()).toEqual({ a: 5, b: 0 });
    // The owner's counter in memory, as stored; each record holds the owner as its parent.
    expect(post.siCommentsCount).toBe(5);
    expect(post.isChanged()).toBe(false);
    expect(fresh.isNewRecord()).toBe(false);
    expect(b1.siPost.get()).toBe(post);
    expect(b.id).not.toBe(a.id);
  });

  it("add to a loaded association appends the records, answering without a query; a child already the owner's is saved in place", async () => {
    const models = setIdsPosts();
    const { a, a1, b1 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["a1", "a2"]);
    a1.body = "a1 edited";
    await post.comments().add(a1, b1);
    events.length = 0;
    // a1 was loaded as another record of the same row: the one given takes its place.
    const held = await post.comments().toArray();
    expect(held.map((comment) => comment.body)).toEqual(["a2", "a1 edited", "b1"]);
    expect(held).toContain(a1);
    expect(await post.comments().size()).toBe(3);
    expect(events).toHaveLength(0);
    expect(await commentPosts()).toEqual({ "a1 edited": a.id, a2: a.id, b1: a.id, free: null });
    expect(await counters()).toEqual({ a: 3, b: 0 });
  });

  it("add of an invalid or refused record writes none and throws as saveOrThrow; the records keep their keys", async () => {
    const models = setIdsPosts({ refuse: "late" });
    const { a, b, b1, free } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    const invalid = await rejectionOf(post.comments().add(b1, models.SiComment.build({ body: "" })));
    expect(invalid).toBeInstanceOf(RecordInvalid);
    expect(invalid.message).toBe("SiComment is invalid: Body can't be blank");
    // Refused before anything was sent.
    expect(events).toHaveLength(0);
    expect(b1.siPostId).toBe(b.id);
    expect(b1.isChanged()).toBe(false);

    const late = models.SiComment.build({ body: "late" });
    const refused = await rejectionOf(post.comments().add(free, late));
    expect(refused).toBeInstanceOf(RecordNotSaved);
    expect(refused.message).toBe("late refused");
    expect(free.siPostId).toBeNull();
    expect(late.isNewRecord()).toBe(true);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: b.id, free: null });
    expect(await counters()).toEqual({ a: 2, b: 1 });
    expect(post.siCommentsCount).toBe(2);
  });

  it("a database error fails the whole batch: nothing written, keys put back", async () => {
    const models = setIdsPosts();
    const { a, a1, b, b1, free } = await seed(models);
    const post = await models.SiPost.find(a.id!);
    // A key another row has: D1 refuses the INSERT, after the other saves were sent in the batch.
    const clash = models.SiComment.build({ id: a1.id!, body: "clash" });
    const error = await rejectionOf(post.comments().add(b1, free, clash));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(error.message).toBe("SiComment.id has already been taken (si_comments.id must be unique)");
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: b.id, free: null });
    expect(await counters()).toEqual({ a: 2, b: 1 });
    expect([b1.siPostId, free.siPostId, clash.siPostId]).toEqual([b.id, null, null]);
  });

  it("a new owner: add attaches the records, sends nothing, and the owner's save writes them (as build's children)", async () => {
    const models = setIdsPosts();
    const { b, b1, free } = await seed(models);
    const { events, SiPost } = listen({ models: { SiPost: models.SiPost } });
    const post = SiPost.build({ title: "new", siCommentsCount: 0 });
    await post.comments().add(b1, free, models.SiComment.build({ body: "fresh" }));
    expect(events).toHaveLength(0);
    expect((await post.comments().toArray()).map((comment) => comment.body)).toEqual(["b1", "free", "fresh"]);
    expect(await post.comments().size()).toBe(3);

    await post.saveOrThrow();
    // The database assigns the post's key: the children follow its INSERT in a batch of their own.
    expect(roundTrips(events)).toHaveLength(2);
    expect(await commentPosts()).toEqual({ a1: expect.any(Number), a2: expect.any(Number), b1: post.id, free: post.id, fresh: post.id });
    expect(await counters()).toEqual({ a: 2, b: 0, new: 3 });
    expect(b.id).not.toBe(post.id);
  });

  it("as: add writes the owner's key and type; a new owner with its key in code writes them in its own batch", async () => {
    const models = setIdsPosts();
    const { SiAlbum, SiPhoto, SiPicture } = models;
    const album = await seedHolders(models, [
      { id: "p1", holderType: "SiPhoto", holderId: "1", name: "on the photo" },
      { id: "p2", holderType: null, holderId: null, name: "free" },
    ]);
    const [p1, p2] = await SiPicture.order({ id: "asc" }).toArray();
    await album.pictures().add(p1!);
    const { events, SiAlbum: Albums } = listen({ models: { SiAlbum } });
    const fresh = Albums.build({ id: "2", name: "fresh" });
    await fresh.pictures().add(p2!);
    await fresh.saveOrThrow();
    expect(roundTrips(events)).toHaveLength(1);
    expect(await rows("SELECT id, holder_type, holder_id FROM si_pictures ORDER BY id")).toEqual([
      { id: "p1", holder_type: "SiAlbum", holder_id: "1" },
      { id: "p2", holder_type: "SiAlbum", holder_id: "2" },
    ]);
    expect((await (await SiPhoto.find("1")).pictures().toArray()).map((picture) => picture.id)).toEqual([]);
  });

  it("remove unlinks the children with one UPDATE, its counter beside it, after no read; the records hold NULL as their rows", async () => {
    const models = setIdsPosts({ callbacks: true });
    const { a, a1 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    const loaded = await post.comments().toArray();
    const a2 = loaded.find((comment) => comment.body === "a2")!;
    events.length = 0;
    models.log.length = 0;
    await post.comments().remove(a1, a2);
    expect(roundTrips(events)).toEqual([[expect.stringMatching(/^UPDATE "si_posts" SET "si_comments_count"/), expect.stringMatching(/^UPDATE "si_comments" SET "si_post_id" = \?1 WHERE/)]]);
    // The keys bound as one JSON value.
    expect(events[1]!.sql).toBe('UPDATE "si_comments" SET "si_post_id" = ?1 WHERE "si_post_id" = ?2 AND "id" IN (SELECT value FROM json_each(?3))');
    expect(models.log).toEqual([]);
    expect(await commentPosts()).toEqual({ a1: null, a2: null, b1: expect.any(Number), free: null });
    expect(await counters()).toEqual({ a: 0, b: 1 });
    expect(post.siCommentsCount).toBe(0);
    expect([a1.siPostId, a2.siPostId, a2.isChanged()]).toEqual([null, null, false]);
    expect(a2.siPost.get()).toBeNull();
    events.length = 0;
    expect(await post.comments().toArray()).toEqual([]);
    expect(events).toHaveLength(0);
  });

  it("dependent destroy: remove destroys the children with their callbacks, in one batch; deleteAll deletes them with one DELETE", async () => {
    const destroying = setIdsPosts({ comments: "destroy", callbacks: true });
    const { a, a1 } = await seed(destroying);
    const { events, post } = await listening(destroying, a.id!);
    destroying.log.length = 0;
    await post.comments().remove(a1);
    expect(roundTrips(events)).toHaveLength(1);
    expect(destroying.log).toEqual(["destroy a1"]);
    expect(a1.isDestroyed()).toBe(true);
    expect(await commentPosts()).toEqual({ a2: a.id, b1: expect.any(Number), free: null });
    expect(await counters()).toEqual({ a: 1, b: 1 });
    expect(post.siCommentsCount).toBe(1);

    const deleting = setIdsPosts({ comments: "deleteAll" });
    const a2 = await deleting.SiComment.findBy({ body: "a2" });
    const listened = await listening(deleting, a.id!);
    await listened.post.comments().remove(a2!);
    expect(roundTrips(listened.events)).toEqual([[expect.stringMatching(/^UPDATE "si_posts"/), expect.stringMatching(/^DELETE FROM "si_comments"/)]]);
    expect(await commentPosts()).toEqual({ b1: expect.any(Number), free: null });
    expect(await counters()).toEqual({ a: 0, b: 1 });
  });

  it("a NOT NULL foreign key and no dependent that deletes: remove throws RecordNotSaved naming Model, association and method; nothing written", async () => {
    const models = setIdsPosts();
    const { a } = await seed(models);
    const note = await models.SiNote.createOrThrow({ siPostId: a.id!, body: "note" });
    const { events, post } = await listening(models, a.id!);
    const error = await rejectionOf(post.notes().remove(note));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe(
      `SiPost.notes.remove: SiNote ${note.id} would be removed, but SiNote.siPostId is NOT NULL; give notes dependent: "destroy" or "deleteAll" to remove the children removed`,
    );
    expect(events).toHaveLength(0);
    const deleting = setIdsPosts({ notes: "deleteAll" });
    await (await deleting.SiPost.find(a.id!)).notes().remove((await deleting.SiNote.find(note.id!))!);
    expect(await rows("SELECT id FROM si_notes")).toEqual([]);
  });

  it("a record that is no child of the owner (another's, outside the scope, a new one) is RecordNotFound naming it; nothing sent", async () => {
    const models = setIdsPosts();
    const { a, a1, b1, free } = await seed(models);
    const { events, post, SiAlbum } = await listening(models, a.id!);
    const other = await rejectionOf(post.comments().remove(a1, b1));
    expect(other).toBeInstanceOf(RecordNotFound);
    expect(other.message).toBe(`SiPost.comments.remove: SiComment ${b1.id} is not one of this SiPost's comments`);
    await expect(post.comments().remove(free)).rejects.toThrow(`SiComment ${free.id} is not one of this SiPost's comments`);
    await expect(post.shortComments().remove(a1)).rejects.toThrow(`SiPost.shortComments.remove: SiComment ${a1.id} is not one of this SiPost's shortComments`);
    await expect(post.comments().remove(models.SiComment.build({ body: "x" }))).rejects.toThrow(
      "SiPost.comments.remove: a new SiComment not built or added through it is not one of this SiPost's comments",
    );
    await expect(post.comments().add(SiAlbum.build({ name: "x" }) as never)).rejects.toThrow("SiPost.comments.add takes records of SiComment, not");
    await expect(post.comments().remove(SiAlbum.build({ name: "x" }) as never)).rejects.toThrow("SiPost.comments.remove takes records of SiComment, not");
    // No record: nothing to write.
    await post.comments().add();
    await post.comments().remove();
    expect(events).toHaveLength(0);
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: expect.any(Number), free: null });
  });

  it("remove of a child waiting for the owner's save only drops it: a built one, or a saved one added to a new owner (its keys put back)", async () => {
    const models = setIdsPosts();
    const { a, b, b1 } = await seed(models);
    const { events, post } = await listening(models, a.id!);
    const built = post.comments().build({ body: "built" });
    await post.comments().remove(built);
    expect(events).toHaveLength(0);
    expect(await post.comments().size()).toBe(2);

    const fresh = models.SiPost.build({ title: "new", siCommentsCount: 0 });
    await fresh.comments().add(b1);
    expect(b1.siPostId).toBeNull();
    await fresh.comments().remove(b1);
    expect(b1.siPostId).toBe(b.id);
    expect(b1.isChanged()).toBe(false);
    await fresh.saveOrThrow();
    await post.saveOrThrow();
    expect(await commentPosts()).toEqual({ a1: a.id, a2: a.id, b1: b.id, free: null });
  });

  it("as: remove unsets the key and the type", async () => {
    const models = setIdsPosts();
    const { SiAlbum, SiPicture } = models;
    const album = await SiAlbum.createOrThrow({ id: "1", name: "album" });
    const picture = await SiPicture.createOrThrow({ id: "p1", holderType: "SiAlbum", holderId: "1", name: "on the album" });
    await album.pictures().remove(picture);
    expect(await rows("SELECT id, holder_type, holder_id FROM si_pictures")).toEqual([{ id: "p1", holder_type: null, holder_id: null }]);
    expect([picture.holderType, picture.holderId]).toEqual([null, null]);
  });

  it("150 children: add and remove each in one batch, every statement within 100 parameters, the keys removed bound as one value", async () => {
    const models = setIdsPosts();
    const { a } = await seed(models);
    await models.SiComment.insertAll(Array.from({ length: 150 }, (_, index) => ({ body: `many ${index}` })));
    const { events, post, db } = await listening(models, a.id!);
    const many = await db.model(models.SiComment).where({ siPostId: null }).toArray();
    events.length = 0;
    await post.comments().add(...many);
    await post.comments().remove(...many);
    expect(roundTrips(events)).toHaveLength(2);
    expect(Math.max(...events.map((event) => event.params.length))).toBeLessThanOrEqual(100);
    expect(await counters()).toEqual({ a: 2, b: 1 });
    expect((await rows(`SELECT COUNT(*) AS n FROM si_comments WHERE si_post_id IS NULL`))[0]!["n"]).toBe(151);
  });
});
