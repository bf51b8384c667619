/** Associations' dependent option: destroy, deleteAll, delete, nullify and the restrict forms. */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, belongsTo, hasMany, hasOne, InvalidModel, RecordNotDestroyed, batch, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { Article, Guarded, Review, Writer } from "../models/association-fixtures.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { rejectionOf } from "../helpers/errors.js";
import { Item as OwnedItem, Owner as ItemOwner } from "../models/owners-and-items.js";
import { SaaItem, SaaOwner } from "../models/titled-items-and-owners.js";

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
    expect(events.map((event) => event.sql)).toEqual(['SELECT 1 AS "recordflare_one" FROM "posts" WHERE "user_id" = ?1 LIMIT 1']);
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
      [`DELETE FROM "reviews" WHERE "user_id" = ?1`, true],
      [`DELETE FROM "users" WHERE "id" = ?1`, true],
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
      [`UPDATE "reviews" SET "user_id" = ?1 WHERE "user_id" = ?2`, true],
      [`DELETE FROM "users" WHERE "id" = ?1`, true],
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
    expect(() => Mixed.build({ name: "Ada" })).toThrow(`Mixed.reviews (hasMany): dependent must be one of destroy, deleteAll, nullify, restrictWithError, not "delete"`);
    class MixedOne extends ApplicationRecord("users") {
      // @ts-expect-error: hasOne says delete, not deleteAll
      review = hasOne(Review, { foreignKey: "userId", dependent: "deleteAll" });
    }
    expect(() => MixedOne.build({ name: "Ada" })).toThrow(/MixedOne\.review \(hasOne\): dependent must be one of destroy, delete, nullify, restrictWithError, not "deleteAll"/);
  });
});

describe("guide: Associations, options are checked at the Model's first use", () => {
  it("a misspelt option (dependant) is refused, naming the Model, the association and the option, listing the valid ones", async () => {
    class Typo extends ApplicationRecord("users") {
      // @ts-expect-error: dependant is no option
      reviews = hasMany(Review, { foreignKey: "userId", dependant: "destroy" });
    }
    expect(() => Typo.build({ name: "Ada" })).toThrow(new InvalidModel("Typo.reviews (hasMany): dependant is an unknown option (options: dependent, foreignKey, scope, as)"));
    // Refused before any row is written or read: no children can be left behind by a destroy.
    await expect(Typo.create({ name: "Ada" })).rejects.toThrow(InvalidModel);
    expect(await countRows("users")).toBe(0);
  });

  it("each kind takes its own options: belongsTo takes foreignKey, optional and counterCache, no dependent", () => {
    class Child extends Model({ id: "string", userId: "string" }) {
      static override binding = "DB";
      static override tableName = "reviews";
      // @ts-expect-error: belongsTo takes no dependent
      user = belongsTo(Writer, { dependent: "destroy" });
    }
    expect(() => Child.build({})).toThrow(new InvalidModel("Child.user (belongsTo): dependent is an unknown option (options: foreignKey, optional, counterCache)"));
    class HasOneTypo extends ApplicationRecord("users") {
      // @ts-expect-error: optional is belongsTo's
      review = hasOne(Review, { foreignKey: "userId", optional: true });
    }
    expect(() => HasOneTypo.build({ name: "Ada" })).toThrow(/^HasOneTypo\.review \(hasOne\): optional is an unknown option \(options: dependent, foreignKey, scope, as\)$/);
  });

  it("primaryKey, Rails' option for another unique key, is refused rather than silently ignored", () => {
    class ByCode extends ApplicationRecord("users") {
      // @ts-expect-error: primaryKey is not supported
      reviews = hasMany(Review, { foreignKey: "userId", primaryKey: "email" });
    }
    expect(() => ByCode.build({ name: "Ada" })).toThrow(InvalidModel);
    expect(() => ByCode.build({ name: "Ada" })).toThrow(/^ByCode\.reviews \(hasMany\): primaryKey is not supported: .* \(options: dependent, foreignKey, scope, as\)$/);
  });

  it("option values of the wrong kind are refused: a scope that is no function, a foreignKey that is no name, optional not a boolean", () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => hasMany(Review, { foreignKey: "userId", scope: "published" as never }), /\(hasMany\): scope must be a function of the Relation, not "published"/],
      [() => hasMany(Review, { foreignKey: 5 as never }), /\(hasMany\): foreignKey must be an attribute name, not 5/],
      [() => belongsTo(Writer, { foreignKey: "userId", optional: "yes" as never }), /\(belongsTo\): optional must be a boolean, not "yes"/],
      [() => hasMany(Review, null as never), /\(hasMany\): options must be a plain object, not null/],
      [() => hasMany(undefined as never), /\(hasMany\): the target must be a Model class, not undefined/],
    ];
    for (const [declare, message] of cases) {
      class Declared extends ApplicationRecord("users") {
        association = declare();
      }
      expect(() => Declared.build({ name: "Ada" })).toThrow(InvalidModel);
      expect(() => Declared.build({ name: "Ada" })).toThrow(message);
    }
  });
});

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

class SaaPin extends Model({ id: { type: "string", null: false, generateId: true }, saaItemId: { type: "string", null: false } }) {
  static override binding = "DB";
}

describe("dependent (SPEC: Associations, destroy rows, Ordering rules)", () => {
  class Destroyer extends SaaOwner {
    override items = hasMany(DestroyedItem, { dependent: "destroy", foreignKey: "saaOwnerId" });
    static {
      this.beforeDestroy(() => void log.push("owner beforeDestroy"));
      this.afterDestroy(() => void log.push("owner afterDestroy"));
    }
  }
  class DestroyedItem extends SaaItem {
    static {
      this.beforeDestroy((item) => void log.push(`item beforeDestroy ${item.title}`));
      this.afterDestroy((item) => void log.push(`item afterDestroy ${item.title}`));
    }
  }

  it("a dependent's DELETE refused by the database writes nothing: owner and children stay", async () => {
    const owner = await Destroyer.create({ name: "A" });
    await owner.items().build({ title: "one" }).save();
    const pinned = owner.items().build({ title: "two" });
    await pinned.save();
    await SaaPin.create({ saaItemId: pinned.id });
    await expect(owner.destroy()).rejects.toThrow(/FOREIGN KEY/);
    expect(await countRows("saa_owners")).toBe(1);
    expect(await countRows("saa_items")).toBe(2);
    expect(owner.isPersisted()).toBe(true);
    expect(owner.isDestroyed()).toBe(false);
    expect(log.filter((line) => line.includes("after"))).toEqual([]);
  });

  it("before-destroy callbacks of owner and children all run before the write, after-destroy ones after", async () => {
    const owner = await Destroyer.create({ name: "A" });
    await owner.items().build({ title: "one" }).save();
    await owner.items().build({ title: "two" }).save();
    log.length = 0;
    const { db, events } = listen();
    const bound = await db.model(Destroyer).find(owner.id);
    events.length = 0;
    expect(await bound.destroy()).toBe(bound);
    const [first, second] = log.slice(1, 3).sort();
    expect(log[0]).toBe("owner beforeDestroy");
    expect([first, second]).toEqual(["item beforeDestroy one", "item beforeDestroy two"]);
    expect(log.slice(3).at(-1)).toBe("owner afterDestroy");
    expect(events.filter((event) => event.sql.startsWith("DELETE")).every((event) => event.batched)).toBe(true);
    expect(await countRows("saa_items")).toBe(0);
  });

  it("restrictWithError: an abort in a before-destroy callback sends no query for the children", async () => {
    class Restricted extends SaaOwner {
      override items = hasMany(SaaItem, { dependent: "restrictWithError", foreignKey: "saaOwnerId" });
      static {
        this.beforeDestroy(() => {
          throw abort("kept");
        });
      }
    }
    const { db, events } = listen();
    const owner = await db.model(Restricted).create({ name: "A" });
    events.length = 0;
    expect(await owner.destroy()).toBe(false);
    expect(events).toHaveLength(0);
    expect(owner.abortReason).toBe("kept");
  });

  it("restrictWithError: refused with errors, row kept, still persisted; once the children are gone it succeeds", async () => {
    class Restricted extends SaaOwner {
      override items = hasMany(SaaItem, { dependent: "restrictWithError", foreignKey: "saaOwnerId" });
      static {
        this.afterDestroy(() => void log.push("afterDestroy"));
      }
    }
    const owner = await Restricted.create({ name: "A" });
    const item = owner.items().build({ title: "x" });
    await item.save();
    expect(await owner.destroy()).toBe(false);
    expect(owner.isPersisted()).toBe(true);
    expect(owner.errors.toArray()).toEqual([{ attribute: "base", type: "restrict_dependent_destroy", message: "Cannot delete record because dependent items exist" }]);
    expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because dependent items exist"]);
    await expect(owner.destroyOrThrow()).rejects.toThrow(RecordNotDestroyed);
    expect(log).toEqual([]);
    await item.destroy();
    expect(await owner.destroy()).toBe(owner);
    expect(owner.errors.size).toBe(0);
    expect(owner.isDestroyed()).toBe(true);
  });
});

describe("restrictWithError's reason, as Rails words it", () => {
  it("names a hasMany's children in readable words, and a hasOne's child in the singular", async () => {
    class Strict extends SaaOwner {
      keptItems = hasMany(SaaItem, { dependent: "restrictWithError", foreignKey: "keeperId" });
      mainItem = hasOne(SaaItem, { dependent: "restrictWithError", foreignKey: "saaOwnerId" });
    }
    const owner = await Strict.create({ name: "A" });
    await owner.keptItems().build({ title: "kept" }).save();
    expect(await owner.destroy()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because dependent kept items exist"]);
    await SaaItem.all().deleteAll();
    await owner.mainItem.build({ title: "main" }).save();
    expect(await owner.destroy()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because a dependent main item exists"]);
  });
});

const I = OwnedItem as any;

const O = ItemOwner as any;

describe("dependent destroy with a child's callback aborting", () => {
  class Touchy extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string", code: "string" }) {
    static override binding = "DB";
    static override tableName = "saq_items";
    static seen: string[] = [];
    static {
      this.beforeDestroy((record: any) => {
        Touchy.seen.push(record.id);
        if (record.name === "keep") throw abort("kept");
      });
    }
  }
  class Holder extends Model({ id: { type: "string", null: false }, name: "string" }) {
    static override binding = "DB";
    static override tableName = "saq_owners";
    touchies = hasMany(Touchy, { foreignKey: "ownerId", dependent: "destroy" });
    touchy = hasOne(Touchy, { foreignKey: "ownerId", dependent: "destroy" });
  }

  it("the second of two children aborting: nothing is deleted, in a batch with other writes too", async () => {
    await O.insert({ id: "h1", name: "h" });
    await I.insertAll([{ id: "t1", ownerId: "h1", name: "go", code: "1" }, { id: "t2", ownerId: "h1", name: "keep", code: "2" }]);
    const holder = await (Holder as any).find("h1");
    expect(await holder.destroy()).toBe(false);
    expect(holder.abortReason).toBe("kept");
    expect(holder.isPersisted()).toBe(true);
    expect(await I.where({ ownerId: "h1" }).count()).toBe(2);
    expect(await rejectionOf(holder.destroyOrThrow())).toBeInstanceOf(RecordNotDestroyed);
    const other = I.build({ id: "other", code: "O" });
    const refused = await rejectionOf(batch([other.toSave(), holder.toDestroy()]));
    expect(refused).toBeInstanceOf(Error);
    expect(await I.where({ id: "other" }).count()).toBe(0);
    expect(await O.where({ id: "h1" }).count()).toBe(1);
    expect(await I.where({ ownerId: "h1" }).count()).toBe(2);
  });
});
