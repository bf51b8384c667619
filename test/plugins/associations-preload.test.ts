import { beforeEach, describe, expect, it } from "vitest";
import { associations, connect, hasMany, IncompatibleRelation, MissingAttribute, type QueryEvent, hasOne, Model } from "../../src/index.js";
import { definePlugin, ParamWriter, withSource, Statement } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { kernelUsers } from "../helpers/kernel-bases.js";
import { recordingRoundTrips, listen } from "../helpers/queries.js";
import { Article, Profile, Writer } from "../models/association-fixtures.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { rejectionOf } from "../helpers/errors.js";
import { Badge, Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen } from "../models/owners-and-items.js";

beforeEach(resetDatabase);

class Blogger extends ApplicationRecord("users") {
  published = hasMany(Article, { foreignKey: "userId", scope: (q) => q.where({ published: true }).order({ title: "desc" }) });
  latest = hasMany(Article, { foreignKey: "userId", scope: (q) => q.order({ title: "desc" }).limit(1) });
  titlesOnly = hasMany(Article, { foreignKey: "userId", scope: (q) => q.select("title") });
}

/** Five writers w1..w5, each with two posts (the second published) and a profile. */
async function seedBlog(): Promise<void> {
  for (const name of ["w1", "w2", "w3", "w4", "w5"]) {
    const writer = await Writer.create({ name });
    await Article.create({ userId: writer.id, title: `${name}-a` });
    await Article.create({ userId: writer.id, title: `${name}-b`, published: true });
    await Profile.create({ id: `profile-${name}`, userId: writer.id, bio: `bio ${name}` });
  }
}

/** A database that records round trips and query events, with the blog's Models bound to it. */
function recording() {
  const { binding, roundTrips } = recordingRoundTrips();
  const events: QueryEvent[] = [];
  const db = connect(binding, { onQuery: (event) => events.push(event) });
  return { roundTrips, events, Writer: db.model(Writer), Article: db.model(Article), Blogger: db.model(Blogger) };
}

/**
 * Each statement after the first (a level of preloads, whose source is the statement before it) reads no more rows
 * than its source did, plus twice the rows it loads (the row and its index entry, as D1 bills them), plus two.
 */
function expectReadsAtMost(events: readonly QueryEvent[], loadedPerLevel: readonly number[]): void {
  loadedPerLevel.forEach((loaded, index) => expect(events[index + 1]!.rowsRead).toBeLessThanOrEqual(events[index]!.rowsRead + 2 * loaded + 2));
}

const titles = (posts: ReadonlyArray<{ title: string }>) => posts.map((post) => post.title);

/** The titles of an owner's loaded posts (preloaded: no query is sent), sorted. */
const postTitles = async (owner: { posts(): { toArray(): Promise<Array<{ title: string }>> } }) => titles(await owner.posts().toArray()).sort();

describe("includes: one round trip, the preloads in the main query's batch", () => {
  it("hasMany, hasOne and belongsTo together, each by a subquery of the main query", async () => {
    await seedBlog();
    const { roundTrips, events, Writer: W, Article: A } = recording();
    const writers = await W.order({ name: "asc" }).includes("posts", "profile").toArray();
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(3);
    expect(writers.map((writer) => writer.profile.get()?.bio)).toEqual(["bio w1", "bio w2", "bio w3", "bio w4", "bio w5"]);
    for (const writer of writers) expect(await postTitles(writer)).toEqual([`${writer.name}-a`, `${writer.name}-b`]);
    expect(roundTrips).toHaveLength(1);
    // The owner keys the subquery chose, each joined to its posts: an owner without posts still shows as chosen.
    expect(events[1]!.sql).toBe(
      `WITH "recordflare_source" AS (SELECT * FROM "users" ORDER BY "name" ASC) SELECT "recordflare_owners"."recordflare_owner", "posts".* ` +
        `FROM (SELECT DISTINCT "id" AS "recordflare_owner" FROM "recordflare_source" WHERE "id" IS NOT NULL) AS "recordflare_owners" ` +
        `LEFT JOIN "posts" ON "posts"."user_id" = "recordflare_owners"."recordflare_owner"`,
    );

    roundTrips.length = 0;
    const articles = await A.where({ published: true }).includes("user").toArray();
    expect(roundTrips).toHaveLength(1);
    expect(articles.map((article) => article.user.get()!.name).sort()).toEqual(["w1", "w2", "w3", "w4", "w5"]);
    expect(roundTrips[0]![1]).toContain(`(SELECT DISTINCT "user_id" AS "recordflare_owner" FROM "recordflare_source" WHERE "user_id" IS NOT NULL)`);
    expect(roundTrips[0]![1]).toContain(`LEFT JOIN "users" ON "users"."id" = "recordflare_owners"."recordflare_owner"`);
  });

  it("limit, offset, order and distinct of the main query: a preload selects exactly the children of the rows returned", async () => {
    await seedBlog();
    const { roundTrips, events, Writer: W } = recording();
    const writers = await W.order({ name: "desc" }).limit(2).offset(1).includes("posts").toArray();
    expect(roundTrips).toHaveLength(1);
    expect(writers.map((writer) => writer.name)).toEqual(["w4", "w3"]);
    expect([...(await postTitles(writers[0]!)), ...(await postTitles(writers[1]!))]).toEqual(["w4-a", "w4-b", "w3-a", "w3-b"]);
    expect(roundTrips).toHaveLength(1);
    // The preload reads the main query's rows again, then the four children through the index: nothing more.
    expectReadsAtMost(events, [4]);

    roundTrips.length = 0;
    const distinct = await W.distinct().order({ name: "asc" }).limit(1).includes("profile").toArray();
    expect(roundTrips).toHaveLength(1);
    expect(distinct.map((writer) => writer.profile.get()!.bio)).toEqual(["bio w1"]);
  });

  it("a scoped association keeps its conditions and order; a scope with limit throws before any query (scope rule 7)", async () => {
    await seedBlog();
    const { roundTrips, Blogger: B } = recording();
    const bloggers = await B.order({ name: "asc" }).includes("published").toArray();
    expect(roundTrips).toHaveLength(1);
    for (const blogger of bloggers) expect(titles(await blogger.published().toArray())).toEqual([`${blogger.name}-b`]);
    await expect(B.includes("latest").toArray()).rejects.toThrow(IncompatibleRelation);
    await expect(B.includes("published", "latest").paginate()).rejects.toThrow(IncompatibleRelation);
    await expect(B.includes({ published: [] }, "latest").first()).rejects.toThrow(IncompatibleRelation);
    expect(roundTrips).toHaveLength(1);
  });

  it("find, findBy, first, last and take with includes: one round trip each", async () => {
    await seedBlog();
    const { roundTrips, Writer: W } = recording();
    const first = await W.order({ name: "asc" }).includes("posts", "profile").first();
    const found = await W.includes("posts").find(first!.id);
    const by = await W.includes("profile").findBy({ name: "w2" });
    const last = await W.order({ name: "asc" }).includes("profile").last();
    const taken = await W.where({ name: "w3" }).includes("profile").take();
    const several = await W.includes("profile").find([first!.id, by!.id]);
    expect(roundTrips).toHaveLength(6);
    for (const trip of roundTrips) expect(trip.length).toBeGreaterThan(1);
    expect(await postTitles(found)).toEqual(["w1-a", "w1-b"]);
    const bios = [first, by, last, taken, ...several].map((writer) => writer!.profile.get()!.bio);
    expect(bios).toEqual(["bio w1", "bio w2", "bio w5", "bio w3", "bio w1", "bio w2"]);
    expect(roundTrips).toHaveLength(6);
  });

  it("nested includes, two and three levels, with belongsTo on the way: one round trip", async () => {
    await seedBlog();
    const { roundTrips, events, Writer: W, Article: A } = recording();
    const writers = await W.order({ name: "asc" }).limit(2).includes({ posts: { author: "profile" } }).toArray();
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(4);
    for (const writer of writers) {
      for (const post of await writer.posts().toArray()) {
        expect(post.author.get()!.name).toBe(writer.name);
        expect(post.author.get()!.profile.get()!.bio).toBe(`bio ${writer.name}`);
      }
    }
    expect(roundTrips).toHaveLength(1);
    // Each level reads its source (the levels above) again, then its own rows through the index: four posts, two
    // authors, two profiles.
    expectReadsAtMost(events, [4, 2, 2]);

    roundTrips.length = 0;
    const articles = await A.where({ title: "w4-a" }).includes("user", { author: ["posts"] }).toArray();
    expect(roundTrips).toHaveLength(1);
    expect(articles[0]!.user.get()!.name).toBe("w4");
    expect(await postTitles(articles[0]!.author.get()!)).toEqual(["w4-a", "w4-b"]);
    expect(roundTrips).toHaveLength(1);
  });

  it("an unknown name throws TypeError before any query, at any depth", async () => {
    const { roundTrips, Writer: W } = recording();
    // @ts-expect-error: not an association of Writer
    await expect(W.includes("nothing").toArray()).rejects.toThrow(/nothing is not an association of Writer/);
    // @ts-expect-error: not an association of Article
    await expect(W.includes({ posts: ["nothing"] }).toArray()).rejects.toThrow(/nothing is not an association of Article \(includes posts\.nothing\)/);
    // @ts-expect-error: includes takes names and objects of names
    expect(() => W.includes([5])).toThrow(/Writer\.includes takes association names/);
    expect(roundTrips).toHaveLength(0);
  });

  it("an include nested deeper than 100 associations, or an object that contains itself, throws TypeError naming the method", async () => {
    const { roundTrips, Writer: W } = recording();
    const cyclic: Record<string, unknown> = {};
    cyclic["posts"] = { user: cyclic };
    const deep = (levels: number) => Array.from({ length: levels / 2 }).reduce<object>((below) => ({ posts: { user: below } }), {});
    const nestsTooDeep = "Writer.includes: includes nest at most 100 associations deep (does an object contain itself?)";
    expect(() => W.includes(cyclic as never)).toThrow(new TypeError(nestsTooDeep));
    expect(() => W.includes(deep(5000) as never)).toThrow(new TypeError(nestsTooDeep));
    expect(() => W.includes(deep(102) as never)).toThrow(new TypeError(nestsTooDeep));
    expect(W.includes(deep(100) as never).description.includes).toHaveLength(100);
    expect(roundTrips).toHaveLength(0);
  });

  it("a select that leaves out the owners' key, or a scope's select that leaves out the targets', is refused before any query", async () => {
    const { roundTrips, Article: A, Blogger: B } = recording();
    await expect(A.select("title").includes("user").toArray()).rejects.toThrow(MissingAttribute);
    await expect(B.includes("titlesOnly").toArray()).rejects.toThrow(/^Blogger\.includes: titlesOnly needs Article\.userId, which select\(\) leaves out$/);
    expect(roundTrips).toHaveLength(0);
  });
});

describe("paginate with includes: count, page and every preload in one round trip", () => {
  it("with the count and without", async () => {
    await seedBlog();
    const { roundTrips, events, Writer: W } = recording();
    const page = await W.order({ name: "asc" }).includes("posts", "profile").paginate({ page: 2, perPage: 2 });
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(4);
    expect(page.total).toBe(5);
    expect(page.records.map((writer) => writer.profile.get()!.bio)).toEqual(["bio w3", "bio w4"]);
    expect([...(await postTitles(page.records[0]!)), ...(await postTitles(page.records[1]!))]).toEqual(["w3-a", "w3-b", "w4-a", "w4-b"]);
    expect(roundTrips).toHaveLength(1);

    roundTrips.length = 0;
    events.length = 0;
    const uncounted = await W.order({ name: "asc" }).includes({ posts: ["author"] }).paginate({ page: 2, perPage: 2, count: false });
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(3);
    expect(uncounted.hasNext).toBe(true);
    // The page reads one extra row to know hasNext; its preloads do not load that row's children.
    expect(roundTrips[0]![1]).toContain("LIMIT 2 OFFSET 2");
    expect(uncounted.records.map((writer) => writer.name)).toEqual(["w3", "w4"]);
    expect(await postTitles(uncounted.records[1]!)).toEqual(["w4-a", "w4-b"]);
    expect(roundTrips).toHaveLength(1);
  });
});

describe("relation:plan: a plugin adds a read to the batch of a Relation's SELECT", () => {
  it("its Statement selects by the main query's source and receives its rows once the records are loaded", async () => {
    await seedBlog();
    const received: unknown[] = [];
    const countingPosts = definePlugin({
      name: "counting posts",
      hooks: {
        "relation:plan"({ source, reads }) {
          const params = new ParamWriter();
          const sql = withSource(source, params, (owners) => `SELECT COUNT(*) AS n FROM "posts" WHERE "user_id" IN (SELECT "id" FROM ${owners})`);
          const statement = new Statement({ sql, params: params.params }, undefined, "rows", (rows) => rows[0]!["n"]);
          reads.push({ statement, receive: (count, records) => received.push(count, records.length) });
        },
      },
    });
    class Counted extends ApplicationRecord("users") {
      static {
        this.use(countingPosts);
      }
    }
    const { binding, roundTrips } = recordingRoundTrips();
    const names = (await connect(binding).model(Counted).where({ name: ["w1", "w2"] }).toArray()).map((record) => record.name);
    expect(names.sort()).toEqual(["w1", "w2"]);
    expect(received).toEqual([4, 2]);
    expect(roundTrips).toHaveLength(1);
  });

  it("a receiver asks for reads in one more round trip (readNext); recordsOf makes records of its own query's rows", async () => {
    await seedBlog();
    const received: unknown[] = [];
    const postsOfW1: { titles?: string[] } = {};
    const postsLater = definePlugin({
      name: "posts later",
      hooks: {
        "relation:plan"({ relation, reads }) {
          const later = new Statement({ sql: `SELECT *, 'extra' AS "extra" FROM "posts" WHERE "title" LIKE 'w1-%' ORDER BY "title"`, params: [] }, undefined, "rows", (rows, _meta, database) =>
            (Article as any).all().recordsOf(rows.map(({ extra: _extra, ...row }) => row), database),
          );
          const count = new Statement({ sql: `SELECT COUNT(*) AS n FROM "posts"`, params: [] }, undefined, "rows", (rows) => rows[0]!["n"]);
          reads.push({
            statement: count,
            receive: (n, records, readNext) => {
              received.push(n, records.length, relation.model.name);
              readNext([{ statement: later, receive: (posts: Array<{ title: string }>) => void (postsOfW1.titles = posts.map((post) => post.title)) }]);
            },
          });
        },
      },
    });
    class Counted extends ApplicationRecord("users") {
      static {
        this.use(postsLater);
      }
    }
    const { binding, roundTrips } = recordingRoundTrips();
    const loaded = await connect(binding).model(Counted).where({ name: ["w1", "w2"] }).toArray();
    expect(loaded).toHaveLength(2);
    expect(received).toEqual([10, 2, "Counted"]);
    expect(postsOfW1.titles).toEqual(["w1-a", "w1-b"]);
    expect(roundTrips).toHaveLength(2);
  });
});

const I = OwnedItem as any;

const B = Badge as any;

describe("select with includes: the preload reads the foreign key", () => {
  it("a select leaving out a belongsTo's foreign key throws MissingAttribute, as Rails' preload does", async () => {
    await seedOwnedItemsSeen();
    expect(await rejectionOf(I.select("name").includes("owner").toArray())).toBeInstanceOf(MissingAttribute);
  });
});

describe("Relation: 'Every Relation method is also a static of each Model'; includes: 'one query per association'", () => {
  const QUERYING = ["where", "whereNot", "or", "order", "reorder", "limit", "offset", "paginate", "select", "distinct", "none", "merge", "includes", "toSql"];
  const RESULTS = ["toArray", "find", "findBy", "findByOrThrow", "first", "last", "take", "pluck", "count", "exists", "size", "isEmpty", "hasAny"];
  // Inserts write rows of their own: they are Model statics, not methods of a Relation.
  const INSERTS = ["insert", "insertAll", "upsert", "upsertAll", "toInsert", "toInsertAll", "toUpsert", "toUpsertAll"];
  const BULK = ["updateAll", "deleteAll", "toUpdateAll", "toDeleteAll"];

  it("every method of SPEC's Querying, Results and Bulk writes tables is a static, and each narrowing one a Relation method", () => {
    for (const name of [...QUERYING, ...RESULTS, ...BULK]) {
      expect(typeof I[name], name).toBe("function");
      expect(typeof I.where({ id: "a" })[name], name).toBe("function");
    }
    for (const name of INSERTS) expect(typeof I[name], name).toBe("function");
  });

  it("includes of two associations, named twice, with paginate: one batch of the count, the page and a query each", async () => {
    await seedOwnedItemsSeen();
    await B.create({ name: "b", ownerId: "o1" });
    const { db, events } = listen();
    const page = await (db.model(ItemOwner) as any).includes("items", "badge").includes("items").order({ id: "asc" }).paginate({ perPage: 1 });
    expect(events.map((event) => event.batched)).toEqual([true, true, true, true]);
    events.length = 0;
    const [owner] = page.records;
    expect(await owner.items().size()).toBe(2);
    expect(await owner.items().hasAny()).toBe(true);
    expect(await owner.items().isEmpty()).toBe(false);
    expect(owner.badge.get().name).toBe("b");
    expect(events).toEqual([]);
  });
});

class Kid extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_children";
}

class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_owners";
  kids = hasMany(Kid, { dependent: "destroy" });
  onlyKid = hasOne(Kid);
}

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("includes on find(id) and first(): one extra query per association", async () => {
    const owner = await Owner.create({ id: "o1", name: "a" });
    await Kid.create({ id: "k1", ownerId: owner.id, name: "x" });
    const { db, events } = listen();
    const found = await db.model(Owner).includes("kids", "onlyKid").find("o1");
    expect(events).toHaveLength(3);
    expect(found.onlyKid.get()!.id).toBe("k1");
    events.length = 0;
    expect(await found.kids().size()).toBe(1);
    expect(events).toHaveLength(0);
    const first = await db.model(Owner).includes("kids").first();
    expect(events).toHaveLength(2);
    expect(await first!.kids().hasAny()).toBe(true);
    expect(events).toHaveLength(2);
  });
});

describe("includes comes with the associations plugin, which gives it meaning", () => {
  it("a base without associations has no includes; registered, includes checks its names before any query", async () => {
    expect("includes" in kernelUsers().all()).toBe(false);
    const User = kernelUsers(associations);
    await expect(User.includes("posts").toArray()).rejects.toThrow(/posts is not an association of KernelUser/);
    expect(() => User.includes(5)).toThrow(/^KernelUser\.includes takes association names/);
  });
});
