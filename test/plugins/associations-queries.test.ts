/** Associations in queries: association Relations combined with where, scopes, order and calculations. */
import { beforeEach, describe, expect, it } from "vitest";
import { batch, hasMany, hasOne, Model, RecordNotDestroyed, abort, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Badge, Item as OwnedItem, Owner as ItemOwner } from "../models/saq-fixtures.js";
import { listen, countRows } from "../helpers/queries.js";

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

async function seedOwnedItemsSeen(): Promise<void> {
  await O.insertAll([{ id: "o1", name: "one" }, { id: "o2", name: "two" }]);
  await I.insertAll([
    { id: "a", ownerId: "o1", name: "x", rank: 1, code: "A", seenAt: "2024-01-01T00:00:00Z" },
    { id: "b", ownerId: "o1", name: "X", rank: 2, code: "B", seenAt: "2024-01-02T00:00:00Z" },
    { id: "c", ownerId: "o2", name: "y", rank: 3, code: "C", seenAt: "2024-01-03T00:00:00Z" },
    { id: "d", ownerId: null, name: null, rank: null, code: "D", seenAt: null },
  ]);
}

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
