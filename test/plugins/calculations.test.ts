/** The calculations plugin: count and pluck, and calculations on association Relations. */
import { beforeEach, describe, expect, it } from "vitest";
import { gt, RecordNotFound, UnknownAttribute } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Badge, Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen, seedOwnedItems } from "../models/owners-and-items.js";
import { listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

const I = OwnedItem as any;

const O = ItemOwner as any;

const B = Badge as any;

describe("pluck: 'array of values, or array of tuples'", () => {
  it("several attributes with filtered ones, distinct, select and a limit", async () => {
    await seedOwnedItemsSeen();
    await I.where({ id: "a" }).updateAll({ apiToken: "t-a", data: { k: 1 }, flag: true });
    const { db, events } = listen();
    expect(await db.model(OwnedItem).where({ id: "a" }).pluck("id", "apiToken", "data", "flag", "seenAt")).toEqual([
      ["a", "t-a", { k: 1 }, true, new Date("2024-01-01T00:00:00Z")],
    ]);
    expect(events[0]!.sql).toBe(`SELECT "id", "api_token", "data", "flag", "seen_at" FROM "saq_items" WHERE "id" = ?1`);
    expect(await I.distinct().order({ ownerId: "asc" }).pluck("ownerId")).toEqual([null, "o1", "o2"]);
    expect(await I.select("name").order({ id: "asc" }).limit(2).pluck("rank")).toEqual([1, 2]);
    expect(await db.model(OwnedItem).where({ apiToken: "t-a" }).pluck("id")).toEqual(["a"]);
    expect(events.at(-1)!.params).toEqual(["[FILTERED]"]);
  });
});

describe("pluck: any number of names within D1's limit of 100 columns", () => {
  it("selects each column once, however often it is named, and gives every name its value", async () => {
    await seedOwnedItems();
    const { db, events } = listen();
    const names = Array.from({ length: 150 }, (_, index) => ["id", "name", "rank"][index % 3]!);
    const rows = await db.model(OwnedItem).where({ id: ["a", "c"] }).order({ id: "asc" }).pluck(...(names as ["id"]));
    const values = { a: { id: "a", name: "x", rank: 1 }, c: { id: "c", name: "y", rank: 3 } };
    expect(rows).toEqual([values.a, values.c].map((row) => names.map((name) => row[name as keyof typeof row])));
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/^SELECT "id", "name", "rank" FROM "saq_items"/);
  });
});

describe("count: 'always agrees with toArray() even with limit, offset, distinct'; one query", () => {
  it("with select, order, offset, or and a scope, each in one query", async () => {
    await seedOwnedItemsSeen();
    const { db, events } = listen();
    const M = db.model(OwnedItem) as any;
    const relations = [
      M.select("name").distinct(),
      M.select("name").distinct().order({ name: "asc" }).offset(1),
      M.order({ rank: "desc" }).offset(1),
      M.where({ id: "a" }).or(M.where({ rank: gt(2) })),
      M.ranked().limit(2),
      M.distinct().select("ownerId").limit(10),
      M.includes("owner").where({ ownerId: "o1" }),
    ];
    for (const relation of relations) {
      const length = (await relation.toArray()).length;
      events.length = 0;
      expect(await relation.count()).toBe(length);
      expect(events).toHaveLength(1);
    }
  });
});

describe("Results: find with no id; calculations on association Relations", () => {
  it("find() with no id throws RecordNotFound without a query, as in Rails; find([]) is empty", async () => {
    await seedOwnedItems();
    const { events, Item: B } = listen({ models: { Item: OwnedItem } }) as any;
    expect(await rejectionOf(B.find())).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(B.where({ name: "x" }).find())).toBeInstanceOf(RecordNotFound);
    expect(events).toHaveLength(0);
    expect(await B.find([])).toEqual([]);
  });

  it("paginate and size/isEmpty/hasAny on an association Relation", async () => {
    await seedOwnedItems();
    const owner = await O.find("o1");
    const page = await owner.items().paginate({ perPage: 1 });
    expect(page.total).toBe(2);
    await owner.items().toArray();
    const { events } = listen();
    expect(await owner.items().size()).toBe(2);
    expect(await owner.items().isEmpty()).toBe(false);
    expect(await owner.items().hasAny()).toBe(true);
    expect(events).toHaveLength(0);
  });
});

describe("pick and ids (Rails' pick and ids): pluck of one row, and of the primary key", () => {
  it("pick reads one row (LIMIT 1) by the Relation's order, a value or a tuple, null when none matches", async () => {
    await seedOwnedItems();
    const { db, events } = listen();
    const items = db.model(OwnedItem);
    expect(await items.order({ rank: "desc" }).where({ ownerId: "o1" }).pick("id")).toBe("b");
    expect(events[0]!.sql).toBe(`SELECT "id" FROM "saq_items" WHERE "owner_id" = ?1 ORDER BY "rank" DESC LIMIT 1`);
    expect(await items.order({ id: "asc" }).pick("id", "rank")).toEqual(["a", 1]);
    expect(await items.where({ id: "none" }).pick("name")).toBeNull();
    expect(await items.limit(0).pick("name")).toBeNull();
    expect(events).toHaveLength(4);
    const typed: string | null = await OwnedItem.where({ id: "c" }).pick("name");
    expect(typed).toBe("y");
  });

  it("ids plucks the primary key of the matching rows, typed as the id attribute", async () => {
    await seedOwnedItems();
    const keys: string[] = await OwnedItem.where({ ownerId: "o1" }).order({ id: "asc" }).ids();
    expect(keys).toEqual(["a", "b"]);
    expect((await OwnedItem.ids()).sort()).toEqual(["a", "b", "c", "d"]);
  });

  it("refuse wrong arguments naming pick or ids", async () => {
    expect((await rejectionOf(I.pick())).message).toBe("Item.pick needs at least one attribute name");
    expect(await rejectionOf(I.pick("nope"))).toBeInstanceOf(UnknownAttribute);
    expect((await rejectionOf(I.ids("id"))).message).toMatch(/^Item\.ids takes/);
    // @ts-expect-error pick needs a name of an attribute
    await rejectionOf(OwnedItem.pick("nope"));
  });
});
