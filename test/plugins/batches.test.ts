/** The batches plugin: findEach and findInBatches read by primary key, a batch a round trip. */
import { beforeEach, describe, expect, it } from "vitest";
import { batches, Base, connect, defaultPlugins, defineApplicationRecord, hasMany } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { ApplicationRecord, schema } from "../models/fixtures.js";

beforeEach(resetDatabase);

class Tally extends ApplicationRecord("counters") {}

class Member extends ApplicationRecord("users") {
  posts = hasMany(Article, { foreignKey: "userId" });
}

class Article extends ApplicationRecord("posts") {}

async function seedTallies(count: number): Promise<void> {
  await Tally.insertAll(Array.from({ length: count }, (_, index) => ({ id: index + 1, label: index % 2 === 0 ? "even" : "odd", value: index })));
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe("findInBatches", () => {
  it("reads batchSize records a round trip by primary key, each batch after the last key read, never by OFFSET", async () => {
    await seedTallies(7);
    const { db, events, sqls } = listen();
    const batchesRead = await collect(db.model(Tally).findInBatches({ batchSize: 3 }));
    expect(batchesRead.map((batch) => batch.map((tally) => tally.id))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(events).toHaveLength(3);
    expect(sqls()[0]).toBe(`SELECT * FROM "counters" ORDER BY "id" ASC LIMIT 3`);
    expect(sqls()[1]).toBe(`SELECT * FROM "counters" WHERE "id" > ?1 ORDER BY "id" ASC LIMIT 3`);
    expect(events[1]!.params).toEqual([3]);
    expect(events.every((event) => !/OFFSET/.test(event.sql))).toBe(true);
  });

  it("stops after a full batch only when the next one comes back empty, and sends one query when nothing matches", async () => {
    await seedTallies(6);
    const { db, events } = listen();
    expect((await collect(db.model(Tally).findInBatches({ batchSize: 3 }))).map((batch) => batch.length)).toEqual([3, 3]);
    expect(events).toHaveLength(3);
    expect(await collect(db.model(Tally).where({ label: "none" }).findInBatches())).toEqual([]);
    expect(events).toHaveLength(4);
  });

  it("keeps the Relation's conditions and caps the records at its limit; descending from the last key", async () => {
    await seedTallies(9);
    const odd = await collect(Tally.where({ label: "odd" }).limit(3).findInBatches({ batchSize: 2 }));
    expect(odd.map((batch) => batch.map((tally) => tally.id))).toEqual([[2, 4], [6]]);
    const down = await collect(Tally.findInBatches({ batchSize: 4, order: "desc" }));
    expect(down.map((batch) => batch.map((tally) => tally.id))).toEqual([[9, 8, 7, 6], [5, 4, 3, 2], [1]]);
  });
});

describe("inBatches", () => {
  it("gives the Relation narrowed to each batch's keys, read alone, so that a write touches a batch at a time", async () => {
    await seedTallies(5);
    const { binding, roundTrips } = recordingRoundTrips();
    const tallies = connect(binding).model(Tally);
    let batch = 0;
    for await (const relation of tallies.where({ label: "even" }).limit(3).inBatches({ batchSize: 2 })) {
      batch += 1;
      expect(await relation.updateAll({ value: 100 + batch })).toBe(batch === 1 ? 2 : 1);
    }
    expect(roundTrips[0]).toEqual([`SELECT "id" FROM "counters" WHERE "label" = ?1 ORDER BY "id" ASC LIMIT 2`]);
    expect(roundTrips).toHaveLength(4);
    expect(await Tally.order({ id: "asc" }).pluck("value")).toEqual([101, 1, 101, 3, 102]);
    // The keys are read without the Relation's preloads, which each batch keeps.
    const ada = await Member.create({ name: "Ada" });
    roundTrips.length = 0;
    for await (const members of connect(binding).model(Member).includes("posts").inBatches()) expect((await members.toArray())[0]!.id).toBe(ada.id);
    expect(roundTrips.map((trip) => trip.length)).toEqual([1, 2]);
  });
});

describe("findEach", () => {
  it("gives the records one at a time, with includes preloaded in each batch's round trip", async () => {
    const ada = await Member.create({ name: "Ada" });
    const grace = await Member.create({ name: "Grace" });
    await Article.create({ userId: ada.id, title: "A" });
    await Article.create({ userId: grace.id, title: "G" });
    const { binding, roundTrips } = recordingRoundTrips();
    const names: string[] = [];
    for await (const member of connect(binding).model(Member).includes("posts").findEach({ batchSize: 1 })) {
      names.push(`${member.name}:${(await member.posts().toArray()).map((post) => post.title).join()}`);
    }
    expect(names).toEqual(["Ada:A", "Grace:G"]);
    const third = await Member.create({ name: "Linus" });
    const keys = (await collect(Member.findInBatches({ batchSize: 2 }))).map((batch) => batch.map((member) => member.id));
    expect(keys).toEqual([[ada.id, grace.id], [third.id]]); // time-ordered text keys
    // Two full batches, then the one that finds none: each the users and their posts in one round trip.
    expect(roundTrips.map((trip) => trip.length)).toEqual([2, 2, 2]);
  });

  it("refuses what paging by key cannot keep, and wrong options, naming the Model and method, before sending anything", async () => {
    const { db, events } = listen();
    const tallies = db.model(Tally);
    // As the other async methods reject, the call gives the iterable and its first next() rejects with the refusal.
    const firstOf = (batches: AsyncIterable<unknown>) => batches[Symbol.asyncIterator]().next();
    await expect(firstOf(tallies.order({ value: "asc" }).findEach())).rejects.toThrow(
      new TypeError(`Tally.findEach reads by primary key: the Relation takes no order (reorder() removes it; give { order: "desc" }), offset or distinct()`),
    );
    await expect(firstOf(tallies.offset(2).findInBatches())).rejects.toThrow(/^Tally\.findInBatches reads by primary key: the Relation takes no order/);
    await expect(firstOf(tallies.distinct().inBatches())).rejects.toThrow(/^Tally\.inBatches reads by primary key/);
    await expect(firstOf(tallies.findEach({ batchSize: 0 }))).rejects.toThrow(/^Tally\.findEach: batchSize takes a whole number from 1/);
    await expect(firstOf(tallies.findEach({ order: "up" as never }))).rejects.toThrow(/^Tally\.findEach: order takes "asc" or "desc"/);
    await expect(firstOf(tallies.findInBatches({ size: 5 } as never))).rejects.toThrow(TypeError);
    await expect(firstOf(tallies.inBatches({ batchSize: 1.5 }))).rejects.toThrow(/^Tally\.inBatches: batchSize takes a whole number from 1/);
    await expect(firstOf((tallies.findEach as (...args: unknown[]) => AsyncIterable<unknown>)({}, {}))).rejects.toThrow(/^Tally\.findEach takes/);
    // A caller's .catch sees it, and so does a for await inside try, wherever the iterable was made.
    await expect(collect(Tally.findInBatches({ batchSize: -1 })).catch((error: unknown) => error)).resolves.toBeInstanceOf(TypeError);
    const refused = Tally.inBatches({ order: "up" as never });
    await expect((async () => { for await (const _ of refused); })()).rejects.toThrow(/^Tally\.inBatches: order takes/);
    expect(events).toHaveLength(0);
    // @ts-expect-error batchSize is a number
    await expect(firstOf(Tally.findEach({ batchSize: "10" }))).rejects.toThrow(TypeError);
  });

  it("come with ActiveRecord, and on Base with the plugin", async () => {
    expect(defaultPlugins).toContain(batches);
    class Batched extends Base {
      static override binding = "DB";
      static {
        this.use(batches);
      }
    }
    class BatchedTally extends defineApplicationRecord(schema, Batched)("counters") {}
    await seedTallies(2);
    expect((await collect(BatchedTally.findEach())).map((tally) => tally.id)).toEqual([1, 2]);
    expect(await rejectionOf(collect(BatchedTally.findEach({ batchSize: -1 })))).toBeInstanceOf(TypeError);
  });
});
