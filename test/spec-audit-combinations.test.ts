/**
 * Probes of SPEC.md's Querying, Relation, Statement, Page and Associations sections in combination: what the
 * earlier audits (spec-audit-querying, spec-audit-associations, spec-edge-cases-*) probe one at a time.
 * Tables: test/fixtures/migrations/0017_spec_audit_querying.sql.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { batch, between, gt, gte, hasMany, hasOne, ignoringCase, lt, lte, Model, RecordNotFound, MissingAttribute, RecordNotDestroyed, abort } from "../src/index.js";
import { countStatement } from "../src/plugin.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { Badge, Item, Num, Owner } from "./models/saq-fixtures.js";
import { listen } from "./helpers/queries.js";

beforeEach(resetDatabase);

/** Owner's table with a dependent hasMany (a subclass, so that Owner's own destroys keep their children). */
class DependentOwner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_owners";
  kept = hasMany(Item, { foreignKey: "ownerId", dependent: "destroy" });
}

const I = Item as any;
const O = Owner as any;
const B = Badge as any;

async function seed(): Promise<void> {
  await O.insertAll([{ id: "o1", name: "one" }, { id: "o2", name: "two" }]);
  await I.insertAll([
    { id: "a", ownerId: "o1", name: "x", rank: 1, code: "A", seenAt: "2024-01-01T00:00:00Z" },
    { id: "b", ownerId: "o1", name: "X", rank: 2, code: "B", seenAt: "2024-01-02T00:00:00Z" },
    { id: "c", ownerId: "o2", name: "y", rank: 3, code: "C", seenAt: "2024-01-03T00:00:00Z" },
    { id: "d", ownerId: null, name: null, rank: null, code: "D", seenAt: null },
  ]);
}

const ids = async (relation: any): Promise<string[]> => (await relation.toArray()).map((record: any) => record.id);

describe("none(): 'matches nothing without querying; chaining keeps it empty'", () => {
  it("every terminal method answers without a query", async () => {
    await seed();
    const { db, events } = listen();
    const none = db.model(Item).none() as any;
    expect(await none.toArray()).toEqual([]);
    expect(await none.count()).toBe(0);
    expect(await none.size()).toBe(0);
    expect(await none.exists()).toBe(false);
    expect(await none.exists({ id: "a" })).toBe(false);
    expect(await none.isEmpty()).toBe(true);
    expect(await none.hasAny()).toBe(false);
    expect(await none.pluck("id")).toEqual([]);
    expect(await none.pluck("id", "name")).toEqual([]);
    expect(await none.first()).toBeNull();
    expect(await none.last()).toBeNull();
    expect(await none.take()).toBeNull();
    expect(await none.findBy({ id: "a" })).toBeNull();
    expect(await rejectionOf(none.find("a"))).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(none.find(["a", "b"]))).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(none.findByOrThrow({ id: "a" }))).toBeInstanceOf(RecordNotFound);
    expect(await none.updateAll({ name: "z" })).toBe(0);
    expect(await none.deleteAll()).toBe(0);
    const page = await none.paginate();
    expect(page).toMatchObject({ records: [], total: 0, totalPages: 0, hasNext: false, hasPrevious: false });
    expect(await none.includes("owner").toArray()).toEqual([]);
    expect(await none.where({ id: "a" }).order({ rank: "asc" }).limit(2).select("name").distinct().toArray()).toEqual([]);
    expect(await none.merge(db.model(Item).where({ id: "a" })).toArray()).toEqual([]);
    expect(await db.model(Item).where({ id: "a" }).merge(none).toArray()).toEqual([]);
    expect(await none.ranked().count()).toBe(0);
    expect(events).toEqual([]);
    expect(await I.count()).toBe(4);
  });

  it("'toSql() shows 1 = 0' after where, or and a scope too", () => {
    expect(I.none().where({ id: "a" }).toSql().sql).toContain("1 = 0");
    expect(I.where({ id: "a" }).none().toSql().sql).toContain("1 = 0");
    expect(I.none().ranked().toSql().sql).toContain("1 = 0");
    expect(I.none().or(I.where({ id: "a" }).none()).toSql().sql).toContain("1 = 0");
  });
});

describe("select: 'loads only those attributes plus the primary key'", () => {
  it("with includes, first and last", async () => {
    await seed();
    const first = await I.select("name").first();
    expect(first.id).toBe("a");
    expect(first.name).toBe("x");
    const last = await I.select("rank").order({ rank: { direction: "asc", nulls: "first" } }).last();
    expect(last.id).toBe("c");
    const owners = await O.select("name").includes("items").order({ id: "asc" }).toArray();
    expect(owners.map((owner: any) => owner.items().size())).toHaveLength(2);
    expect(await owners[0].items().size()).toBe(2);
    const items = await I.select("name", "ownerId").includes("owner").where({ id: "c" }).toArray();
    expect(items[0].owner.get().name).toBe("two");
  });
});

describe("order: 'repeated calls add keys; NULLs sort first in ascending order by default'", () => {
  it("several attributes with nulls, reversed by last()", async () => {
    await seed();
    await I.insert({ id: "e", name: "x", rank: null, code: "E" });
    const ordered = I.order({ name: { direction: "asc", nulls: "last" } }).order({ rank: "desc" });
    expect(ordered.toSql().sql).toBe(`SELECT * FROM "saq_items" ORDER BY "name" ASC NULLS LAST, "rank" DESC`);
    expect(await ids(ordered)).toEqual(["b", "a", "e", "c", "d"]);
    expect((await ordered.first()).id).toBe("b");
    expect((await ordered.last()).id).toBe("d");
    expect(await ids(I.order({ rank: "asc" }).order({ id: "asc" }))).toEqual(["d", "e", "a", "b", "c"]);
    expect((await I.order({ rank: "asc" }).last()).id).toBe("c");
    expect((await I.order({ rank: "desc" }).last()).id).toMatch(/^[de]$/);
    const page = await ordered.paginate({ perPage: 2, page: 2 });
    expect(page.records.map((r: any) => r.id)).toEqual(["e", "c"]);
  });
});

describe("comparison helpers: 'for number, string and datetime attributes'", () => {
  it("datetime with strings and Dates, between with excludeEnd", async () => {
    await seed();
    expect(await ids(I.where({ seenAt: gt("2024-01-01T00:00:00Z") }).order({ id: "asc" }))).toEqual(["b", "c"]);
    expect(await ids(I.where({ seenAt: gte("2024-01-02") }).order({ id: "asc" }))).toEqual(["b", "c"]);
    expect(await ids(I.where({ seenAt: lt(new Date("2024-01-02T00:00:00Z")) }))).toEqual(["a"]);
    expect(await ids(I.where({ seenAt: lte("2024-01-02T01:00:00+01:00") }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await ids(I.where({ seenAt: between("2024-01-01", "2024-01-03") }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await ids(I.where({ seenAt: between("2024-01-01", "2024-01-03", { excludeEnd: true }) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await ids(I.where({ rank: between(1, 3, { excludeEnd: true }) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await ids(I.where({ name: between("x", "y", { excludeEnd: true }) }))).toEqual(["a"]);
    expect(await ids(I.whereNot({ rank: between(1, 2) }))).toEqual(["c"]);
    expect(await ids(I.whereNot({ seenAt: gt("2024-01-01") }))).toEqual(["a"]);
    expect(I.where({ rank: between(1, 3, { excludeEnd: true }) }).toSql()).toEqual({
      sql: `SELECT * FROM "saq_items" WHERE "rank" >= ? AND "rank" < ?`,
      params: [1, 3],
    });
  });

  it("ignoringCase with where, whereNot, a list and or", async () => {
    await seed();
    expect(await ids(I.where({ name: ignoringCase("X") }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await ids(I.whereNot({ name: ignoringCase("X") }))).toEqual(["c"]);
    expect(await ids(I.where({ name: ignoringCase("Y") }).or(I.where({ id: "a" })).order({ id: "asc" }))).toEqual(["a", "c"]);
  });
});

describe("whereNot: 'negates the whole condition; rows with NULL in the attribute are also excluded'", () => {
  it("with null lists, several keys and comparisons", async () => {
    await seed();
    expect(await ids(I.whereNot({ rank: [null] }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await ids(I.whereNot({ rank: [null, 1] }).order({ id: "asc" }))).toEqual(["b", "c"]);
    // (name IN ('x') OR name IS NULL) AND rank = 3 holds for no row; d is excluded for its NULLs.
    expect(await ids(I.whereNot({ name: ["x", null], rank: 3 }).order({ id: "asc" }))).toEqual(["a", "b", "c"]);
    expect(await ids(I.whereNot({ rank: gt(2) }).order({ id: "asc" }))).toEqual(["a", "b"]);
    expect(await ids(I.whereNot({ rank: 1, name: "x" }).order({ id: "asc" }))).toEqual(["b", "c"]);
  });
});

describe("find: 'records in the ids' order from one query; throws if any is missing'", () => {
  it("with duplicate ids and an id given as its digits, as Rails (ids made unique)", async () => {
    await seed();
    const { db, events } = listen();
    const found = await db.model(Item).find(["c", "a", "c"]);
    expect(found.map((r: any) => r.id)).toEqual(["c", "a"]);
    expect(events).toHaveLength(1);
    expect((await I.find("a", "a")).map((r: any) => r.id)).toEqual(["a"]);
    await (Num as any).insertAll([{ id: 1, name: "one" }, { id: 2, name: "two" }]);
    expect((await (Num as any).find([2, "1", 1, " 2 "])).map((r: any) => r.name)).toEqual(["two", "one"]);
  });

  it("find with select, where and order keeps the ids' order", async () => {
    await seed();
    const found = await I.select("name").where({ ownerId: ["o1", "o2"] }).order({ rank: "desc" }).find(["a", "c"]);
    expect(found.map((r: any) => r.id)).toEqual(["a", "c"]);
    expect(await rejectionOf(I.where({ ownerId: "o1" }).find(["a", "c"]))).toBeInstanceOf(RecordNotFound);
  });
});

describe("pluck: 'array of values, or array of tuples'", () => {
  it("several attributes with filtered ones, distinct, select and a limit", async () => {
    await seed();
    await I.where({ id: "a" }).updateAll({ apiToken: "t-a", data: { k: 1 }, flag: true });
    const { db, events } = listen();
    expect(await db.model(Item).where({ id: "a" }).pluck("id", "apiToken", "data", "flag", "seenAt")).toEqual([
      ["a", "t-a", { k: 1 }, true, new Date("2024-01-01T00:00:00Z")],
    ]);
    expect(events[0]!.sql).toBe(`SELECT "id", "api_token", "data", "flag", "seen_at" FROM "saq_items" WHERE "id" = ?`);
    expect(await I.distinct().order({ ownerId: "asc" }).pluck("ownerId")).toEqual([null, "o1", "o2"]);
    expect(await I.select("name").order({ id: "asc" }).limit(2).pluck("rank")).toEqual([1, 2]);
    expect(await db.model(Item).where({ apiToken: "t-a" }).pluck("id")).toEqual(["a"]);
    expect(events.at(-1)!.params).toEqual(["[FILTERED]"]);
  });
});

describe("scopes with includes, paginate, merge", () => {
  it("a scope keeps includes given before and after it", async () => {
    await seed();
    const { db, events } = listen();
    const before = await (db.model(Item) as any).includes("owner").ranked().toArray();
    expect(before.map((r: any) => r.id)).toEqual(["c", "b", "a"]);
    expect(before[0].owner.get().name).toBe("two");
    expect(events).toHaveLength(2);
    const after = await (db.model(Item) as any).ranked().includes("owner").limit(1).toArray();
    expect(after[0].owner.get().name).toBe("two");
    const merged = await (db.model(Item) as any).where({ ownerId: "o1" }).merge(I.ranked()).toArray();
    expect(merged.map((r: any) => r.id)).toEqual(["b", "a"]);
  });
});

describe("count: 'always agrees with toArray() even with limit, offset, distinct'; one query", () => {
  it("with select, order, offset, or and a scope, each in one query", async () => {
    await seed();
    const { db, events } = listen();
    const M = db.model(Item) as any;
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

describe("paginate with distinct", () => {
  it("a distinct select pages and counts the distinct rows", async () => {
    await seed();
    const page = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2 });
    expect(page.total).toBe(3);
    expect(page.totalPages).toBe(2);
    expect(page.records.map((r: any) => r.ownerId)).toEqual([null, "o1"]);
    const second = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2, page: 2 });
    expect(second.records.map((r: any) => r.ownerId)).toEqual(["o2"]);
    const noCount = await I.distinct().select("ownerId").order({ ownerId: "asc" }).paginate({ perPage: 2, count: false });
    expect(noCount.hasNext).toBe(true);
  });
});

describe("batch mixing reads and writes: 'executes all atomically'", () => {
  it("a select and a count see the writes before them in the same batch", async () => {
    await seed();
    const { db, events } = listen();
    const M = db.model(Item) as any;
    const results = await db.batch([M.toInsert({ id: "e", name: "e", code: "E" }), M.where({ name: "e" }).toSelect(), countStatement(M.all()), M.where({ id: "e" }).toDeleteAll(), countStatement(M.all())]);
    expect((results[1] as any[]).map((r) => r.id)).toEqual(["e"]);
    expect(results[2]).toBe(5);
    expect(results[3]).toBe(1);
    expect(results[4]).toBe(4);
    expect(events.every((event) => event.batched)).toBe(true);
  });
});

describe("Associations in combination", () => {
  it("hasMany: a child built and not saved, then the owner destroyed: nothing of the child is written", async () => {
    await seed();
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
    await seed();
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
    await seed();
    const owner = await O.find("o1");
    const old = await owner.badge.load() ?? (await B.create({ name: "old", ownerId: "o1" }));
    owner.badge.build({ name: "new" });
    expect(owner.badge.get().name).toBe("new");
    await batch([old.toDestroy(), owner.toSave()]);
    expect(await B.where({ ownerId: "o1" }).pluck("name")).toEqual(["new"]);
  });

  it("reloadAssociation on a never-loaded association loads it", async () => {
    await seed();
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
    await seed();
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

describe("dependent destroy with a child's callback aborting", () => {
  class Touchy extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string", code: "string" }) {
    static override binding = "DB";
    static override tableName = "saq_items";
    static seen: string[] = [];
    static {
      this.beforeDestroy((record: any) => {
        Touchy.seen.push(record.id);
        if (record.name === "keep") throw abort("kept");
      });
    }
  }
  class Holder extends Model({ id: { type: "string", null: false }, name: "string" }) {
    static override binding = "DB";
    static override tableName = "saq_owners";
    touchies = hasMany(Touchy, { foreignKey: "ownerId", dependent: "destroy" });
    touchy = hasOne(Touchy, { foreignKey: "ownerId", dependent: "destroy" });
  }

  it("the second of two children aborting: nothing is deleted, in a batch with other writes too", async () => {
    await O.insert({ id: "h1", name: "h" });
    await I.insertAll([{ id: "t1", ownerId: "h1", name: "go", code: "1" }, { id: "t2", ownerId: "h1", name: "keep", code: "2" }]);
    const holder = await (Holder as any).find("h1");
    expect(await holder.destroy()).toBe(false);
    expect(holder.abortReason).toBe("kept");
    expect(holder.isPersisted()).toBe(true);
    expect(await I.where({ ownerId: "h1" }).count()).toBe(2);
    expect(await rejectionOf(holder.destroyOrThrow())).toBeInstanceOf(RecordNotDestroyed);
    const other = I.build({ id: "other", code: "O" });
    const refused = await rejectionOf(batch([other.toSave(), holder.toDestroy()]));
    expect(refused).toBeInstanceOf(Error);
    expect(await I.where({ id: "other" }).count()).toBe(0);
    expect(await O.where({ id: "h1" }).count()).toBe(1);
    expect(await I.where({ ownerId: "h1" }).count()).toBe(2);
  });
});

describe("Page: 'total ... (absent with count: false)'; Statement: 'toSql() returning { sql, params }'", () => {
  it("the Page's fields with and without a count, and past the last page", async () => {
    await seed();
    const page = await I.order({ id: "asc" }).paginate({ page: "2", perPage: "3" });
    expect(page).toEqual({ records: [expect.objectContaining({ id: "d" })], page: 2, perPage: 3, total: 4, totalPages: 2, hasNext: false, hasPrevious: true });
    const bare = await I.paginate({ count: false, perPage: 3 });
    expect(Object.keys(bare).sort()).toEqual(["hasNext", "hasPrevious", "page", "perPage", "records"]);
    expect(bare.hasNext).toBe(true);
    const past = await I.paginate({ page: 9, perPage: 3 });
    expect(past).toMatchObject({ records: [], total: 4, totalPages: 2, hasNext: false, hasPrevious: true });
    const nonePage = await I.none().paginate({ count: false });
    expect("total" in nonePage).toBe(false);
  });

  it("a Statement's and a Relation's toSql() hold sql and params only", () => {
    expect(Object.keys(I.where({ id: "a" }).toUpdateAll({ name: "b" }).toSql()).sort()).toEqual(["params", "sql"]);
    expect(Object.keys(I.where({ id: "a" }).toSql()).sort()).toEqual(["params", "sql"]);
  });
});

describe("select with includes: the preload reads the foreign key", () => {
  it("a select leaving out a belongsTo's foreign key throws MissingAttribute, as Rails' preload does", async () => {
    await seed();
    expect(await rejectionOf(I.select("name").includes("owner").toArray())).toBeInstanceOf(MissingAttribute);
  });
});

describe("Relation: 'Every Relation method is also a static of each Model'; includes: 'one query per association'", () => {
  const QUERYING = ["where", "whereNot", "or", "order", "reorder", "limit", "offset", "paginate", "select", "distinct", "none", "merge", "includes", "toSql"];
  const RESULTS = ["toArray", "find", "findBy", "findByOrThrow", "first", "last", "take", "pluck", "count", "exists", "size", "isEmpty", "hasAny"];
  // Inserts write rows of their own: they are Model statics, not methods of a Relation.
  const INSERTS = ["insert", "insertAll", "upsert", "upsertAll", "toInsert", "toInsertAll", "toUpsert", "toUpsertAll"];
  const BULK = ["updateAll", "deleteAll", "toUpdateAll", "toDeleteAll"];

  it("every method of SPEC's Querying, Results and Bulk writes tables is a static, and each narrowing one a Relation method", () => {
    for (const name of [...QUERYING, ...RESULTS, ...BULK]) {
      expect(typeof I[name], name).toBe("function");
      expect(typeof I.where({ id: "a" })[name], name).toBe("function");
    }
    for (const name of INSERTS) expect(typeof I[name], name).toBe("function");
  });

  it("includes of two associations, named twice, with paginate: one batch of the count, the page and a query each", async () => {
    await seed();
    await B.create({ name: "b", ownerId: "o1" });
    const { db, events } = listen();
    const page = await (db.model(Owner) as any).includes("items", "badge").includes("items").order({ id: "asc" }).paginate({ perPage: 1 });
    expect(events.map((event) => event.batched)).toEqual([true, true, true, true]);
    events.length = 0;
    const [owner] = page.records;
    expect(await owner.items().size()).toBe(2);
    expect(await owner.items().hasAny()).toBe(true);
    expect(await owner.items().isEmpty()).toBe(false);
    expect(owner.badge.get().name).toBe("b");
    expect(events).toEqual([]);
  });
});

describe("hasMany: 'user.posts().build(attrs) builds a child that is saved with its owner'", () => {
  it("a child built before the children are loaded is among them once loaded, and counted, as in Rails", async () => {
    await seed();
    const owner = await O.find("o1");
    const child = owner.items().build({ name: "new", code: "N" });
    expect(await owner.items().size()).toBe(3);
    const loaded = await owner.items().toArray();
    expect(loaded).toHaveLength(3);
    expect(loaded).toContain(child);
    expect(await owner.items().size()).toBe(3);
    expect(await owner.save()).toBe(true);
    expect(await I.where({ ownerId: "o1" }).count()).toBe(3);
  });
});
