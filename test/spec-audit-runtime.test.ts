/**
 * Black-box probes of SPEC.md's runtime sections: "Connection", "Events", the "Errors" table, "Limits", "Bulk
 * writes" and "Other values", for what the other spec-audit and spec-edge-cases files leave out. Each test quotes
 * the sentence it checks. Tables: test/fixtures/migrations/0019_spec_audit_runtime.sql.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import * as recordflare from "../src/index.js";
import {
  batch,
  belongsTo,
  connect,
  hasMany,
  hasOne,
  MissingAttribute,
  Model,
  RecordNotFound,
  RecordNotUnique,
  UnknownAttribute,
  withDatabase,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf, thrown } from "./helpers/errors.js";
import { listen, recordingRoundTrips } from "./helpers/queries.js";

beforeEach(resetDatabase);

class Item extends Model({
  id: { type: "string", null: false, generateId: true },
  name: "string",
  age: "integer",
  email: "string",
  codeValue: "string",
  partA: "string",
  partB: "string",
  data: "json",
  createdAt: "datetime",
  updatedAt: "datetime",
}) {
  static override binding = "DB";
  static override tableName = "srt_items";
}

class Num extends Model({ id: "integer", name: "string" }) {
  static override binding = "DB";
  static override tableName = "srt_nums";
}

class Owner extends Model({ id: { type: "string", null: false, generateId: true }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "srt_owners";
  pets = hasMany(Pet, { foreignKey: "ownerId" });
  firstPet = hasOne(Pet, { foreignKey: "ownerId" });
}

class Pet extends Model({ id: { type: "string", null: false, generateId: true }, ownerId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "srt_pets";
  owner = belongsTo(Owner, { foreignKey: "ownerId" });
}

const I = Item as any;
const N = Num as any;
const O = Owner as any;
const P = Pet as any;

/** The message of what `fn` threw (synchronously or as a rejection), checking its class. */
async function messageOf(fn: () => unknown, type: Function): Promise<string> {
  const error = await thrown(fn);
  expect(error).toBeInstanceOf(type);
  return (error as Error).message;
}

// ---- Connection -----------------------------------------------------------------------------------------

describe("Connection", () => {
  it("connect(<binding>) with a binding that is not in env (a misspelt name) throws TypeError at once, saying so", () => {
    const misspelt = (env as unknown as Record<string, never>)["DBB"];
    expect(() => connect(misspelt)).toThrow(TypeError);
    expect(() => connect(misspelt)).toThrow("connect: the D1 binding is undefined; check its name");
    expect(() => connect(null as never)).toThrow("connect: the D1 binding is null; check its name");
  });

  it("withDatabase(<database>, <fn>): the result of fn, as it is (not wrapped in a promise for a sync fn)", () => {
    const db = connect(env.DB);
    expect(withDatabase(db, () => 42)).toBe(42);
  });

  it("'A query runs on the current database': a Relation made outside withDatabase runs on the one current when it runs", async () => {
    const { db, events } = listen();
    const relation = I.where({ name: "x" });
    await withDatabase(db, () => relation.toArray());
    expect(events).toHaveLength(1);
  });

  it("withDatabase nested: the inner database is current inside, the outer one again after it", async () => {
    const outer = listen();
    const inner = listen();
    await withDatabase(outer.db, async () => {
      await withDatabase(inner.db, () => I.count());
      await I.count();
    });
    expect(inner.events).toHaveLength(1);
    expect(outer.events).toHaveLength(1);
  });

  it("'Request-related state is never stored on the class': db.model(M), withDatabase and connect leave M's own properties alone", async () => {
    await I.count(); // first use fixes the declaration
    const before = Reflect.ownKeys(Item).map(String).sort();
    const { db } = listen();
    await db.model(Item as any).count();
    await withDatabase(connect(env.DB, { onQuery: () => {} }), () => I.count());
    expect(Reflect.ownKeys(Item).map(String).sort()).toEqual(before);
  });

  it("db.batch([...]) / batch([...]): Statements, toSave() and toDestroy() in one round trip; batch([]) resolves to []", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    const kept = await db.model(Owner as any).create({ name: "gone" });
    roundTrips.length = 0;
    const added = db.model(Owner as any).build({ name: "new" });
    const results = await db.batch([added.toSave(), kept.toDestroy(), (db.model(Owner as any) as any).toUpdateAll({ name: "all" })]);
    expect(roundTrips).toHaveLength(1);
    expect(results[0]).toBe(added);
    expect(results[1]).toBe(kept);
    expect(await db.batch([])).toEqual([]);
    expect(await batch([])).toEqual([]);
  });
});

// ---- Events ---------------------------------------------------------------------------------------------

describe("Events", () => {
  it("1: 'a query event for each query sent': a query the database refuses still gives its event", async () => {
    const { db, events } = listen();
    await I.create({ codeValue: "c1" });
    const error = await rejectionOf(db.model(Item as any).create({ codeValue: "c1" }));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^INSERT INTO "srt_items"/);
  });

  it("1: a uniqueness validation's query on a filtered attribute shows [FILTERED], with caseSensitive: false too", async () => {
    class Unique extends Model({ id: { type: "string", null: false, generateId: true }, email: "string", name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("email", { uniqueness: { caseSensitive: false } });
        this.validates("name", { uniqueness: true });
      }
    }
    const { db, events } = listen();
    await db.model(Unique as any).create({ email: "secret@example.com", name: "n" });
    const shown = JSON.stringify(events.map((event) => event.params));
    expect(shown).not.toContain("secret@example.com");
    expect(shown).toContain("[FILTERED]");
  });

  it("2: 'A callback may change the record (for example normalizing an attribute)': the change is written, on create and on an unchanged update", async () => {
    class Normalized extends Model({ id: { type: "string", null: false, generateId: true }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.beforeSave((record: any) => {
          if (typeof record.name === "string") record.name = record.name.trim().toLowerCase();
        });
      }
    }
    const record = await (Normalized as any).create({ name: "  MIXED " });
    expect((await (Normalized as any).find(record.id)).name).toBe("mixed");
    await env.DB.prepare(`UPDATE srt_items SET name = 'UPPER' WHERE id = ?`).bind(record.id).run();
    await record.reload();
    expect(await record.save()).toBe(true);
    expect((await (Normalized as any).find(record.id)).name).toBe("upper");
  });

  it("3: 'save, create, update run validations then save callbacks': a failing validation runs no save callback", async () => {
    const calls: string[] = [];
    class Ordered extends Model({ id: { type: "string", null: false, generateId: true }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record: any) => void calls.push(`beforeSave errors=${record.errors.size}`));
      }
    }
    const record = (Ordered as any).build({ name: "" });
    expect(await record.save()).toBe(false);
    expect(calls).toEqual([]);
    expect(await record.update({ name: "ok" })).toBe(true);
    expect(calls).toEqual(["beforeSave errors=0"]);
  });
});

// ---- Errors ---------------------------------------------------------------------------------------------

describe("Errors: 'thrown as typed classes exported by the package'", () => {
  it("every class of the table is exported, is an Error, and is named after itself", () => {
    const names = [
      "UnknownAttribute",
      "MissingAttribute",
      "InvalidModel",
      "RecordNotFound",
      "RecordInvalid",
      "RecordNotSaved",
      "RecordNotDestroyed",
      "RecordDestroyed",
      "RecordNotUnique",
      "IrreversibleOrder",
      "IncompatibleRelation",
    ];
    for (const name of names) {
      const Class = (recordflare as Record<string, any>)[name];
      expect(Class, name).toBeTypeOf("function");
      const error = name === "RecordInvalid" ? new Class("m", {}) : new Class("m");
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
    }
  });

  it("TypeError: a cast error names Model and attribute and shows at most 60 characters of the value", async () => {
    const exactly60 = "1".repeat(59) + "x";
    const message60 = await messageOf(() => I.build({ age: exactly60 }), TypeError);
    expect(message60).toContain("Item.age");
    expect(message60).toContain(JSON.stringify(exactly60));
    const long = "y".repeat(61) + "TAIL";
    const messageLong = await messageOf(() => I.build({ age: long }), TypeError);
    expect(messageLong).toContain("y".repeat(60));
    expect(messageLong).not.toContain("y".repeat(61));
    expect(messageLong).not.toContain("TAIL");
    // Values that are not text are shown briefly too, and never break the error itself.
    for (const value of [10n, Symbol("s"), { toString: () => "z".repeat(500) }, () => "w".repeat(500)]) {
      const message = await messageOf(() => I.build({ age: value }), TypeError);
      expect(message).toContain("Item.age");
      expect(message.length).toBeLessThan(200);
    }
    // A BigInt shows with its n, as paginate shows it: "10" would read as a number that was refused for no reason.
    expect(await messageOf(() => I.build({ age: 10n }), TypeError)).toBe("Item.age: 10n is not a valid integer");
  });

  it("TypeError: paginate's page or perPage that is not a whole number names the Model and shows at most 60 characters", async () => {
    const message = await messageOf(() => I.paginate({ page: "p".repeat(5000) }), TypeError);
    expect(message).toContain("Item.paginate: page");
    expect(message).toContain("p".repeat(60));
    expect(message).not.toContain("p".repeat(61));
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    for (const value of [circular, 10n ** 100n]) {
      const shown = await messageOf(() => I.paginate({ perPage: value }), TypeError);
      expect(shown).toContain("Item.paginate: perPage");
      expect(shown.length).toBeLessThan(200);
    }
  });

  it("UnknownAttribute: assigned or permitted, the message names Model and attribute", async () => {
    for (const fn of [() => I.build({ nope: 1 }), () => I.permit({ nope: 1 }, "nope"), () => I.insert({ nope: 1 }), () => I.where({ nope: 1 }), () => I.updateAll({ nope: 1 })]) {
      const message = await messageOf(fn, UnknownAttribute);
      expect(message).toContain("Item");
      expect(message).toContain("nope");
    }
  });

  it("MissingAttribute: 'an attribute not loaded by select is read, including in validators and callbacks'", async () => {
    class Validated extends Model({ id: { type: "string", null: false, generateId: true }, name: "string", age: "integer" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.validates("age", { numericality: { greaterThan: 0 } });
      }
    }
    class CalledBack extends Model({ id: { type: "string", null: false, generateId: true }, name: "string", age: "integer" }) {
      static override binding = "DB";
      static override tableName = "srt_items";
      static {
        this.beforeSave((record: any) => void record.age);
      }
    }
    await I.create({ id: "m", name: "n", age: 3 });
    for (const Class of [Validated, CalledBack] as any[]) {
      const partial = await Class.select("name").find("m");
      partial.name = "changed";
      const message = await messageOf(() => partial.save(), MissingAttribute);
      expect(message).toContain(`${Class.name}.age`);
    }
    expect((await I.find("m")).name).toBe("n");
  });

  it("RecordNotFound: 'find finds no row (also for an uncastable id)', whatever the id's kind, naming the Model", async () => {
    await N.create({ id: 1, name: "one" });
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    // A symbol is no id at all: find refuses it with TypeError (test/kernel/argument-checks.test.ts).
    for (const id of [10n, circular, "x".repeat(3), 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      const message = await messageOf(() => N.find(id), RecordNotFound);
      expect(message).toContain("Num");
      const listMessage = await messageOf(() => N.find([1, id]), RecordNotFound);
      expect(listMessage).toContain("Num");
    }
    // The ids show as cast errors show values: at most 60 characters each.
    const long = await messageOf(() => I.find("z".repeat(500)), RecordNotFound);
    expect(long).toContain(`Item: no record with id "${"z".repeat(60)}…"`);
  });

  it("RecordNotUnique names the Model and the attribute (not the column), for one column and for several", async () => {
    await I.create({ codeValue: "c", partA: "a", partB: "b" });
    const single = await messageOf(() => I.create({ codeValue: "c" }), RecordNotUnique);
    expect(single).toContain("Item");
    expect(single).toContain("codeValue");
    const pair = await messageOf(() => I.insertAll([{ partA: "a", partB: "b" }]), RecordNotUnique);
    expect(pair).toContain("Item");
    expect(pair).toContain("partA, partB");
  });

  it("RecordNotUnique for a unique index on an expression still names the Model", async () => {
    await I.create({ name: "Same" });
    const message = await messageOf(() => I.create({ name: "same" }), RecordNotUnique);
    expect(message).toContain("Item");
    // The database names the index alone, not its table: in a batch, the Model is known when all are of one.
    const inBatch = await messageOf(() => batch([I.toInsert({ name: "other" }), I.toInsert({ name: "SAME" })]), RecordNotUnique);
    expect(inBatch).toContain("Item");
    expect(await I.count()).toBe(1);
  });

  it("RecordNotUnique for duplicates inside one insertAll list, without onDuplicate: skip", async () => {
    const message = await messageOf(() => I.insertAll([{ id: "dup" }, { id: "dup" }]), RecordNotUnique);
    expect(message).toContain("Item.id");
    expect(await I.count()).toBe(0);
  });
});

// ---- Limits ---------------------------------------------------------------------------------------------

describe("Limits: lists bound as one value, never more than 100 bound parameters", () => {
  async function seedOwners(count: number): Promise<string[]> {
    const owners = Array.from({ length: count }, (_, index) => ({ id: `o${index}`, name: `owner ${index}` }));
    await O.insertAll(owners);
    await P.insertAll(owners.map((owner) => ({ id: `p-${owner.id}`, ownerId: owner.id, name: `pet of ${owner.id}` })));
    return owners.map((owner) => owner.id);
  }

  it("includes of belongsTo and hasOne over 150 records: one query per association, one bound value", async () => {
    await seedOwners(150);
    const { db, events } = listen();
    const pets = await db.model(Pet as any).includes("owner").toArray();
    expect(pets).toHaveLength(150);
    expect(pets.every((pet: any) => pet.owner.get().id === pet.ownerId)).toBe(true);
    const owners = await db.model(Owner as any).includes("firstPet").toArray();
    expect(owners.every((owner: any) => owner.firstPet.get().ownerId === owner.id)).toBe(true);
    expect(events).toHaveLength(4);
    for (const event of events) expect(event.params.length).toBeLessThanOrEqual(1);
  });

  it("find(a, b, ...) with 150 ids is one query with one bound value", async () => {
    const ids = await seedOwners(150);
    const { db, events } = listen();
    const found = await db.model(Owner as any).find(...ids);
    expect(found.map((owner: any) => owner.id)).toEqual(ids);
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
  });

  it("dependent destroy of an owner with 150 children succeeds", async () => {
    class Keeper extends Model({ id: { type: "string", null: false }, name: "string" }) {
      static override binding = "DB";
      static override tableName = "srt_owners";
      pets = hasMany(Pet, { foreignKey: "ownerId", dependent: "destroy" });
    }
    await O.create({ id: "k" });
    await P.insertAll(Array.from({ length: 150 }, (_, index) => ({ ownerId: "k", name: `p${index}` })));
    const { db, events } = listen();
    const keeper = await db.model(Keeper as any).find("k");
    expect(await keeper.destroy()).toBe(keeper);
    expect(await P.count()).toBe(0);
    for (const event of events) expect(event.params.length).toBeLessThanOrEqual(100);
  });
});

// ---- Bulk writes and Other values ------------------------------------------------------------------------

describe("Bulk writes", () => {
  it("'All bulk writes run when called': insert, updateAll and deleteAll are sent without being awaited", async () => {
    const { db, events } = listen();
    const bound = db.model(Item as any) as any;
    const pending = [bound.insert({ id: "r", name: "a" }), bound.where({ id: "r" }).updateAll({ name: "b" })];
    await bound.count();
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT", "UPDATE", "SELECT"]);
    await Promise.all(pending);
  });

  it("insertAll: rows giving the same attributes are accepted, whether a value is null or not", async () => {
    await I.insertAll([{ name: "a", age: null }, { name: "b", age: 2 }]);
    expect(await I.order({ name: "asc" }).pluck("age")).toEqual([null, 2]);
  });

  it("upsert: an existing row is updated with the given attributes and a new updatedAt, keeping createdAt", async () => {
    await I.insert({ id: "u", name: "a", createdAt: new Date("2020-01-01T00:00:00Z"), updatedAt: new Date("2020-01-01T00:00:00Z") });
    await I.upsert({ id: "u", name: "b" });
    const row = await I.find("u");
    expect(row.name).toBe("b");
    expect(row.createdAt.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(row.updatedAt.getTime()).toBeGreaterThan(Date.parse("2020-01-02"));
  });

  it("upsert of the values a row already holds leaves its updatedAt alone, as a save with nothing to change does (Rails' upsert_all)", async () => {
    const stamp = new Date("2020-01-01T00:00:00Z");
    await I.insertAll([
      { id: "same", name: "a", age: 1, createdAt: stamp, updatedAt: stamp },
      { id: "other", name: "b", age: 1, createdAt: stamp, updatedAt: stamp },
    ]);
    await I.upsertAll([
      { id: "same", name: "a", age: 1 },
      { id: "other", name: "b", age: 2 },
    ]);
    expect((await I.find("same")).updatedAt.toISOString()).toBe(stamp.toISOString());
    expect((await I.find("other")).updatedAt.getTime()).toBeGreaterThan(stamp.getTime());
  });
});

describe("Other values", () => {
  it("'insert(...) resolves to the database's meta result object'; 'updateAll and deleteAll resolve to the number of rows affected'", async () => {
    const meta = await I.insertAll([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(meta).toMatchObject({ changes: 3 });
    expect(await I.where({ name: ["a", "b"] }).updateAll({ age: 5 })).toBe(2);
    expect(await I.where({ age: 5 }).deleteAll()).toBe(2);
    expect(await I.where({ age: 5 }).deleteAll()).toBe(0);
  });
});
