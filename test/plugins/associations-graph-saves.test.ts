/** Saving a graph of associated records: one batch per level, keys the database assigns, and graphs inside batch. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  belongsTo,
  hasMany,
  hasOne,
  Model,
  RecordNotSaved,
  RecordNotUnique,
  connect,
  RecordInvalid,
  withDatabase,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import { rejectionOf } from "../helpers/errors.js";
import { Author, Book } from "../models/association-fixtures.js";
import { SaaItem, SaaOwner } from "../models/titled-items-and-owners.js";

beforeEach(resetDatabase);

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

class SaaPin extends Model({ id: { type: "string", null: false, generateId: true }, saaItemId: { type: "string", null: false } }) {
  static override binding = "DB";
}

describe("integer keys: each level of a graph in a separate batch", () => {
  class SaaIntItem extends Model({ id: "integer", saaIntOwnerId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
    static override binding = "DB";
  }
  class SaaIntOwner extends Model({ id: "integer", name: { type: "string", null: false } }) {
    static override binding = "DB";
    item = hasOne(SaaIntItem);
    items = hasMany(SaaIntItem);
  }

  it("hasOne build takes the owner's key after its insert", async () => {
    const { db, events } = listen();
    const owner = db.model(SaaIntOwner).build({ name: "A" });
    const item = owner.item.build({ title: "x" });
    expect(await owner.save()).toBe(true);
    expect(item.saaIntOwnerId).toBe(owner.id);
    expect(item.isPersisted()).toBe(true);
    // Two round trips: the owner's INSERT, then the child's, which needs the owner's key.
    expect(events.map((event) => event.sql.split(" ").slice(0, 3).join(" "))).toEqual([`INSERT INTO "saa_int_owners"`, `INSERT INTO "saa_int_items"`]);
  });
  it("in db.batch, the owner goes in the batch and its children in a batch of their own after it", async () => {
    const { db, events } = listen();
    const owner = db.model(SaaIntOwner).build({ name: "A" });
    const items = [owner.items().build({ title: "x" }), owner.items().build({ title: "y" })];
    const other = db.model(SaaOwner).build({ name: "B" });
    await db.batch([owner.toSave(), other.toSave()]);
    expect(events.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      [`INSERT INTO "saa_int_owners"`, true],
      [`INSERT INTO "saa_owners"`, true],
      [`INSERT INTO "saa_int_items"`, true],
      [`INSERT INTO "saa_int_items"`, true],
    ]);
    expect(items.map((item) => [item.isPersisted(), item.saaIntOwnerId])).toEqual([
      [true, owner.id],
      [true, owner.id],
    ]);
  });
});

describe("graphs and batches", () => {
  class SaaLeafItem extends SaaItem {}
  class SaaParentItem extends SaaItem {
    pins = hasMany(SaaPin, { foreignKey: "saaItemId", dependent: "destroy" });
  }
  class SaaTree extends SaaOwner {
    override items = hasMany(SaaParentItem, { foreignKey: "saaOwnerId", dependent: "destroy" });
    leaf = hasOne(SaaLeafItem, { foreignKey: "keeperId" });
  }

  it("text keys: an owner, its children and their children are written in one atomic batch", async () => {
    const { db, events } = listen();
    const owner = db.model(SaaTree).build({ name: "A" });
    const item = owner.items().build({ title: "x" });
    const pin = item.pins().build({});
    expect(pin.saaItemId).toBe(item.id);
    expect(await owner.save()).toBe(true);
    expect(events.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      [`INSERT INTO "saa_owners"`, true],
      [`INSERT INTO "saa_items"`, true],
      [`INSERT INTO "saa_pins"`, true],
    ]);
    expect(pin.isPersisted()).toBe(true);
  });

  describe("children built through one owner that are each other's parents (a thread under a post)", () => {
    class ThreadPost extends Model({ id: { type: "string", null: false, generateId: true }, title: { type: "string", null: false } }) {
      static override binding = "DB";
      static override tableName = "cc_posts";
      comments = hasMany(ThreadComment, { foreignKey: "ccPostId" });
    }
    class ThreadComment extends Model({
      id: { type: "string", null: false, generateId: true },
      ccPostId: "string",
      parentId: "string",
      body: { type: "string", null: false },
    }) {
      static override binding = "DB";
      static override tableName = "cc_comments";
      parent = belongsTo(ThreadComment, { optional: true });
    }

    it("writes each comment once, parents before their replies whatever the order built, in one round trip", async () => {
      const { db, events } = listen();
      const post = db.model(ThreadPost).build({ title: "Thread" });
      const root = post.comments().build({ body: "root" });
      const first = post.comments().build({ body: "first", parent: root });
      const nested = post.comments().build({ body: "nested" });
      const second = post.comments().build({ body: "second", parent: root });
      nested.parent.set(second);
      expect(await post.save()).toBe(true);
      expect(new Set(events.map((event) => event.roundTrip)).size).toBe(1);
      expect(await ThreadComment.order({ body: "asc" }).pluck("body", "parentId")).toEqual([
        ["first", root.id],
        ["nested", second.id],
        ["root", null],
        ["second", root.id],
      ]);
      expect([root, first, second, nested].every((comment) => comment.isPersisted() && comment.ccPostId === post.id)).toBe(true);
    });

    it("a parent taken out of the post after a failed save is written by its reply", async () => {
      const taken = await ThreadComment.create({ body: "taken" });
      const post = ThreadPost.build({ title: "Thread" });
      const root = post.comments().build({ body: "root", id: taken.id });
      const reply = post.comments().build({ body: "reply", parent: root });
      await expect(post.save()).rejects.toThrow(RecordNotUnique);
      await post.comments().remove(root);
      root.id = crypto.randomUUID();
      expect(await post.save()).toBe(true);
      expect(await ThreadComment.where({ id: [root.id, reply.id] }).order({ body: "asc" }).pluck("body", "parentId")).toEqual([
        ["reply", root.id],
        ["root", null],
      ]);
    });

    it("keys the database assigns: a reply naming a sibling as parent refuses the save, naming them, and writes nothing", async () => {
      class IntUser extends Model({ id: "integer", name: { type: "string", null: false } }) {
        static override binding = "DB";
        static override tableName = "tc_users";
        comments = hasMany(IntComment, { foreignKey: "tcUserId" });
      }
      class IntComment extends Model({ id: "integer", tcUserId: "integer", parentId: "integer", body: { type: "string", null: false } }) {
        static override binding = "DB";
        static override tableName = "tc_comments";
        parent = belongsTo(IntComment, { optional: true });
      }
      const user = IntUser.build({ name: "u" });
      const root = user.comments().build({ body: "root" });
      const reply = user.comments().build({ body: "reply", parent: root });
      const error = await rejectionOf(user.saveOrThrow());
      expect(error).toBeInstanceOf(RecordNotSaved);
      expect(error.message).toContain(
        "IntComment.parent: the IntComment it names is built through the same IntUser, and the database assigns its key, so it has none yet: save it first",
      );
      expect([await countRows("tc_users"), await countRows("tc_comments"), user.isNewRecord(), reply.isNewRecord()]).toEqual([0, 0, true, true]);
      root.parent.set(null);
      reply.parent.set(null);
      expect(await user.save()).toBe(true);
      await reply.update({ parent: root });
      expect(reply.parentId).toBe(root.id);
    });

    it("a saved post writes a reply built before its parent after it", async () => {
      const post = await ThreadPost.create({ title: "Thread" });
      const reply = post.comments().build({ body: "reply" });
      const root = post.comments().build({ body: "root" });
      reply.parent.set(root);
      expect(await post.save()).toBe(true);
      expect(await ThreadComment.where({ id: reply.id }).pluck("parentId")).toEqual([root.id]);
    });
  });

  it("text keys: a grandchild refused by the database writes nothing of the graph", async () => {
    const first = SaaTree.build({ name: "first" });
    const taken = first.items().build({ title: "x" }).pins().build({});
    await first.save();
    const owner = SaaTree.build({ name: "A" });
    const item = owner.items().build({ title: "x" });
    const pin = item.pins().build({ id: taken.id });
    await expect(owner.save()).rejects.toThrow(RecordNotUnique);
    expect([await countRows("saa_owners"), await countRows("saa_items"), await countRows("saa_pins")]).toEqual([1, 1, 1]);
    expect([owner.isNewRecord(), item.isNewRecord(), pin.isNewRecord()]).toEqual([true, true, true]);
  });

  it("dependent destroy reaches the grandchildren, all in the owner's destroy batch", async () => {
    const owner = SaaTree.build({ name: "A" });
    owner.items().build({ title: "x" }).pins().build({});
    await owner.save();
    const { db, events } = listen();
    const loaded = await db.model(SaaTree).find(owner.id);
    events.length = 0;
    expect(await loaded.destroy()).toBe(loaded);
    const deletes = events.filter((event) => event.sql.startsWith("DELETE"));
    expect(deletes.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      [`DELETE FROM "saa_pins"`, true],
      [`DELETE FROM "saa_items"`, true],
      [`DELETE FROM "saa_owners"`, true],
    ]);
    expect([await countRows("saa_owners"), await countRows("saa_items"), await countRows("saa_pins")]).toEqual([0, 0, 0]);
  });

  it("an owner's destroy in a batch takes its dependents into that batch", async () => {
    const owner = SaaTree.build({ name: "A" });
    owner.items().build({ title: "x" });
    await owner.save();
    const other = SaaOwner.build({ name: "B" });
    const { db, events } = listen();
    const loaded = await db.model(SaaTree).find(owner.id);
    events.length = 0;
    await db.batch([other.toSave(), loaded.toDestroy()]);
    const writes = events.filter((event) => !event.sql.startsWith("SELECT"));
    expect(writes.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      [`INSERT INTO "saa_owners"`, true],
      [`DELETE FROM "saa_pins"`, true],
      [`DELETE FROM "saa_items"`, true],
      [`DELETE FROM "saa_owners"`, true],
    ]);
    expect(loaded.isDestroyed()).toBe(true);
  });

  it("reloadAssociation reloads a loaded hasOne and a loaded belongsTo", async () => {
    class SaaKept extends SaaItem {
      keeper = belongsTo(SaaTree);
    }
    const owner = await SaaTree.create({ name: "A" });
    const leaf = owner.leaf.build({ title: "one" });
    await owner.save();
    const kept = await SaaKept.find(leaf.id);
    expect(await kept.keeper.load()).not.toBeNull();
    expect((await owner.leaf.load())!.title).toBe("one");
    await SaaItem.all().updateAll({ title: "two" });
    await SaaOwner.all().updateAll({ name: "B" });
    expect(owner.leaf.get()!.title).toBe("one");
    await owner.reloadAssociation("leaf");
    expect(owner.leaf.get()!.title).toBe("two");
    await kept.reloadAssociation("keeper");
    expect(kept.keeper.get()!.name).toBe("B");
    await expect(kept.reloadAssociation(Symbol("keeper") as never)).rejects.toThrow(new TypeError("SaaKept.reloadAssociation takes an association name, not Symbol(keeper)"));
  });
});

describe("guide: Associations with keys the database assigns", () => {
  it("each level is written in its own batch after the level above", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const author = Author.build({ name: "A" });
      author.books().build({ title: "B1" });
      author.books().build({ title: "B2" });
      await author.saveOrThrow();
    });
    expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "authors"`], [`INSERT INTO "books"`, `INSERT INTO "books"`]]);
  });

  it("a refused child refuses the owner's save before anything is written", async () => {
    const StrictBook = class Book extends Model({ id: "integer", authorId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
      static override binding = "DB";
      static {
        this.validates("title", { length: { minimum: 3 } });
      }
    };
    class Owner extends Model({ id: "integer", name: { type: "string", null: false } }) {
      static override binding = "DB";
      static override tableName = "authors";
      books = hasMany(StrictBook, { foreignKey: "authorId" });
    }
    const owner = Owner.build({ name: "A" });
    owner.books().build({ title: "x" });
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages().join()).toContain("Book is invalid");
    const error = await rejectionOf(owner.saveOrThrow());
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(error.message).toContain("Book");
    expect(await countRows("authors")).toBe(0);
  });
});
