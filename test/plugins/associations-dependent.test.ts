/** Associations' dependent option: destroy, deleteAll, delete, nullify and the restrict forms. */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, hasMany, hasOne, InvalidModel, RecordNotDestroyed } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { Article, Guarded, Review, Writer } from "../models/association-fixtures.js";
import { ApplicationRecord } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("dependent", () => {
  it("destroy destroys the dependents with the owner, atomically, after the owner's before-destroy callbacks", async () => {
    const writer = await Writer.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    await Article.create({ userId: writer.id, title: "two" });
    const { db, events } = listen();
    const loaded = await db.model(Writer).find(writer.id);
    expect(await loaded.destroy()).toBe(loaded);
    expect(await countRows("posts")).toBe(0);
    expect(await countRows("users")).toBe(0);
    expect(events.filter((event) => event.sql.startsWith("DELETE")).every((event) => event.batched)).toBe(true);
  });

  it("destroy reads the dependents afresh, though the owner was loaded with them", async () => {
    const writer = await Writer.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    const loaded = await Writer.includes("posts").find(writer.id);
    expect((await loaded.posts().toArray()).map((post) => post.title)).toEqual(["one"]);
    await Article.create({ userId: writer.id, title: "added after loading" });
    expect(await loaded.destroy()).toBe(loaded);
    expect(await countRows("posts")).toBe(0);
    expect(await countRows("users")).toBe(0);
  });

  it("an abort in a before-destroy callback declared after the association still protects the dependents", async () => {
    class Protected extends Writer {
      static {
        this.beforeDestroy(() => {
          throw abort("protected");
        });
      }
    }
    const writer = await Protected.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    expect(await writer.destroy()).toBe(false);
    expect(await countRows("posts")).toBe(1);
  });

  it("restrictWithError refuses the destroy with a reason in errors; destroyOrThrow throws RecordNotDestroyed", async () => {
    const owner = await Guarded.create({ name: "Ada" });
    await Article.create({ userId: owner.id, title: "one" });
    expect(await owner.destroy()).toBe(false);
    expect(owner.isPersisted()).toBe(true);
    expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because dependent posts exist"]);
    await expect(owner.destroyOrThrow()).rejects.toThrow(RecordNotDestroyed);
    await Article.where({ userId: owner.id }).deleteAll();
    expect(await owner.destroy()).toBe(owner);
  });

  it("restrictWithError asks whether a child exists with one query reading one row, not by loading the children", async () => {
    const owner = await Guarded.create({ name: "Ada" });
    await Article.create({ userId: owner.id, title: "one" });
    await Article.create({ userId: owner.id, title: "two" });
    const { events, Guarded: BoundGuarded } = listen({ models: { Guarded } });
    const loaded = await BoundGuarded.find(owner.id);
    events.length = 0;
    expect(await loaded.destroy()).toBe(false);
    expect(events.map((event) => event.sql)).toEqual(['SELECT 1 AS one FROM "posts" WHERE "user_id" = ? LIMIT 1']);
    expect(events[0]!.rowsRead).toBe(1);
    expect(await countRows("posts")).toBe(2);
  });
});

describe("dependent deleteAll, delete and nullify (SPEC: not shown; as in Rails)", () => {
  class Critic extends ApplicationRecord("users") {
    reviews = hasMany(Review, { foreignKey: "userId", dependent: "deleteAll" });
  }
  class StarredCritic extends ApplicationRecord("users") {
    starred = hasMany(Review, { foreignKey: "userId", dependent: "deleteAll", scope: (q) => q.where({ starred: true }) });
  }
  class Reader extends ApplicationRecord("users") {
    reviews = hasMany(Review, { foreignKey: "userId", dependent: "nullify" });
  }
  class SingleReviewer extends ApplicationRecord("users") {
    review = hasOne(Review, { foreignKey: "userId", dependent: "delete" });
  }
  class SingleReader extends ApplicationRecord("users") {
    review = hasOne(Review, { foreignKey: "userId", dependent: "nullify" });
  }
  class Poster extends ApplicationRecord("users") {
    posts = hasMany(Article, { foreignKey: "userId", dependent: "nullify" });
  }

  async function reviewsOf(owner: { id: string }, bodies: string[]): Promise<void> {
    for (const body of bodies) await Review.create({ userId: owner.id, body, starred: body.startsWith("*") });
  }

  it("deleteAll deletes the children with one DELETE in the owner's destroy batch, without their callbacks", async () => {
    const owner = await Critic.create({ name: "Ada" });
    const other = await Critic.create({ name: "Bob" });
    await reviewsOf(owner, ["one", "two"]);
    await reviewsOf(other, ["kept"]);
    const { db, events } = listen();
    const loaded = await db.model(Critic).find(owner.id);
    events.length = 0;
    expect(await loaded.destroy()).toBe(loaded);
    expect(events.map((event) => [event.sql, event.batched])).toEqual([
      [`DELETE FROM "reviews" WHERE "user_id" = ?`, true],
      [`DELETE FROM "users" WHERE "id" = ?`, true],
    ]);
    expect(await Review.pluck("body")).toEqual(["kept"]);
    expect(await countRows("users")).toBe(1);
  });

  it("deleteAll keeps to the association's scope", async () => {
    const owner = await StarredCritic.create({ name: "Ada" });
    await reviewsOf(owner, ["*starred", "plain"]);
    // Rows outside the scope still point at the owner, so the owner's DELETE is refused by the foreign key.
    await expect(owner.destroy()).rejects.toThrow(/FOREIGN KEY/);
    expect(await Review.pluck("body")).toEqual(expect.arrayContaining(["*starred", "plain"]));
    expect(owner.isPersisted()).toBe(true);
    await Review.where({ body: "plain" }).deleteAll();
    expect(await owner.destroy()).toBe(owner);
    expect(await countRows("reviews")).toBe(0);
  });

  it("nullify sets the children's foreign key to NULL with one UPDATE in the owner's destroy batch", async () => {
    const owner = await Reader.create({ name: "Ada" });
    await reviewsOf(owner, ["one", "two"]);
    const { db, events } = listen();
    const loaded = await db.model(Reader).find(owner.id);
    events.length = 0;
    expect(await loaded.destroy()).toBe(loaded);
    expect(events.map((event) => [event.sql, event.batched])).toEqual([
      [`UPDATE "reviews" SET "user_id" = ? WHERE "user_id" = ?`, true],
      [`DELETE FROM "users" WHERE "id" = ?`, true],
    ]);
    expect(await Review.where({ userId: null }).count()).toBe(2);
    expect(await countRows("users")).toBe(0);
  });

  it("nullify on a NOT NULL foreign key throws the database's error and writes nothing", async () => {
    const owner = await Poster.create({ name: "Ada" });
    await Article.create({ userId: owner.id, title: "one" });
    await expect(owner.destroy()).rejects.toThrow(/NOT NULL/);
    expect(owner.isPersisted()).toBe(true);
    expect(await countRows("users")).toBe(1);
    expect(await Article.where({ userId: owner.id }).count()).toBe(1);
  });

  it("an abort in a before-destroy callback protects children of deleteAll and nullify", async () => {
    class KeptCritic extends Critic {
      static {
        this.beforeDestroy(() => {
          throw abort("kept");
        });
      }
    }
    const owner = await KeptCritic.create({ name: "Ada" });
    await reviewsOf(owner, ["one"]);
    expect(await owner.destroy()).toBe(false);
    expect(owner.abortReason).toBe("kept");
    expect(await Review.where({ userId: owner.id }).count()).toBe(1);
  });

  it("hasOne takes delete and nullify", async () => {
    const deleting = await SingleReviewer.create({ name: "Ada" });
    await reviewsOf(deleting, ["gone"]);
    expect((await deleting.review.load())?.body).toBe("gone");
    expect(await deleting.destroy()).toBe(deleting);
    expect(await countRows("reviews")).toBe(0);

    const nullifying = await SingleReader.create({ name: "Bob" });
    await reviewsOf(nullifying, ["orphaned"]);
    expect(await nullifying.destroy()).toBe(nullifying);
    expect((await Review.findByOrThrow({ body: "orphaned" })).userId).toBeNull();
  });

  it("a dependent value the association kind does not take throws InvalidModel at first use", () => {
    class Mixed extends ApplicationRecord("users") {
      // @ts-expect-error: hasMany says deleteAll, not delete
      reviews = hasMany(Review, { foreignKey: "userId", dependent: "delete" });
    }
    expect(() => Mixed.build({ name: "Ada" })).toThrow(InvalidModel);
    expect(() => Mixed.build({ name: "Ada" })).toThrow(`Mixed.reviews: dependent "delete" is not known; use one of destroy, deleteAll, nullify, restrictWithError`);
    class MixedOne extends ApplicationRecord("users") {
      // @ts-expect-error: hasOne says delete, not deleteAll
      review = hasOne(Review, { foreignKey: "userId", dependent: "deleteAll" });
    }
    expect(() => MixedOne.build({ name: "Ada" })).toThrow(/MixedOne.review: dependent "deleteAll" is not known; use one of destroy, delete, nullify/);
  });
});
