/** Scopes combined with includes, paginate, merge, associations and bound databases; names a scope may not take. */
import { beforeEach, describe, expect, it } from "vitest";
import { gt, hasMany, hasOne, Model, IncompatibleRelation, type ScopeStatic, InvalidModel } from "../../src/index.js";
import { Relation } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Badge, Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen, seedOwnedItems } from "../models/owners-and-items.js";
import { listen, countRows } from "../helpers/queries.js";
import { User, ApplicationRecord as FixtureApplicationRecord, Post } from "../models/fixtures.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

const O = ItemOwner as any;

const B = Badge as any;

describe("scopes with includes, paginate, merge", () => {
  it("a scope keeps includes given before and after it", async () => {
    await seedOwnedItemsSeen();
    const { db, events } = listen();
    const before = await (db.model(OwnedItem) as any).includes("owner").ranked().toArray();
    expect(before.map((r: any) => r.id)).toEqual(["c", "b", "a"]);
    expect(before[0].owner.get().name).toBe("two");
    expect(events).toHaveLength(2);
    const after = await (db.model(OwnedItem) as any).ranked().includes("owner").limit(1).toArray();
    expect(after[0].owner.get().name).toBe("two");
    const merged = await (db.model(OwnedItem) as any).where({ ownerId: "o1" }).merge(I.ranked()).toArray();
    expect(merged.map((r: any) => r.id)).toEqual(["b", "a"]);
  });
});

/** Scopes whose bodies name their own class (SPEC Scopes 6). */
class Counted extends Model({ id: { type: "string", null: false }, rank: "integer" }) {
  static override binding = "DB";
  static override tableName = "saq_items";
  static positive: ScopeStatic<[]> = this.scope(() => Counted.where({ rank: gt(0) }));
}

describe("Scopes 7: a scope preloaded with limit throws", () => {
  it("whatever the data: with no owner loaded too", async () => {
    expect(await rejectionOf(O.includes("topItems").toArray())).toBeInstanceOf(IncompatibleRelation);
    await seedOwnedItems();
    expect(await rejectionOf(O.includes("topItems").toArray())).toBeInstanceOf(IncompatibleRelation);
  });
});

describe("Scopes 1 and Connection: a scope of a bound Model queries its database", () => {
  it("also when the body names its own class (ScopeStatic)", async () => {
    await seedOwnedItems();
    const { events, Counted: B } = listen({ models: { Counted } }) as any;
    expect((await B.positive().toArray()).map((r: any) => r.id).sort()).toEqual(["a", "b", "c"]);
    expect(await B.positive().count()).toBe(3);
    expect(events).toHaveLength(2);
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

// ---- Scopes ------------------------------------------------------------------------------------------

describe("Scopes rule 1: callable as a static or on any Relation of the Model", () => {
  // A scope name that is an own field of every Relation (data, model, modelClass) could not be called on a Relation:
  // it is refused at declaration.
  it("scopes named data, model or modelClass are refused with InvalidModel at first use", () => {
    class Scoped extends User {
      static data = (this as any).scope((q: Relation) => q.where({ name: "Ada" }));
    }
    expect(() => Scoped.where({ age: 1 })).toThrow(InvalidModel);
    expect(() => Scoped.where({ age: 1 })).toThrow("Scoped: the scope data has the name of a Relation method or Model static");
    class Classy extends User {
      static modelClass = (this as any).scope((q: Relation) => q);
    }
    expect(() => Classy.all()).toThrow(InvalidModel);
    // Allowed, `User.model()` worked while `User.where(...).model()` was "not a function": the Relation's field hid it.
    class Modelled extends User {
      static model = (this as any).scope((q: Relation) => q.where({ name: "Ada" }));
    }
    expect(() => Modelled.where({ age: 1 })).toThrow(new InvalidModel("Modelled: the scope model has the name of a Relation method or Model static"));
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Scopes and Associations: names and callbacks", () => {
  // SPEC Relation: "Relations have no then." A scope named `then` would make every Relation of the Model
  // awaitable: it is refused.
  it("a scope named then is refused with InvalidModel at first use", () => {
    class Thenable extends User {
      static then = (this as any).scope((q: Relation) => q);
    }
    expect(() => Thenable.where({ name: "a" })).toThrow(InvalidModel);
    expect("then" in User.where({ name: "a" })).toBe(false);
  });

  // SPEC Associations: "user.posts().build(attrs) builds a child that is saved with its owner in one atomic batch";
  // Events 2: "A callback may change the record". A child built in the owner's beforeSave callback is written
  // with the owner.
  it("a child built in the owner's beforeSave callback is saved with the owner", async () => {
    class Parent extends Owner {
      static {
        this.beforeSave((owner: any) => {
          if (owner.isNewRecord()) owner.kids().build({ id: `${owner.id}-kid`, name: "default" });
        });
      }
    }
    const owner = Parent.build({ id: "p1", name: "a" });
    expect(await owner.save()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });

});

describe("Scopes on associations, Validations", () => {
  it("a scope called on an association Relation keeps the owner's condition", async () => {
    class ScopedKid extends Kid {
      static named = this.scope((q, name: string) => q.where({ name }));
    }
    class ScopedOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(ScopedKid, { foreignKey: "ownerId" });
    }
    const a = await ScopedOwner.create({ id: "a" });
    await ScopedOwner.create({ id: "b" });
    await Kid.insertAll([{ id: "k1", ownerId: "a", name: "x" }, { id: "k2", ownerId: "b", name: "x" }]);
    expect(await (a.kids() as any).named("x").pluck("id")).toEqual(["k1"]);
  });

  // SPEC preamble: what is "not shown" (validator option sets) follows "the spirit of ... Rails' Active Record";
  // Validations: "length | { minimum?, maximum? }". Rails counts characters, not UTF-16 code units.
  it("length counts characters, as Rails does: two emoji fit maximum: 2", async () => {
    class Short extends User {
      static {
        this.validates("name", { length: { maximum: 2 } });
      }
    }
    const record = Short.build({ name: "\u{1F600}\u{1F600}" });
    expect(await record.save()).toBe(true);
  });
});

// ---- Scopes ---------------------------------------------------------------------------------------------------

describe("guide: Scopes", () => {
  class Article extends FixtureApplicationRecord("posts") {
    static published = this.scope((q) => q.where({ published: true }));
    static since = this.scope((q, days: number) => q.where({ createdAt: gt(new Date(Date.now() - days * 86_400_000)) }));
    static titled: ScopeStatic<[title: string]> = this.scope((q, title: string) => q.where({ title }).merge(Article.published()));
  }

  it("runs the examples", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    await User.createOrThrow({ id: "u1", name: "U" });
    await Article.createOrThrow({ userId: "u1", title: "a", published: true });
    await Post.createOrThrow({ userId: user.id, title: "b" });
    const week = await Article.published().since(7).order({ createdAt: "desc" }).toArray();
    expect(week.map((p) => p.title)).toEqual(["a"]);
    expect(await Article.where({ userId: "u1" }).published().count()).toBe(1);
    expect(await Article.titled("a").count()).toBe(1);
  });

  it("names that cannot be scopes: then, data, model, modelClass, where (at first use)", () => {
    for (const name of ["then", "data", "model", "modelClass", "where", "count", "all"]) {
      const Bad = class extends FixtureApplicationRecord("posts") {};
      Object.defineProperty(Bad, "name", { value: "Post" });
      expect(() => (Bad as unknown as { scope(fn: unknown): unknown }).scope).toBeDefined();
      (Bad as unknown as Record<string, unknown>)[name] = (Bad as unknown as { scope(fn: unknown): unknown }).scope((q: unknown) => q);
      expect(() => Bad.build({ title: "x" }), name).toThrow(InvalidModel);
    }
  });
});
