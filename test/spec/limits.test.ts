/** SPEC.md, Limits: lists bound as one value, never more than 100 bound parameters, sentence by sentence. */
import { beforeEach, describe, expect, it } from "vitest";
import { Model, belongsTo, hasMany, hasOne } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item as OwnedItem, Owner as ItemOwner, seedOwnedItems } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

const O = ItemOwner as any;

describe("Limits: lists of any length bound as one value", () => {
  it("includes over 1000 owners is one query per association, in the main query's batch, binding no key", async () => {
    const owners = Array.from({ length: 1000 }, (_, index) => ({ id: `o${index}`, name: `owner ${index}` }));
    await O.insertAll(owners);
    await I.insertAll(owners.map((owner, index) => ({ id: `i${index}`, ownerId: owner.id, rank: index })));
    const { events, Item: Bound } = listen({ models: { Item: OwnedItem } });
    const items = await (Bound as any).includes("owner").toArray();
    expect(items).toHaveLength(1000);
    expect(events).toHaveLength(2);
    expect(events[1]!.params).toHaveLength(0);
    expect(items[999].owner.get().name).toBe("owner 999");
  });

  it("or of two long lists, whereNot, exists, updateAll and deleteAll on a long list each fit", async () => {
    await seedOwnedItems();
    const { events, Item: Bound } = listen({ models: { Item: OwnedItem } });
    const many = (prefix: string) => Array.from({ length: 500 }, (_, index) => `${prefix}${index}`);
    const B = Bound as any;
    expect(await B.where({ id: [...many("p"), "a"] }).or(B.where({ code: [...many("q"), "B"] })).count()).toBe(2);
    expect(await B.whereNot({ id: [...many("p"), "a"] }).count()).toBe(3);
    expect(await B.exists({ id: [...many("p"), "c"] })).toBe(true);
    expect(await B.where({ id: [...many("p"), "c"] }).updateAll({ name: "w" })).toBe(1);
    expect(await B.where({ id: [...many("p"), "d"] }).deleteAll()).toBe(1);
    expect(events.every((event) => event.params.length <= 2)).toBe(true);
  });
});

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

const AnyPetOwner = Owner as any;

const P = Pet as any;

// ---- Limits ---------------------------------------------------------------------------------------------

describe("Limits: lists bound as one value, never more than 100 bound parameters", () => {
  async function seedOwners(count: number): Promise<string[]> {
    const owners = Array.from({ length: count }, (_, index) => ({ id: `o${index}`, name: `owner ${index}` }));
    await AnyPetOwner.insertAll(owners);
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
    await AnyPetOwner.create({ id: "k" });
    await P.insertAll(Array.from({ length: 150 }, (_, index) => ({ ownerId: "k", name: `p${index}` })));
    const { db, events } = listen();
    const keeper = await db.model(Keeper as any).find("k");
    expect(await keeper.destroy()).toBe(keeper);
    expect(await P.count()).toBe(0);
    for (const event of events) expect(event.params.length).toBeLessThanOrEqual(100);
  });
});
