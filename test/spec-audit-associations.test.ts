import { beforeEach, describe, expect, it } from "vitest";
import { abort, batch, belongsTo, hasMany, hasOne, Model, RecordInvalid, RecordNotDestroyed, RecordNotSaved, RecordNotUnique } from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { countRows, listen } from "./helpers/queries.js";

beforeEach(resetDatabase);

const log: string[] = [];
beforeEach(() => {
  log.length = 0;
});

class SaaItem extends Model({
  id: { type: "string", null: false, generateId: true },
  saaOwnerId: "string",
  keeperId: "string",
  title: { type: "string", null: false },
}) {
  static override binding = "DB";
}

class SaaOwner extends Model({
  id: { type: "string", null: false, generateId: true },
  name: "string",
  rank: "integer",
  settings: "json",
  startsAt: "datetime",
}) {
  static override binding = "DB";
  items = hasMany(SaaItem);
}

class SaaPin extends Model({ id: { type: "string", null: false, generateId: true }, saaItemId: { type: "string", null: false } }) {
  static override binding = "DB";
}

describe("Validations (SPEC: every option)", () => {
  it("presence: an empty JSON object is blank, as Rails' blank? says", async () => {
    class Present extends SaaOwner {
      static {
        this.validates("settings", { presence: true });
      }
    }
    expect(await Present.build({ settings: {} }).save()).toBe(false);
    expect(await Present.build({ settings: [] }).save()).toBe(false);
    expect(await Present.build({ settings: { a: 1 } }).save()).toBe(true);
  });



  it("format tests a number's text, as Rails does (value.to_s)", async () => {
    class Ranked extends SaaOwner {
      static {
        this.validates("rank", { format: /^\d{2}$/ });
      }
    }
    expect(await Ranked.build({ rank: 12 }).save()).toBe(true);
    expect(await Ranked.build({ rank: 123 }).save()).toBe(false);
  });

  it("length measures a number by its text, as Rails does (value.to_s.length)", async () => {
    class Coded extends SaaOwner {
      static {
        this.validates("rank", { length: { minimum: 2, maximum: 3 } });
      }
    }
    expect(await Coded.build({ rank: 12 }).save()).toBe(true);
    const short = Coded.build({ rank: 5 });
    expect(await short.save()).toBe(false);
    expect(short.errors.fullMessages()).toEqual(["Rank is too short"]);
    expect(await Coded.build({ rank: 1234 }).save()).toBe(false);
  });

  it("inclusion compares Dates by their time and json values by their content", async () => {
    class Dated extends SaaOwner {
      static {
        // Each record below sets one of the two; the other, null, is not in its list and must be let through.
        this.validates("startsAt", { inclusion: [new Date("2026-01-01T00:00:00Z")], allowNil: true });
        this.validates("settings", { inclusion: { in: [{ theme: "dark" }, ["a"]], allowNil: true } });
      }
    }
    expect(await Dated.build({ startsAt: "2026-01-01" }).save()).toBe(true);
    expect(await Dated.build({ startsAt: "2026-01-02" }).save()).toBe(false);
    expect(await Dated.build({ settings: { theme: "dark" } }).save()).toBe(true);
    expect(await Dated.build({ settings: ["a"] }).save()).toBe(true);
    expect(await Dated.build({ settings: { theme: "light" } }).save()).toBe(false);
  });

  it("run on every save: a persisted invalid row with no change is refused", async () => {
    await SaaOwner.insert({ id: "o1", name: "" });
    class Named extends SaaOwner {
      static {
        this.validates("name", { presence: true });
      }
    }
    const { db, events } = listen();
    const owner = await db.model(Named).find("o1");
    events.length = 0;
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(events).toHaveLength(0);
  });

  it("errors and abortReason of an earlier refusal are cleared by the next save", async () => {
    let refuse = true;
    class Flaky extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => {
          if (refuse) throw abort("not now");
        });
      }
    }
    const owner = Flaky.build({});
    expect(await owner.save()).toBe(false);
    expect(owner.errors.size).toBe(1);
    owner.name = "Ada";
    expect(await owner.save()).toBe(false);
    expect(owner.errors.size).toBe(0);
    expect(owner.abortReason).toBe("not now");
    refuse = false;
    expect(await owner.save()).toBe(true);
    expect(owner.abortReason).toBeUndefined();
  });

  it("each option's type and message", async () => {
    class All extends SaaOwner {
      static {
        this.validates("name", { presence: true, length: { minimum: 2, maximum: 3 }, format: /^[a-z]+$/, inclusion: ["ab", "abc"] });
        this.validates("rank", { numericality: { onlyInteger: true, greaterThan: 10 } });
      }
    }
    const a = All.build({ name: "X", rank: 5 });
    expect(await a.save()).toBe(false);
    expect(a.errors.toArray().map((entry) => [entry.attribute, entry.type, entry.message])).toEqual([
      ["name", "too_short", "is too short"],
      ["name", "invalid", "is invalid"],
      ["name", "inclusion", "is not included in the list"],
      ["rank", "greater_than", "must be greater than 10"],
    ]);
    const b = All.build({ name: " ", rank: null });
    expect(await b.save()).toBe(false);
    // A null rank is not a number, as Rails says of nil.
    expect(b.errors.fullMessages()).toEqual(["Name can't be blank", "Name is too short", "Name is invalid", "Name is not included in the list", "Rank is not a number"]);
  });
});

describe("Callbacks (SPEC: Callbacks, Events 2-3)", () => {
  it("run on a save that changes nothing, as in Rails", async () => {
    class Counted extends SaaOwner {
      static {
        this.beforeSave(() => void log.push("beforeSave"));
        this.afterSave(() => void log.push("afterSave"));
      }
    }
    const owner = await Counted.create({ name: "Ada" });
    log.length = 0;
    expect(await owner.save()).toBe(true);
    expect(log).toEqual(["beforeSave", "afterSave"]);
  });

  it("in one batch, all before-callbacks run before any write and all after-callbacks after all writes", async () => {
    class Logged extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record) => void log.push(`beforeSave ${record.name}`));
        this.afterSave((record) => void log.push(`afterSave ${record.name}`));
        this.beforeDestroy((record) => void log.push(`beforeDestroy ${record.name}`));
        this.afterDestroy((record) => void log.push(`afterDestroy ${record.name}`));
      }
    }
    const gone = await Logged.create({ name: "C" });
    log.length = 0;
    const { db, events } = listen();
    const a = db.model(Logged).build({ name: "A" });
    const b = db.model(Logged).build({ name: "B" });
    const c = await db.model(Logged).find(gone.id);
    events.length = 0;
    const original = events.push.bind(events);
    events.push = (...items) => (log.push("write"), original(...items));
    await db.batch([a.toSave(), b.toSave(), c.toDestroy()]);
    expect(log).toEqual(["beforeSave A", "beforeSave B", "beforeDestroy C", "write", "write", "write", "afterSave A", "afterSave B", "afterDestroy C"]);
  });

  it("a statement failing half-way through a batch writes nothing, and the records stay as they were", async () => {
    class Logged extends SaaOwner {
      static {
        this.afterSave(() => void log.push("afterSave"));
      }
    }
    const a = Logged.build({ name: "A" });
    const b = SaaItem.build({ title: "x", saaOwnerId: "missing" });
    await expect(batch([a.toSave(), b.toSave()])).rejects.toThrow(/FOREIGN KEY/);
    expect(await countRows("saa_owners")).toBe(0);
    expect(a.isNewRecord()).toBe(true);
    expect(b.isNewRecord()).toBe(true);
    expect(log).toEqual([]);
  });

  it("do not run for any bulk write", async () => {
    class Guarded extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => {
          throw abort("no");
        });
        this.beforeDestroy(() => {
          throw abort("no");
        });
      }
    }
    await Guarded.insert({ id: "a", name: "" });
    await Guarded.insertAll([{ id: "b", name: "" }]);
    await Guarded.upsert({ id: "a", name: "" });
    await Guarded.upsertAll([{ id: "c", name: "" }]);
    expect(await Guarded.all().updateAll({ name: "" })).toBe(3);
    await batch([Guarded.all().toUpdateAll({ rank: 1 })]);
    expect(await Guarded.all().deleteAll()).toBe(3);
  });
});

describe("Associations", () => {
  it("the default foreign key of a Model({...}) class is its name in camelCase plus Id", async () => {
    const owner = await SaaOwner.create({ name: "Ada" });
    const item = owner.items().build({ title: "one" });
    expect(item.saaOwnerId).toBe(owner.id);
    expect(owner.items().toSql().sql).toContain(`"saa_owner_id" = ?`);
  });

  it("a child built on a persisted owner is saved by the owner's next save, in one batch with the owner's update", async () => {
    const owner = await SaaOwner.create({ name: "Ada" });
    const { db, events } = listen();
    const bound = await db.model(SaaOwner).find(owner.id);
    events.length = 0;
    bound.items().build({ title: "one" });
    expect(await bound.save()).toBe(true);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT"]);
    bound.items().build({ title: "two" });
    bound.name = "Bob";
    events.length = 0;
    expect(await bound.save()).toBe(true);
    expect(events.map((event) => [event.sql.split(" ")[0], event.batched])).toEqual([
      ["UPDATE", true],
      ["INSERT", true],
    ]);
    events.length = 0;
    expect(await bound.save()).toBe(true);
    expect(events).toHaveLength(0);
    expect(await countRows("saa_items")).toBe(2);
  });

  it("foreignKey names the child's attribute for finding and building", async () => {
    class Keeper extends SaaOwner {
      kept = hasMany(SaaItem, { foreignKey: "keeperId" });
    }
    const keeper = Keeper.build({ name: "K" });
    const item = keeper.kept().build({ title: "kept" });
    expect(item.keeperId).toBe(keeper.id);
    expect(item.saaOwnerId).toBeNull();
    expect(await keeper.save()).toBe(true);
    expect((await keeper.kept().toArray()).map((row) => row.title)).toEqual(["kept"]);
  });

  it("hasOne build is saved with a new owner in one batch; a failing child insert writes nothing", async () => {
    class Single extends SaaOwner {
      item = hasOne(SaaItem);
    }
    const { db, events } = listen();
    const owner = db.model(Single).build({ name: "A" });
    owner.item.build({ title: "x" });
    expect(await owner.save()).toBe(true);
    expect(events.map((event) => event.batched)).toEqual([true, true]);
    const other = Single.build({ name: "B" });
    other.item.build({ title: null as unknown as string });
    await expect(other.save()).rejects.toThrow(/NOT NULL/);
    expect(await countRows("saa_owners")).toBe(1);
  });
});

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

describe("Errors (SPEC: RecordInvalid, RecordNotSaved, RecordNotDestroyed)", () => {
  it("createOrThrow and updateOrThrow", async () => {
    class Checked extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record) => {
          if (record.name === "stop") throw abort("stopped here");
        });
        this.beforeDestroy(() => {
          throw abort("never");
        });
      }
    }
    const invalid = await Checked.createOrThrow({}).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(RecordInvalid);
    expect((invalid as RecordInvalid).record).toBeInstanceOf(Checked);
    const owner = await Checked.createOrThrow({ name: "Ada" });
    await expect(owner.updateOrThrow({ name: "stop" })).rejects.toThrow(new RecordNotSaved("stopped here"));
    const notDestroyed = await owner.destroyOrThrow().catch((error: unknown) => error);
    expect(notDestroyed).toBeInstanceOf(RecordNotDestroyed);
    expect((notDestroyed as Error).message).toBe("never");
    expect(owner.isPersisted()).toBe(true);
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
