/** Associations in queries: association Relations combined with where, scopes, order and calculations. */
import { beforeEach, describe, expect, it, expectTypeOf } from "vitest";
import {
  batch,
  hasMany,
  hasOne,
  Model,
  RecordNotDestroyed,
  abort,
  belongsTo,
  connect,
  AssociationNotLoaded,
  IncompatibleRelation,
  InvalidModel,
  NotNullViolation,
  RecordflareError,
  withDatabase,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { Badge, Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen } from "../models/owners-and-items.js";
import { listen, countRows, recordingRoundTrips } from "../helpers/queries.js";
import { env } from "cloudflare:test";
import { ApplicationRecord as FixtureApplicationRecord, Post } from "../models/fixtures.js";

beforeEach(resetDatabase);

/** Owner's table with a dependent hasMany (a subclass, so that Owner's own destroys keep their children). */
class DependentOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_owners";
  kept = hasMany(OwnedItem, { foreignKey: "ownerId", dependent: "destroy" });
}

const I = OwnedItem as any;

const O = ItemOwner as any;

const B = Badge as any;

describe("Associations in combination", () => {
  it("hasMany: a child built and not saved, then the owner destroyed: nothing of the child is written", async () => {
    await seedOwnedItemsSeen();
    const bare = await O.create({ id: "o3", name: "three" });
    bare.items().build({ name: "new", code: "N" });
    expect(await bare.destroy()).toBe(bare);
    expect(await I.where({ code: "N" }).count()).toBe(0);
    const owner = await DependentOwner.find("o1");
    const built = owner.kept().build({ name: "new", code: "N" });
    const { db, events } = listen();
    expect(await db.batch([owner.toDestroy()])).toHaveLength(1);
    expect(owner.isDestroyed()).toBe(true);
    // The built child has no row: no INSERT, and no DELETE for it (Rails sends no SQL to destroy a new record).
    expect(events.filter((event) => event.sql.startsWith("INSERT"))).toEqual([]);
    // One set-based DELETE of the children's rows, then the owner's.
    expect(events.filter((event) => event.sql.startsWith("DELETE"))).toHaveLength(2);
    expect(built.isDestroyed()).toBe(true);
    expect(await I.where({ ownerId: "o1" }).count()).toBe(0);
    expect(await I.where({ code: "N" }).count()).toBe(0);
  });

  it("belongsTo set(null) clears the key, get() is null without a query, and the save writes NULL", async () => {
    await seedOwnedItemsSeen();
    const item = await I.find("a");
    expect((await item.owner.load()).id).toBe("o1");
    item.owner.set(null);
    expect(item.ownerId).toBeNull();
    expect(item.owner.get()).toBeNull();
    expect(item.owner.isLoaded).toBe(true);
    expect(await item.save()).toBe(true);
    expect((await I.find("a")).ownerId).toBeNull();
    expect(await (await I.find("a")).owner.load()).toBeNull();
  });

  it("belongsTo set(new parent) then set(null): the new parent is not saved", async () => {
    const item = I.build({ id: "z", code: "Z" });
    item.owner.set(O.build({ name: "fresh" }));
    item.owner.set(null);
    expect(await item.save()).toBe(true);
    expect(await O.count()).toBe(0);
    expect((await I.find("z")).ownerId).toBeNull();
  });

  it("hasOne: a replacement built for a saved child, the old one destroyed in the same batch (the guide's way)", async () => {
    await seedOwnedItemsSeen();
    const owner = await O.find("o1");
    const old = await owner.badge.load() ?? (await B.create({ name: "old", ownerId: "o1" }));
    owner.badge.build({ name: "new" });
    expect(owner.badge.get().name).toBe("new");
    await batch([old.toDestroy(), owner.toSave()]);
    expect(await B.where({ ownerId: "o1" }).pluck("name")).toEqual(["new"]);
  });

  it("reloadAssociation on a never-loaded association loads it", async () => {
    await seedOwnedItemsSeen();
    await B.create({ name: "b", ownerId: "o1" });
    const owner = await O.find("o1");
    const items = await owner.reloadAssociation("items");
    expect(items.map((r: any) => r.id).sort()).toEqual(["a", "b"]);
    expect((await owner.reloadAssociation("badge")).name).toBe("b");
    expect(owner.badge.get().name).toBe("b");
    const item = await I.find("c");
    expect((await item.reloadAssociation("owner")).id).toBe("o2");
    expect(item.owner.get().id).toBe("o2");
  });

  // SPEC Transitions: "reload() | row exists | ... unsaved changes and loaded associations discarded"; Rails'
  // reload of the owner or of the association resets its target, so that a child built before is not saved.
  it("reload and reloadAssociation discard children built and not saved, as Rails' reset of the association does", async () => {
    await seedOwnedItemsSeen();
    const owner = await O.find("o1");
    await owner.items().toArray();
    owner.items().build({ name: "new", code: "N" });
    expect(await owner.items().size()).toBe(3);
    expect(await owner.reloadAssociation("items")).toHaveLength(2);
    expect(await owner.items().size()).toBe(2);
    owner.items().build({ name: "new", code: "N" });
    owner.badge.build({ name: "built" });
    await owner.reload();
    expect(await owner.items().size()).toBe(2);
    expect(await owner.badge.load()).toBeNull();
    owner.badge.build({ name: "built" });
    expect(await owner.reloadAssociation("badge")).toBeNull();
    owner.name = "renamed";
    expect(await owner.save()).toBe(true);
    expect(await I.where({ code: "N" }).count()).toBe(0);
    expect(await B.count()).toBe(0);
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

// ---- Associations ------------------------------------------------------------------------------------

describe("Associations", () => {
  // SPEC Associations: "hasOne(Target) | user.profile.build() builds the child" (one-to-one). Building twice
  // leaves one child to save, as Rails replaces the built record.
  it("hasOne: building the child twice saves one child", async () => {
    const owner = Owner.build({ id: "own1", name: "a" });
    owner.onlyKid.build({ id: "k1", name: "first" });
    owner.onlyKid.build({ id: "k2", name: "second" });
    expect(await owner.save()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });

  // SPEC Errors: "RecordNotDestroyed | destroyOrThrow is aborted by a callback or refused by a restrictWithError
  // association"; Persistence: "rec.destroy() | destroyed record, or false on abort | throws constraint errors,
  // RecordDestroyed". A dependent whose before-destroy callback aborts refuses the owner's destroy: false.
  it("a dependent's aborting before-destroy callback makes destroy() answer false and destroyOrThrow throw RecordNotDestroyed; nothing deleted", async () => {
    class StubbornKid extends Kid {
      static {
        this.beforeDestroy(() => {
          throw abort("kid refuses");
        });
      }
    }
    class StubbornOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(StubbornKid, { dependent: "destroy", foreignKey: "ownerId" });
    }
    const owner = await StubbornOwner.create({ id: "own2", name: "a" });
    await StubbornKid.create({ id: "k3", ownerId: owner.id, name: "k" });
    expect(await owner.destroy()).toBe(false);
    expect(owner.abortReason).toBe("kid refuses");
    expect(owner.isPersisted()).toBe(true);
    expect(await rejectionOf(owner.destroyOrThrow())).toBeInstanceOf(RecordNotDestroyed);
    expect(await countRows("audit_q_owners")).toBe(1);
    expect(await countRows("audit_q_children")).toBe(1);
  });
});

// ---- Associations ---------------------------------------------------------------------------------------------

class Writer extends FixtureApplicationRecord("users") {
  posts = hasMany(Entry, { dependent: "destroy", foreignKey: "userId" });
}

class Entry extends FixtureApplicationRecord("posts") {
  author = belongsTo(Writer, { foreignKey: "userId" });
}

describe("guide: Associations", () => {
  it("saves the graph in one batch, preloads in two queries of one round trip, destroys as shown", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const ada = Writer.build({ name: "Ada" });
      ada.posts().build({ title: "One" });
      ada.posts().build({ title: "Two" });
      await ada.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([
        [`INSERT INTO "users"`, `INSERT INTO "posts"`, `INSERT INTO "posts"`],
      ]);

      const entries = await ada.posts().order({ title: "asc" }).toArray();
      const author = await entries[0]!.author.load();
      expectTypeOf(author).toEqualTypeOf<Writer | null>();
      expect(author!.id).toBe(ada.id);

      roundTrips.length = 0;
      const withAuthors = await Entry.includes("author").toArray();
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      expect(withAuthors.map((entry) => entry.author.get()?.name)).toEqual(["Ada", "Ada"]);

      roundTrips.length = 0;
      await ada.destroy();
      // No callbacks among the posts: one set-based DELETE of the posts in the owner's batch, no read.
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" WHERE")[0]))).toEqual([[`DELETE FROM "posts"`, `DELETE FROM "users"`]]);
    });
  });

  it("includes of a name that is not an association throws TypeError", async () => {
    await expect(Entry.includes("nope" as never).toArray()).rejects.toBeInstanceOf(TypeError);
  });

  it("hasOne, set, reloadAssociation and restrictWithError: runs the example", async () => {
    class Owner extends FixtureApplicationRecord("users") {
      profile = hasOne(OwnerProfile, { foreignKey: "userId", dependent: "restrictWithError" });
    }
    class OwnerProfile extends Model({
      id: { type: "string", null: false },
      userId: { type: "string", null: false },
      bio: "string",
    }) {
      static override tableName = "profiles";
      static override binding = "DB";
      owner = belongsTo(Owner, { foreignKey: "userId" });
    }

    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const owner = Owner.build({ name: "Ada" });
      owner.profile.build({ bio: "Mathematician" });
      await owner.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "users"`, `INSERT INTO "profiles"`]]);
      expect(owner.profile.get()?.bio).toBe("Mathematician");

      roundTrips.length = 0;
      const profile = OwnerProfile.build({ bio: "Poet" });
      const byron = Owner.build({ name: "Byron" });
      profile.owner.set(byron);
      await profile.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "users"`, `INSERT INTO "profiles"`]]);
      expect(profile.userId).toBe(byron.id);
      expect(byron.isPersisted()).toBe(true);

      await env.DB.prepare(`UPDATE profiles SET bio = 'Countess' WHERE user_id = ?`).bind(owner.id).run();
      await owner.reloadAssociation("profile");
      expect(owner.profile.get()?.bio).toBe("Countess");
      expect(await owner.destroy()).toBe(false);
      expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because a dependent profile exists"]);
      expect(owner.isPersisted()).toBe(true);
    });
  });

  it("association options other than foreignKey, dependent and scope: a compile error, and InvalidModel at first use", async () => {
    class Blogger extends FixtureApplicationRecord("users") {
      // @ts-expect-error className is not an option
      posts = hasMany(Post, { foreignKey: "userId", className: "Article" });
    }
    await expect(Blogger.createOrThrow({ name: "Ada" })).rejects.toThrow(
      new InvalidModel("Blogger.posts (hasMany): className is an unknown option (options: dependent, foreignKey, scope, as)"),
    );
    expect(await countRows("users")).toBe(0);
  });

  it("Associations, scope: the Blogger example works as described", async () => {
    class Blogger extends FixtureApplicationRecord("users") {
      published = hasMany(Post, { foreignKey: "userId", scope: (q) => q.where({ published: true }) });
      latest = hasMany(Post, { foreignKey: "userId", scope: (q) => q.order({ createdAt: "desc" }).limit(3) });
    }
    const blogger = await Blogger.createOrThrow({ name: "Ada" });
    for (const title of ["a", "b", "c", "d"]) await Post.createOrThrow({ userId: blogger.id, title });
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      await Blogger.includes("published").toArray();
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      await expect(Blogger.includes("latest").toArray()).rejects.toBeInstanceOf(IncompatibleRelation);
      expect(await blogger.latest().toArray()).toHaveLength(3);
    });
  });

  it("the default foreign key of hasMany is the owner's class name plus Id; a missing one throws InvalidModel at first use", async () => {
    class Blogger extends FixtureApplicationRecord("users") {
      published = hasMany(Post);
    }
    const error = await thrown(async () => {
      const b = await Blogger.createOrThrow({ name: "x" });
      await b.published().toArray();
    });
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toContain("bloggerId");
  });
});

describe("guide: Associations, prose claims", () => {
  it("toArray of an association is remembered: size(), isEmpty(), hasAny() then send nothing", async () => {
    const ada = await Writer.createOrThrow({ name: "Ada" });
    await Entry.createOrThrow({ userId: ada.id, title: "t" });
    const { db, sqls } = listen();
    const loaded = await db.model(Writer).find(ada.id);
    await loaded.posts().toArray();
    const n = sqls().length;
    expect(await loaded.posts().size()).toBe(1);
    expect(await loaded.posts().isEmpty()).toBe(false);
    expect(await loaded.posts().hasAny()).toBe(true);
    expect(sqls().length).toBe(n);
  });

  it("get() of an association not loaded throws AssociationNotLoaded; also on a record made with new", async () => {
    const entry = Entry.build({ userId: "x", title: "t" });
    expect(() => entry.author.get()).toThrow(new AssociationNotLoaded(`Entry.author.get: author is not loaded; await author.load() first, or query with includes("author")`));
    expect(() => new Entry().author.get()).toThrow(AssociationNotLoaded);
  });

  it("a refused child refuses the owner's save: errors 'Post is invalid: Title can't be blank'; nothing written", async () => {
    const StrictPost = class Post extends FixtureApplicationRecord("posts") {
      static {
        this.validates("title", { presence: true });
      }
    };
    class Owner extends FixtureApplicationRecord("users") {
      posts = hasMany(StrictPost, { foreignKey: "userId" });
    }
    const owner = Owner.build({ name: "x" });
    const child = owner.posts().build({ title: "  " });
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Post is invalid: Title can't be blank"]);
    expect(child.errors.fullMessages()).toEqual(["Title can't be blank"]);
    expect(await countRows("users")).toBe(0);
  });

  it("hasOne build again replaces the unsaved child: one child written", async () => {
    class Profile extends Model({ id: { type: "string", null: false }, userId: { type: "string", null: false }, bio: "string" }) {
      static override binding = "DB";
    }
    class Owner extends FixtureApplicationRecord("users") {
      profile = hasOne(Profile, { foreignKey: "userId" });
    }
    const owner = Owner.build({ name: "x" });
    owner.profile.build({ bio: "a" });
    owner.profile.build({ bio: "b" });
    await owner.saveOrThrow();
    expect(await countRows("profiles")).toBe(1);
  });

  it("a new parent given with set() is saved with the record, in the same batch", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const writer = Writer.build({ name: "W" });
      const entry = Entry.build({ title: "t" });
      entry.author.set(writer);
      await entry.saveOrThrow();
      expect(roundTrips).toHaveLength(1);
      expect(entry.userId).toBe(writer.id);
      expect(writer.isPersisted()).toBe(true);
    });
  });

  it("dependent: 'delete' on hasMany is InvalidModel at first use; nullify on NOT NULL throws NotNullViolation, nothing written", async () => {
    class Bad extends FixtureApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "delete" as never, foreignKey: "userId" });
    }
    expect(() => Bad.build({ name: "x" })).toThrow(InvalidModel);
    class Nul extends FixtureApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "nullify", foreignKey: "userId" });
    }
    const n = await Nul.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: n.id, title: "t" });
    const error = await rejectionOf(n.destroy());
    expect(error).toBeInstanceOf(NotNullViolation);
    expect(error.message).toBe("Post.userId cannot be NULL (posts.user_id is NOT NULL)");
    expect(await countRows("users")).toBe(1);
    expect(await countRows("posts")).toBe(1);
  });

  it("associations are never in toJSON", async () => {
    const w = Writer.build({ name: "x" });
    w.posts().build({ title: "t" });
    expect(Object.keys(w.toJSON())).not.toContain("posts");
  });
});

describe("guide: Associations, scope and dependent", () => {
  it("deleteAll keeps to the scope; rows outside it make the REFERENCES constraint refuse the owner's DELETE", async () => {
    class Owner extends FixtureApplicationRecord("users") {
      drafts = hasMany(Post, { foreignKey: "userId", dependent: "deleteAll", scope: (q) => q.where({ published: false }) });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: o.id, title: "draft" });
    await Post.createOrThrow({ userId: o.id, title: "pub", published: true });
    const error = await rejectionOf(o.destroy());
    expect(error.message).toMatch(/FOREIGN KEY/);
    expect(await countRows("posts")).toBe(2);
  });

  it("nullify: one UPDATE, no timestamps; deleteAll: one DELETE", async () => {
    const { Review } = await import("../models/association-fixtures.js");
    class Owner extends FixtureApplicationRecord("users") {
      reviews = hasMany(Review, { foreignKey: "userId", dependent: "nullify" });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Review.createOrThrow({ userId: o.id, body: "a" });
    await Review.createOrThrow({ userId: o.id, body: "b" });
    const { binding, roundTrips } = recordingRoundTrips();
    const loaded = await connect(binding).model(Owner).find(o.id);
    roundTrips.length = 0;
    await loaded.destroy();
    expect(roundTrips).toEqual([[`UPDATE "reviews" SET "user_id" = ?1 WHERE "user_id" = ?2`, `DELETE FROM "users" WHERE "id" = ?1`]]);
  });

  it("a parent already writing the record as its child is not saved twice", async () => {
    const w = Writer.build({ name: "w" });
    const e = w.posts().build({ title: "t" });
    e.author.set(w);
    const { binding, roundTrips } = recordingRoundTrips();
    await connect(binding).batch([w.toSave()]);
    expect(roundTrips.flat().filter((s) => s.startsWith(`INSERT INTO "users"`))).toHaveLength(1);
    expect(roundTrips.flat().filter((s) => s.startsWith(`INSERT INTO "posts"`))).toHaveLength(1);
  });

  it("includes works with first() and paginate", async () => {
    const w = await Writer.createOrThrow({ name: "w" });
    await Entry.createOrThrow({ userId: w.id, title: "t" });
    const first = await Entry.includes("author").first();
    expect(first!.author.get()!.name).toBe("w");
    const page = await Entry.includes("author").paginate();
    expect(page.records[0]!.author.get()!.name).toBe("w");
  });
});
