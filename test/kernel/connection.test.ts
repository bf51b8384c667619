/** SPEC.md's Connection: connect, db.model(M), withDatabase and the binding a Model names. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, belongsTo, connect, hasMany, hasOne, Model, withDatabase } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { Item } from "../models/runtime-items.js";

beforeEach(resetDatabase);

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

const AnyContact = Item as any;

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
    const relation = AnyContact.where({ name: "x" });
    await withDatabase(db, () => relation.toArray());
    expect(events).toHaveLength(1);
  });

  it("withDatabase nested: the inner database is current inside, the outer one again after it", async () => {
    const outer = listen();
    const inner = listen();
    await withDatabase(outer.db, async () => {
      await withDatabase(inner.db, () => AnyContact.count());
      await AnyContact.count();
    });
    expect(inner.events).toHaveLength(1);
    expect(outer.events).toHaveLength(1);
  });

  it("'Request-related state is never stored on the class': db.model(M), withDatabase and connect leave M's own properties alone", async () => {
    await AnyContact.count(); // first use fixes the declaration
    const before = Reflect.ownKeys(Item).map(String).sort();
    const { db } = listen();
    await db.model(Item as any).count();
    await withDatabase(connect(env.DB, { onQuery: () => {} }), () => AnyContact.count());
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
