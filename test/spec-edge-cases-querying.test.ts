/**
 * Edge cases of SPEC.md's query and write sections not covered elsewhere (Relation, Statement, Page, Other values,
 * Connection, Querying, Bulk writes, Validations, Callbacks, Associations, Ordering rules, Events 2-3, Errors,
 * Limits). Tables: test/fixtures/migrations/0012_audit_query.sql.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { abort, batch, gt, hasMany, hasOne, InvalidModel, IrreversibleOrder, Model, RecordNotDestroyed, RecordNotUnique, sql } from "../src/index.js";
import { countStatement, Relation } from "../src/plugin.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { countRows, listen } from "./helpers/queries.js";
import { Counter, User } from "./models/fixtures.js";

beforeEach(resetDatabase);

// ---- models over the audit tables -------------------------------------------------------------------

const WIDTH = 99;
const wideColumns = Array.from({ length: WIDTH }, (_, index) => `c${index + 1}`);

class Wide extends Model({ id: { type: "string", null: false }, ...Object.fromEntries(wideColumns.map((name) => [name, "string"])) } as Record<string, "string" | { type: "string"; null: false }>) {
  static override binding = "DB";
  static override tableName = "audit_q_wide";
}

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

/** A Model with no binding: it reaches a database only through db.model() or withDatabase. */
class Unbound extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override tableName = "audit_q_owners";
}

const allValues = (prefix: string) => Object.fromEntries(wideColumns.map((name) => [name, `${prefix}-${name}`]));

// ---- Limits: never more than 100 bound parameters per statement (a D1 limit) -------------------------

describe("Limits: at most 100 bound parameters per statement (D1 allows at most 100 columns per table too)", () => {
  it("a record of a 100-column table can be inserted and fully updated", async () => {
    const record = (Wide as any).build({ id: "w1", ...allValues("a") });
    expect(await record.save()).toBe(true);
    record.assign(allValues("b"));
    expect(await record.save()).toBe(true);
    expect((await (Wide as any).find("w1")).c99).toBe("b-c99");
  });

  it("insertAll of 300 rows of 100 columns binds one value", async () => {
    const { db, events } = listen();
    await (db.model(Wide) as any).insertAll(Array.from({ length: 300 }, (_, index) => ({ id: `r${index}`, ...allValues("x") })));
    expect(events[0]!.params).toHaveLength(1);
    expect(await countRows("audit_q_wide")).toBe(300);
  });

  it("a list condition of 20,000 ids binds one value, and find([...]) of 500 ids is one query", async () => {
    const { db, events } = listen();
    const ids = Array.from({ length: 500 }, (_, index) => `r${index}`);
    await (db.model(Wide) as any).insertAll(ids.map((id) => ({ id })));
    events.length = 0;
    const many = [...ids, ...Array.from({ length: 19_500 }, (_, index) => `missing-${index}`)];
    expect(await (db.model(Wide) as any).where({ id: many }).count()).toBe(500);
    expect(await (db.model(Wide) as any).whereNot({ id: many }).count()).toBe(0);
    const found = await (db.model(Wide) as any).find([...ids].reverse());
    expect(found.map((record: { id: string }) => record.id)).toEqual([...ids].reverse());
    expect(events.every((event) => event.params.length === 1)).toBe(true);
    expect(events).toHaveLength(3);
  });
});

// ---- Connection --------------------------------------------------------------------------------------

describe("Connection: db.model(M) starts queries on that database", () => {
  // SPEC Connection: "db.model(M) | start queries on that database | the Model bound to it", and
  // "batch([...]) | array of Statements ... | executes all atomically". A Statement made by the bound Model
  // runs on the bound database, also in a top-level batch().
  it("batch([db.model(M).toInsert(...)]) runs on db, outside withDatabase", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await batch([Owners.toInsert({ id: "o1", name: "a" }), Owners.toInsert({ id: "o2", name: "b" })]);
    expect(events).toHaveLength(2);
    expect(await countRows("audit_q_owners")).toBe(2);
  });

  it("batch([...]) runs a bound Model's select and count Statements on its database too", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await db.batch([Owners.toInsert({ id: "o1", name: "a" })]);
    events.length = 0;
    // toSelect() and countStatement() are the plugin API's Statements: typed Relations do not list them.
    const relation = Owners.where({ name: "a" }) as unknown as Relation;
    // The batch runs where its first item was made: each form must carry the bound database.
    const [count, records] = await batch([countStatement(relation), relation.toSelect()]);
    expect((records as { id: string }[]).map((record) => record.id)).toEqual(["o1"]);
    expect(count).toBe(1);
    expect(events).toHaveLength(2);
    expect((await batch([relation.toSelect()]))[0]).toHaveLength(1);
  });

  it("db.batch([db.model(M).toInsert(...)]) runs on db", async () => {
    const { db, events } = listen();
    const Owners = db.model(Unbound);
    await db.batch([Owners.toInsert({ id: "o1", name: "a" })]);
    expect(events).toHaveLength(1);
  });

  // SPEC Connection: "db.model(M) | start queries on that database | the Model bound to it", also when M is a
  // view bound to another database.
  it("db2.model(db1.model(M)) queries db2", async () => {
    const first = listen();
    const second = listen();
    const rebound = second.db.model(first.db.model(User));
    expect(await rebound.count()).toBe(0);
    expect(second.events).toHaveLength(1);
    expect(first.events).toHaveLength(0);
  });
});

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

// ---- Scopes ------------------------------------------------------------------------------------------

describe("Scopes rule 1: callable as a static or on any Relation of the Model", () => {
  // A scope name that is an own field of every Relation (data, modelClass) could not be called on a Relation: it is
  // refused at declaration.
  it("scopes named data or modelClass are refused with InvalidModel at first use", () => {
    class Scoped extends User {
      static data = (this as any).scope((q: Relation) => q.where({ name: "Ada" }));
    }
    expect(() => Scoped.where({ age: 1 })).toThrow(InvalidModel);
    expect(() => Scoped.where({ age: 1 })).toThrow("Scoped: the scope data has the name of a Relation method or Model static");
    class Classy extends User {
      static modelClass = (this as any).scope((q: Relation) => q);
    }
    expect(() => Classy.all()).toThrow(InvalidModel);
  });
});

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {
  it("whereNot with a list holding null excludes the listed values and NULL", async () => {
    await User.create({ name: "a", age: 17 });
    await User.create({ name: "b", age: 30 });
    await User.create({ name: "c" });
    expect(await User.whereNot({ age: [17, null] }).pluck("name")).toEqual(["b"]);
    expect((await User.whereNot({ age: [17] }).pluck("name")).sort()).toEqual(["b"]);
    expect(await User.whereNot({ age: gt(20) }).pluck("name")).toEqual(["a"]);
  });

  it("a persisted, unchanged owner's save writes a child built through hasMany", async () => {
    const owner = await Owner.create({ id: "o1", name: "a" });
    owner.kids().build({ id: "k1", name: "kid" });
    expect(await owner.save()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });

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

  it("beforeSave and afterSave callbacks run on a save with nothing to change (Events 2: on every save)", async () => {
    const calls: string[] = [];
    class Watched extends User {
      static {
        this.beforeSave(() => void calls.push("before"));
        this.hook("record:afterSave", () => void calls.push("after"));
      }
    }
    const record = await Watched.create({ name: "a" });
    calls.length = 0;
    expect(await record.save()).toBe(true);
    expect(calls).toEqual(["before", "after"]);
  });

  it("beforeDestroy runs before dependents are loaded and the delete (Events 3)", async () => {
    const { db, events } = listen();
    const order: string[] = [];
    class WatchedOwner extends Owner {
      static {
        this.beforeDestroy(() => void order.push(`callback after ${events.length} queries`));
      }
    }
    const owner = await db.model(WatchedOwner).create({ id: "o1", name: "a" });
    await db.model(Kid).create({ id: "k1", ownerId: "o1", name: "x" });
    events.length = 0;
    await owner.destroy();
    expect(order).toEqual(["callback after 0 queries"]);
    // Kids have no destroy callbacks: they are deleted set-based, without being read.
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["DELETE", "DELETE"]);
  });

  it("updateAll and upsert hitting a unique constraint throw RecordNotUnique", async () => {
    await User.create({ name: "a", email: "a@x" });
    const b = await User.create({ name: "b", email: "b@x" });
    expect(await rejectionOf(User.where({ id: b.id }).updateAll({ email: "a@x" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(User.upsert({ id: b.id, name: "b", email: "a@x" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(User.insertAll([{ name: "c", email: "c@x" }, { name: "d", email: "c@x" }]))).toBeInstanceOf(RecordNotUnique);
    expect(await countRows("users")).toBe(2);
  });

  it("insertAll with onDuplicate: skip skips duplicates within the list too; meta.changes counts inserted rows", async () => {
    const meta = await User.insertAll([{ name: "c", email: "c@x" }, { name: "d", email: "c@x" }, { name: "e", email: "e@x" }], { onDuplicate: "skip" });
    expect(meta["changes"]).toBe(2);
  });

  it("every to... form is a Statement with toSql() and runs in batch", async () => {
    const statements = [
      Counter.toInsert({ label: "a" }),
      Counter.toInsertAll([{ label: "b" }, { label: "c" }]),
      Counter.toUpsert({ id: 1, label: "A" }),
      Counter.toUpsertAll([{ id: 2, label: "B" }]),
      Counter.where({ label: "c" }).toUpdateAll({ value: 9 }),
      Counter.where({ label: "zzz" }).toDeleteAll(),
    ];
    for (const statement of statements) {
      const { sql: text, params } = statement.toSql();
      expect(typeof text).toBe("string");
      expect(Array.isArray(params)).toBe(true);
    }
    const { db } = listen();
    const results = await db.batch(statements);
    expect(results[4]).toBe(1);
    expect(await Counter.order({ id: "asc" }).pluck("label", "value")).toEqual([["A", 7], ["B", 7], ["c", 9]]);
  });

  it("updateAll and deleteAll resolve to the number of rows affected, with order/limit/offset", async () => {
    await Counter.insertAll(Array.from({ length: 10 }, (_, index) => ({ label: `l${index}` })));
    expect(await Counter.order({ id: "desc" }).offset(8).updateAll({ value: 1 })).toBe(2);
    expect(await Counter.where({ value: 1 }).order({ id: "asc" }).pluck("id")).toEqual([1, 2]);
    expect(await Counter.order({ id: "asc" }).limit(3).offset(1).deleteAll()).toBe(3);
    expect(await Counter.order({ id: "asc" }).pluck("id")).toEqual([1, 5, 6, 7, 8, 9, 10]);
  });

  it("last() throws IrreversibleOrder for an sql order arriving through merge or a scope", async () => {
    class Ordered extends User {
      static bySql = this.scope((q) => q.order(sql`name`));
    }
    await expect(User.all().merge(User.order(sql`name`)).last()).rejects.toThrow(IrreversibleOrder);
    await expect(Ordered.bySql().last()).rejects.toThrow(IrreversibleOrder);
    await expect(Ordered.bySql().reorder({ name: "asc" }).last()).resolves.toBeNull();
  });

  it("paginate of a distinct select counts and pages alike", async () => {
    for (const age of [17, 36, 17, 50, null]) await User.create({ name: `u${age}`, age });
    const page = await User.select("age").distinct().paginate({ perPage: 3 });
    expect(page.total).toBe(4);
    expect(page.records).toHaveLength(3);
    const next = await User.select("age").distinct().paginate({ perPage: 3, page: 2 });
    expect(next.records).toHaveLength(1);
    expect(new Set([...page.records, ...next.records].map((record) => record.age)).size).toBe(4);
  });

  it("paginate: perPage and maxPerPage are read through a bound Model and a scope", async () => {
    class Small extends User {
      static override perPage = 2;
      static override maxPerPage = 3;
      static named = this.scope((q) => q.where({ name: gt("") }));
    }
    for (const name of ["a", "b", "c", "d"]) await User.create({ name });
    const { db } = listen();
    expect((await db.model(Small).named().paginate()).perPage).toBe(2);
    expect((await db.model(Small).named().paginate({ perPage: "50" })).perPage).toBe(3);
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

// ----------------------------------------------------------------------------------------------------------

describe("Limits, Events 2 and dependents", () => {
  // D1 allows at most 100 bound parameters: an updateAll of more values than fit binds them as one JSON row.
  it("updateAll of 99 attributes with two conditions stays within 100 bound parameters", async () => {
    await (Wide as any).insert({ id: "w9", c1: "a" });
    await (Wide as any).insert({ id: "w8", c1: "a" });
    const { db, events } = listen();
    expect(await (db.model(Wide) as any).where({ id: "w9", c1: "a" }).updateAll(allValues("z"))).toBe(1);
    expect(events[0]!.params.length).toBeLessThanOrEqual(100);
    const updated = await (Wide as any).find("w9");
    expect([updated.c1, updated.c50, updated.c99]).toEqual(["z-c1", "z-c50", "z-c99"]);
    expect((await (Wide as any).find("w8")).c50).toBeNull();
    // A few values keep the plain form.
    expect((Wide as any).where({ id: "w9" }).toUpdateAll({ c1: "x" }).toSql().sql).toBe(`UPDATE "audit_q_wide" SET "c1" = ? WHERE "id" = ?`);
  });

  it("an error thrown by an afterDestroy callback propagates after the row is deleted", async () => {
    class Loud extends Owner {
      static {
        this.hook("record:afterDestroy", () => {
          throw new Error("after destroy failed");
        });
      }
    }
    const owner = await Loud.create({ id: "l1", name: "a" });
    await expect(owner.destroy()).rejects.toThrow("after destroy failed");
    expect(owner.isDestroyed()).toBe(true);
    expect(await countRows("audit_q_owners")).toBe(0);
  });

  it("an error thrown by a child's after-save callback propagates from the owner's save, rows written", async () => {
    class LoudKid extends Kid {
      static {
        this.hook("record:afterSave", () => {
          throw new Error("kid after save failed");
        });
      }
    }
    class LoudOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(LoudKid, { foreignKey: "ownerId" });
    }
    const owner = LoudOwner.build({ id: "lo", name: "a" });
    const kid = owner.kids().build({ id: "lk" });
    await expect(owner.save()).rejects.toThrow("kid after save failed");
    expect(owner.isPersisted()).toBe(true);
    expect(kid.isPersisted()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });

  it("restrictWithError on hasMany refuses destroy with errors and no writes; children untouched", async () => {
    class Strict extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "audit_q_owners";
      kids = hasMany(Kid, { dependent: "restrictWithError", foreignKey: "ownerId" });
    }
    const { db, events } = listen();
    const owner = await db.model(Strict).create({ id: "s1" });
    await Kid.create({ id: "sk", ownerId: "s1" });
    events.length = 0;
    expect(await owner.destroy()).toBe(false);
    expect(owner.errors.fullMessages().length).toBeGreaterThan(0);
    expect(owner.isPersisted()).toBe(true);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["SELECT"]);
    expect(await countRows("audit_q_owners")).toBe(1);
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
