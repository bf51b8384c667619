/** SPEC.md, Limits: lists bound as one value, never more than 100 bound parameters, sentence by sentence. */
import { beforeEach, describe, expect, it } from "vitest";
import { column, gte, Model, RecordflareError, belongsTo, hasMany, hasOne, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item as OwnedItem, Owner as ItemOwner, seedOwnedItems } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";
import { ThrPost, ThrWriter } from "../models/tagged-posts.js";

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

// ---- Every query and write with extreme input ---------------------------------------------------------------

/**
 * What a call gave: its result, or the error it threw, which must be recordflare's (a `RecordflareError`, or a
 * `TypeError` naming the Model), never D1's.
 */
async function outcome(label: string, run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    const { name, message } = error as Error;
    const ours = (error instanceof RecordflareError || error instanceof TypeError) && /^Thr(Post|Comment|Writer)\b/.test(message) && !message.includes("D1_");
    return ours ? undefined : `${label}: ${name}: ${message.slice(0, 160)}`;
  }
}

const titles = (count: number, prefix = "t") => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

/** Relations of ThrPost built from extreme input, each by what makes it so. */
const EXTREME_RELATIONS: Record<string, () => any> = {
  "30 alternating where() and or()": () => titles(30).reduce((relation, title) => relation.where({ thrWriterId: 1 }).or(ThrPost.where({ title })), ThrPost.where({ title: "a" })),
  "40 or()s of whereNot() nested": () => titles(40).reduce((relation, title) => ThrPost.whereNot({ title, tenantId: "x" }).or(relation.where({ title })), ThrPost.where({ title: "a" })),
  "1,000 conditions": () => titles(1000).reduce((relation, title) => relation.where({ thrWriterId: gte(-title.length) }), ThrPost.all()),
  "3,000 conditions": () => titles(3000).reduce((relation) => relation.where({ thrWriterId: gte(-1) }), ThrPost.all()),
  "a where of every attribute, and a whereNot of every attribute": () => ThrPost.where({ id: [1, 2], thrWriterId: [1, null], title: titles(5), tenantId: null }).whereNot({ id: 9, thrWriterId: 9, title: "z", tenantId: "z" }),
  "a list of 20,000 values": () => ThrPost.where({ title: titles(20_000) }),
  "600 or() branches of two conditions": () => titles(600).reduce((relation, title) => relation.or(ThrPost.where({ title, thrWriterId: 1 })), ThrPost.where({ title: "a" })),
  "merge of 60 Relations that each hold an or()": () => titles(60).reduce((relation, title) => relation.merge(ThrPost.where({ title }).or(ThrPost.where({ tenantId: title }))), ThrPost.all()),
  "150 order() calls": () => titles(150).reduce((relation, _, index) => relation.order(index % 2 === 0 ? { title: "asc" } : { id: "desc", thrWriterId: "asc" }), ThrPost.all()),
  "120 order fragments": () => titles(120).reduce((relation, _, index) => relation.order(sql`${column("id")} + ${index}`), ThrPost.all()),
  "150 orderByCount()s": () => titles(150).reduce((relation) => relation.orderByCount("thrComments", "desc"), ThrPost.all()),
  "a value of 900,000 bytes": () => ThrPost.where({ title: "é".repeat(450_000) }),
  "a value over 1,000,000 bytes": () => ThrPost.where({ title: "x".repeat(1_000_001) }),
  "a list of 2,000 values of 900 bytes": () => ThrPost.where({ title: titles(2000, "x".repeat(900)) }),
  "an sql fragment of 300 values": () => ThrPost.where(sql`${column("title")} IN (${titles(299).reduce((list, title) => sql`${list}, ${title}`, sql`${"a"}`)})`),
  "an sql fragment of over 100 KB": () => ThrPost.where(titles(12_000).reduce((fragment) => sql`${fragment} AND ${column("title")} IS NOT NULL`, sql`1`)),
  "select of every attribute twice": () => ThrPost.select("id", "title", "thrWriterId", "tenantId", "id", "title"),
};

/** Every query and write of a Relation (its records, counts, pages, counts of associations, preloads, set-based writes). */
const CALLS: Record<string, (relation: any) => unknown> = {
  toArray: (relation) => relation.toArray(),
  first: (relation) => relation.first(),
  last: (relation) => relation.last(),
  count: (relation) => relation.count(),
  exists: (relation) => relation.exists(),
  "pluck of 150 names": (relation) => relation.pluck(...Array.from({ length: 150 }, (_, index) => ["id", "title", "tenantId"][index % 3])),
  paginate: (relation) => relation.paginate({ page: 2, perPage: 1 }),
  "withCount of 150 names": (relation) => relation.withCount(...Array.from({ length: 150 }, () => "thrComments")).toArray(),
  "withCount with it as the scope": (relation) => ThrWriter.withCount({ thrPosts: () => relation }).toArray(),
  includes: (relation) => relation.includes("thrComments", "thrTags", "thrWriter").toArray(),
  "paged updateAll": (relation) => relation.order({ id: "asc" }).limit(2).updateAll({ tenantId: "t" }),
  updateAll: (relation) => relation.updateAll({ tenantId: "t" }),
  deleteAll: (relation) => relation.where({ id: -1 }).deleteAll(),
};

const keys = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** The writes and finds of a Model, each with extreme input. */
const WRITES_AND_FINDS: Record<string, () => unknown> = {
  "insertAll of 3,000 rows of 300-byte values": () => ThrPost.insertAll(titles(3000).map((title) => ({ title, tenantId: "x".repeat(300) }))),
  "upsertAll of 3,000 rows": () => ThrPost.upsertAll(titles(3000).map((title, index) => ({ id: index + 1, title }))),
  "find of 30,000 ids": () => ThrPost.find(keys(30_000)),
  "findBy of every attribute": () => ThrPost.findBy({ id: 1, title: titles(3000), thrWriterId: null, tenantId: null }),
  "exists of a list of 30,000": () => ThrPost.exists({ title: titles(30_000) }),
  "updateAll of a 900 KB value": () => ThrPost.where({ id: [1, 2] }).updateAll({ title: "x".repeat(900_000) }),
  "updateCounters of 30,000 ids": () => ThrPost.updateCounters(keys(30_000), { thrWriterId: 1 }),
  "create of a 900 KB value": () => ThrPost.create({ title: "é".repeat(450_000) }),
  "deleteAll of a list of 30,000": () => ThrPost.where({ id: keys(30_000).map((key) => -key) }).deleteAll(),
};

describe("Limits: every query and write with extreme input runs, or throws recordflare's error naming the Model, never D1's", () => {
  it("each Relation of extreme input through each query and write; bulk writes and finds of extreme input", async () => {
    const writer = await ThrWriter.create({ name: "w" });
    await ThrPost.insertAll(titles(30).map((title) => ({ title, thrWriterId: writer.id })));
    const failures: string[] = [];
    for (const [input, relationOf] of Object.entries(EXTREME_RELATIONS)) {
      for (const [call, run] of Object.entries(CALLS)) {
        const failure = await outcome(`${input}, ${call}`, () => run(relationOf()));
        if (failure) failures.push(failure);
      }
    }
    for (const [call, run] of Object.entries(WRITES_AND_FINDS)) {
      const failure = await outcome(call, run);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
