import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, connect, hasMany, InvalidModel, Model, withTenant } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown } from "../helpers/errors.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { SrcComment, SrcPhoto, SrcPost, SrcTag, SrcTagging, srcTaggingCallbacks } from "../models/tagged-posts-and-photos.js";
import { TenantPost, TenantTag, TenantTagging } from "../models/tenant-tagged-posts.js";

beforeEach(async () => {
  await resetDatabase();
  srcTaggingCallbacks.length = 0;
});

/**
 * Posts a and b, photos 1 and 2 of the same keys as the posts (a photo and a post may share a key: only the type
 * tells their join rows apart); red tags post a, post b and photo 1; blue tags photo 2; a comment on post a.
 */
async function seed() {
  const a = await SrcPost.create({ title: "a" });
  const b = await SrcPost.create({ title: "b" });
  const one = await SrcPhoto.create({ id: a.id!, caption: "one" });
  const two = await SrcPhoto.create({ id: b.id!, caption: "two" });
  const red = await SrcTag.create({ name: "red" });
  const blue = await SrcTag.create({ name: "blue" });
  for (const [tag, type, id] of [[red, "SrcPost", a.id], [red, "SrcPost", b.id], [red, "SrcPhoto", one.id], [blue, "SrcPhoto", two.id]] as const) {
    await SrcTagging.create({ srcTagId: tag.id!, taggableType: type, taggableId: id! });
  }
  await SrcComment.create({ srcPostId: a.id!, body: "on a" });
  srcTaggingCallbacks.length = 0;
  return { a, b, one, two, red, blue };
}

const titles = (posts: readonly SrcPost[]) => posts.map((post) => post.title).sort();
const captions = (photos: readonly SrcPhoto[]) => photos.map((photo) => photo.caption).sort();

function recording() {
  const { binding, roundTrips } = recordingRoundTrips();
  const db = connect(binding);
  return { roundTrips, Tag: db.model(SrcTag), Post: db.model(SrcPost), Comment: db.model(SrcComment) };
}

/** The join rows, as `<tag's name> <type> <key>` ("none" for a tag deleted). */
async function taggings(): Promise<string[]> {
  const rows = await SrcTagging.includes("srcTag").toArray();
  return rows.map((row) => `${row.srcTag.get()?.name ?? "none"} ${row.taggableType} ${row.taggableId}`).sort();
}

describe("guide: Through associations: a polymorphic source (sourceType)", () => {
  it("tag.srcPosts() is a Relation of posts: one statement, the type bound, never SQL text; narrowed, counted, paged", async () => {
    const { red, blue } = await seed();
    const { events, db } = listen();
    const tag = await db.model(SrcTag).find(red.id);
    events.length = 0;
    expect(titles(await tag.srcPosts().toArray())).toEqual(["a", "b"]);
    expect(events[0]!.sql).toBe(
      `SELECT * FROM "src_posts" WHERE ("id" IN (SELECT "taggable_id" FROM "src_taggings" WHERE "src_tag_id" = ?1 AND "taggable_type" = ?2))`,
    );
    expect(events[0]!.params).toEqual([red.id, "SrcPost"]);
    expect(captions(await tag.srcPhotos().toArray())).toEqual(["one"]);
    expect(titles(await tag.srcPosts().where({ title: "b" }).toArray())).toEqual(["b"]);
    expect(await tag.srcPosts().count()).toBe(2);
    expect(events.at(-1)!.sql).toBe(
      `SELECT COUNT(*) AS "recordflare_count" FROM "src_posts" WHERE ("id" IN (SELECT "taggable_id" FROM "src_taggings" WHERE "src_tag_id" = ?1 AND "taggable_type" = ?2))`,
    );
    const page = await tag.srcPosts().order({ title: "desc" }).paginate({ page: 1, perPage: 1 });
    expect([titles(page.records), page.total]).toEqual([["b"], 2]);
    expect(titles(await tag.posts().toArray())).toEqual(["a", "b"]);
    expect(titles(await tag.titledA().toArray())).toEqual(["a"]);
    expect(await (await SrcTag.find(blue.id)).srcPosts().count()).toBe(0);
    expect(events.every((event) => !event.sql.includes("'SrcP"))).toBe(true);
  });

  it("hasOne through a hasOne whose source is polymorphic: read, and set writes the join row with the type", async () => {
    const { red, a, b } = await seed();
    const post = await (await SrcTag.find(red.id)).firstPost.load();
    expect(post?.id).toBe(a.id);
    const green = await SrcTag.create({ name: "green" });
    await green.firstPost.set(b);
    expect(await taggings()).toContain(`green SrcPost ${b.id}`);
    expect((await (await SrcTag.find(green.id)).firstPost.load())?.id).toBe(b.id);
  });

  it("includes: one round trip, reading the posts and never the photos; with paginate and nested, one round trip each", async () => {
    const { a } = await seed();
    const { events, db } = listen();
    const tags = await db.model(SrcTag).order({ name: "asc" }).includes("srcPosts").toArray();
    expect(events).toHaveLength(3);
    expect(events.some((event) => event.sql.includes("src_photos"))).toBe(false);
    expect(await Promise.all(tags.map(async (tag) => titles(await tag.srcPosts().toArray())))).toEqual([[], ["a", "b"]]);
    expect(events).toHaveLength(3);
    const { roundTrips, Tag, Comment } = recording();
    const both = await Tag.order({ name: "asc" }).includes("srcPosts", "srcPhotos", "titledA").toArray();
    expect(roundTrips).toHaveLength(1);
    const held = await Promise.all(both.map(async (tag) => [titles(await tag.srcPosts().toArray()), captions(await tag.srcPhotos().toArray()), titles(await tag.titledA().toArray())]));
    expect(held).toEqual([
      [[], ["two"], []],
      [["a", "b"], ["one"], ["a"]],
    ]);
    expect(roundTrips).toHaveLength(1);
    const page = await Tag.order({ name: "desc" }).includes({ srcPosts: ["srcComments"] }).paginate({ page: 1, perPage: 1 });
    const [post] = (await page.records[0]!.srcPosts().toArray()).filter((each) => each.id === a.id);
    expect((await post!.srcComments().toArray()).map((comment) => comment.body)).toEqual(["on a"]);
    expect(roundTrips).toHaveLength(2);
    const [comment] = await Comment.includes({ srcPost: { srcTags: ["srcPhotos"] } }).toArray();
    const [tag] = await comment!.srcPost.get()!.srcTags().toArray();
    expect(captions(await tag!.srcPhotos().toArray())).toEqual(["one"]);
    expect(roundTrips).toHaveLength(3);
  });

  it("a through a through whose last source is polymorphic: read, counted and preloaded by the join rows of the type", async () => {
    const { a, b, one } = await seed();
    const c = await SrcPost.create({ title: "c" });
    await SrcTagging.create({ srcTagId: (await SrcTag.create({ name: "alone" })).id!, taggableType: "SrcPost", taggableId: c.id! });
    expect(titles(await (await SrcPost.find(a.id)).relatedPosts().toArray())).toEqual(["a", "b"]);
    const counted = await SrcPost.order({ title: "asc" }).withCount("relatedPosts").toArray();
    expect(counted.map((post) => post.relatedPostsCount)).toEqual([2, 2, 1]);
    const { roundTrips, Post } = recording();
    const posts = await Post.order({ title: "asc" }).includes("relatedPosts").toArray();
    expect(await Promise.all(posts.map(async (post) => titles(await post.relatedPosts().toArray())))).toEqual([["a", "b"], ["a", "b"], ["c"]]);
    expect(roundTrips).toHaveLength(1);
    // Photo one shares post a's key and red's tag: its join row reaches no post.
    expect(one.id).toBe(a.id);
  });

  it("withCount and whereCount count the targets of the type", async () => {
    await seed();
    const tags = await SrcTag.order({ name: "asc" }).withCount("srcPosts", "srcPhotos").toArray();
    expect(tags.map((tag) => [tag.name, tag.srcPostsCount, tag.srcPhotosCount])).toEqual([
      ["blue", 0, 1],
      ["red", 2, 1],
    ]);
    expect((await SrcTag.whereCount("srcPosts", ">", 1).toArray()).map((tag) => tag.name)).toEqual(["red"]);
  });

  it("add writes the join row with the type; remove and set touch the join rows of the type only, never a photo's of the same key", async () => {
    const { a, b, red, blue } = await seed();
    const c = await SrcPost.create({ title: "c" });
    const tag = await SrcTag.find(blue.id);
    await tag.srcPosts().add(a, c);
    expect(srcTaggingCallbacks.sort()).toEqual([`save SrcPost ${a.id}`, `save SrcPost ${c.id}`]);
    const reread = await SrcTag.find(red.id);
    await reread.srcPosts().remove(a);
    expect(await taggings()).toEqual([`blue SrcPhoto ${b.id}`, `blue SrcPost ${a.id}`, `blue SrcPost ${c.id}`, `red SrcPhoto ${a.id}`, `red SrcPost ${b.id}`]);
    await (await SrcTag.find(blue.id)).srcPosts().set([b]);
    expect(await taggings()).toEqual([`blue SrcPhoto ${b.id}`, `blue SrcPost ${b.id}`, `red SrcPhoto ${a.id}`, `red SrcPost ${b.id}`]);
    await (await SrcTag.find(red.id)).srcPosts().setIds([a.id!]);
    expect(await taggings()).toEqual([`blue SrcPhoto ${b.id}`, `blue SrcPost ${b.id}`, `red SrcPhoto ${a.id}`, `red SrcPost ${a.id}`]);
    const loaded = await SrcTag.includes("srcPosts", "srcPhotos").find(red.id);
    await loaded.srcPosts().remove(a);
    expect(captions(await loaded.srcPhotos().toArray())).toEqual(["one"]);
    expect(titles(await loaded.srcPosts().toArray())).toEqual([]);
  });

  it("a new tag: add builds the join row, written with the type by the tag's save", async () => {
    const { a } = await seed();
    const tag = SrcTag.build({ name: "green" });
    await tag.srcPosts().add(a);
    await tag.saveOrThrow();
    expect(await taggings()).toContain(`green SrcPost ${a.id}`);
  });

  it("dependent: only the join rows of the type go, the others and the targets stay; one round trip set-based", async () => {
    const { a, b, red } = await seed();
    class Tag extends Model({ id: "integer", name: { type: "string", null: false } }) {
      static override tableName = "src_tags";
      static override binding = "DB";
      srcTaggings = hasMany(SrcTagging, { foreignKey: "srcTagId" });
      srcPosts = hasMany(SrcPost, { through: this.srcTaggings, source: "taggable", sourceType: "SrcPost", dependent: "deleteAll" });
    }
    const { binding, roundTrips } = recordingRoundTrips();
    const tag = await connect(binding).model(Tag).find(red.id);
    roundTrips.length = 0;
    await tag.destroy();
    expect(roundTrips).toHaveLength(1);
    expect(await taggings()).toEqual([`blue SrcPhoto ${b.id}`, `none SrcPhoto ${a.id}`]);
    expect(await SrcPost.where({ id: [a.id, b.id] }).count()).toBe(2);
  });
});

describe("guide: Through associations: a polymorphic source, declarations", () => {
  const declare = (fields: (self: any) => Record<string, unknown>) => {
    class Declared extends Model({ id: "integer", name: { type: "string", null: false } }) {
      static override tableName = "src_tags";
      static override binding = "DB";
      srcTaggings = hasMany(SrcTagging, { foreignKey: "srcTagId" });
      constructor() {
        super();
        Object.assign(this, fields(this));
      }
    }
    return Declared;
  };
  const refused = async (fields: (self: any) => Record<string, unknown>) => thrown(() => (declare(fields).build({ name: "t" }) as any).things().toArray());

  it("without sourceType, a polymorphic source is refused, saying to add it; one naming no listed Model names the Model, association and value", async () => {
    expect(await refused((self) => ({ things: hasMany(SrcPost, { through: self.srcTaggings, source: "taggable" } as never) }))).toEqual(
      new InvalidModel("Declared.things: its source SrcTagging.taggable is a polymorphic belongsTo; add sourceType, the name of the Model to reach (one of SrcPost, SrcPhoto), as Rails' source_type"),
    );
    expect(await refused((self) => ({ things: hasMany(SrcPost, { through: self.srcTaggings, source: "taggable", sourceType: "Video" } as never) }))).toEqual(
      new InvalidModel(`Declared.things: sourceType "Video" names none of SrcTagging.taggable's Models (SrcPost, SrcPhoto)`),
    );
    expect(await refused((self) => ({ things: hasMany(SrcPost, { through: self.srcTaggings, source: "taggable", sourceType: "SrcPhoto" } as never) }))).toEqual(
      new InvalidModel("Declared.things: its source SrcTagging.taggable reaches SrcPhoto, not SrcPost"),
    );
    expect(await refused((self) => ({ things: hasMany(SrcTag, { through: self.srcTaggings, source: "srcTag", sourceType: "SrcTag" } as never) }))).toEqual(
      new InvalidModel("Declared.things: sourceType is taken only with a polymorphic belongsTo as the source, and SrcTagging.srcTag is not one; remove sourceType"),
    );
    expect(String(await refused((self) => ({ things: hasMany(SrcPost, { through: self.srcTaggings, sourceType: 3 } as never) })))).toMatch(
      /^InvalidModel: Declared.things \(hasMany\): sourceType must be the name of the Model to reach/,
    );
  });

  it("a polymorphic belongsTo stays refused as the association gone through", async () => {
    class Tagging extends Model({ id: "integer", taggableType: "string", taggableId: "integer" }) {
      static override tableName = "src_taggings";
      static override binding = "DB";
      taggable = belongsTo([SrcPost, SrcPhoto], { polymorphic: true });
      comments = hasMany(SrcComment, { through: this.taggable, source: "srcComments" } as never);
    }
    const tagging: any = Tagging.build({});
    expect(String(await thrown(() => tagging.comments().toArray()))).toMatch(/^InvalidModel: Tagging.comments: Tagging.taggable is a polymorphic belongsTo, which a through association cannot go through/);
  });
});

describe("guide: Through associations: a polymorphic source under multiTenancy", () => {
  const taggings = async () => (await env.DB.prepare("SELECT id FROM tenant_taggings ORDER BY id").all<{ id: number }>()).results.map((row) => row.id);

  /** Acme's tag 1 on its post 2; globex's join rows 1 and 2 hold tag key 1 too (to its post 1 and photo 1). */
  async function seedTenants() {
    await env.DB.exec(`INSERT INTO tenant_posts VALUES (1, 'globex', 'a'), (2, 'acme', 'a'), (3, 'acme', 'b');
INSERT INTO tenant_photos VALUES (1, 'globex', 'theirs'), (2, 'acme', 'ours');
INSERT INTO tenant_tags VALUES (1, 'acme', 'red'), (2, 'globex', 'blue');
INSERT INTO tenant_taggings VALUES (1, 'globex', 1, 'TenantPost', 1), (2, 'globex', 1, 'TenantPhoto', 1), (3, 'acme', 1, 'TenantPost', 2);`);
  }

  it("reads, counts, withCount, whereCount and includes reach the tenant's join rows and targets only", async () => {
    await seedTenants();
    await withTenant("acme", async () => {
      const tag = await TenantTag.find(1);
      const ids = (records: readonly { id: number | null }[]) => records.map((record) => record.id);
      expect([ids(await tag.tenantPosts().toArray()), await tag.tenantPosts().count(), ids(await tag.tenantPhotos().toArray())]).toEqual([[2], 1, []]);
      expect(ids(await tag.titledA().toArray())).toEqual([2]);
      const counted = await TenantTag.withCount("tenantPosts", "tenantPhotos").toArray();
      expect(counted.map((each) => [each.id, each.tenantPostsCount, each.tenantPhotosCount])).toEqual([[1, 1, 0]]);
      expect(ids(await TenantTag.whereCount("tenantPhotos", ">", 0).toArray())).toEqual([]);
      const [loaded] = await TenantTag.includes("tenantPosts", "tenantPhotos").toArray();
      expect([ids(await loaded!.tenantPosts().toArray()), ids(await loaded!.tenantPhotos().toArray())]).toEqual([[2], []]);
      expect(ids(await (await TenantPost.find(2)).tenantTags().toArray())).toEqual([1]);
    });
  });

  it("setIds of another tenant's target is RecordNotFound; set, remove and dependent touch the tenant's join rows only", async () => {
    await seedTenants();
    await withTenant("acme", async () => {
      const tag = await TenantTag.find(1);
      await expect(tag.tenantPosts().setIds([1])).rejects.toThrow("TenantTag.tenantPosts.setIds: no TenantPost with id 1");
      await tag.tenantPosts().setIds([2, 3]);
      await tag.tenantPosts().remove(await TenantPost.find(2));
      await tag.tenantPosts().set([]);
      expect(await taggings()).toEqual([1, 2]);
      await tag.tenantPosts().add(await TenantPost.find(3));
      await tag.destroy();
    });
    expect(await taggings()).toEqual([1, 2]);
    expect(await withTenant("globex", () => TenantTagging.count())).toBe(2);
  });
});
