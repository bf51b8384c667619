/**
 * Probes of SPEC.md's Relation, Statement, Page, Connection, Querying, Results, paginate rules, Scopes, Bulk writes,
 * Events 1, Limits and Errors, one sentence at a time, for what the other test files leave out.
 * Tables: test/fixtures/migrations/0017_spec_audit_querying.sql.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  batch,
  between,
  gt,
  IncompatibleRelation,
  IrreversibleOrder,
  Model,
  RecordNotFound,
  RecordNotUnique,
  type ScopeStatic,
  sql,
  withDatabase,
} from "../src/index.js";
import { resetDatabase } from "./helpers/db.js";
import { rejectionOf } from "./helpers/errors.js";
import { Item, Num, Owner } from "./models/saq-fixtures.js";
import { listen } from "./helpers/queries.js";

beforeEach(resetDatabase);

/** A Model whose primary key is filtered (its name holds "token"). */
class Secret extends Model({ token: { type: "string", null: false }, name: "string", ownerId: "string" }) {
  static override binding = "DB";
  static override tableName = "saq_secrets";
  static override primaryKey = "token";
}

/** Scopes whose bodies name their own class (SPEC Scopes 6). */
class Counted extends Model({ id: { type: "string", null: false }, rank: "integer" }) {
  static override binding = "DB";
  static override tableName = "saq_items";
  static positive: ScopeStatic<[]> = this.scope(() => Counted.where({ rank: gt(0) }));
}

const I = Item as any;
const O = Owner as any;

async function seed(): Promise<void> {
  await O.insertAll([{ id: "o1", name: "one" }, { id: "o2", name: "two" }]);
  await I.insertAll([
    { id: "a", ownerId: "o1", name: "x", rank: 1, code: "A" },
    { id: "b", ownerId: "o1", name: "x", rank: 2, code: "B" },
    { id: "c", ownerId: "o2", name: "y", rank: 3, code: "C" },
    { id: "d", ownerId: null, name: null, rank: null, code: "D" },
  ]);
}

describe("Results: exists, isEmpty and hasAny agree with toArray()", () => {
  it("on a distinct Relation with an offset", async () => {
    await seed();
    const names = I.distinct().select("name").order({ name: "asc" }).offset(1);
    expect((await names.toArray()).map((r: any) => r.name)).toEqual(["x", "y"]);
    expect(await names.exists()).toBe(true);
    expect(await names.hasAny()).toBe(true);
    expect(await names.isEmpty()).toBe(false);
    const whole = I.distinct().offset(3);
    expect(await whole.toArray()).toHaveLength(1);
    expect(await whole.exists()).toBe(true);
    expect(await I.distinct().select("name").offset(3).exists()).toBe(false);
  });
});

describe("Scopes 7: a scope preloaded with limit throws", () => {
  it("whatever the data: with no owner loaded too", async () => {
    expect(await rejectionOf(O.includes("topItems").toArray())).toBeInstanceOf(IncompatibleRelation);
    await seed();
    expect(await rejectionOf(O.includes("topItems").toArray())).toBeInstanceOf(IncompatibleRelation);
  });
});

describe("Results: find", () => {
  it("find(id) on a bound Model is one query on its database", async () => {
    await seed();
    const { events, Item: Bound } = listen({ models: { Item } });
    const found = await (Bound as any).find("a");
    expect(found.name).toBe("x");
    expect(events).toHaveLength(1);
    // The record keeps the bound database for its save.
    found.name = "z";
    await found.save();
    expect(events).toHaveLength(2);
  });

  it("find([...1000 ids]) is one query with one bound value, in the ids' order", async () => {
    await (Num as any).insertAll(Array.from({ length: 1000 }, (_, index) => ({ id: index + 1, name: `n${index + 1}` })));
    const { events, Num: Bound } = listen({ models: { Num } });
    const ids = Array.from({ length: 1000 }, (_, index) => 1000 - index);
    const found = await (Bound as any).find(ids);
    expect(found.map((r: any) => r.id)).toEqual(ids);
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    const missing = await rejectionOf((Bound as any).find([...ids, 1001]));
    expect(missing).toBeInstanceOf(RecordNotFound);
  });

  it("find with a filtered primary key hides it in RecordNotFound, on a narrowed Relation too", async () => {
    const error = await rejectionOf((Secret as any).where({ name: "n" }).find("hush-1"));
    expect(error).toBeInstanceOf(RecordNotFound);
    expect(error.message).not.toContain("hush-1");
    const list = await rejectionOf((Secret as any).where({ name: "n" }).find(["hush-2", "hush-3"]));
    expect(list.message).not.toContain("hush");
  });
});

describe("Limits: lists of any length bound as one value", () => {
  it("includes over 1000 owners is one query per association, in the main query's batch, binding no key", async () => {
    const owners = Array.from({ length: 1000 }, (_, index) => ({ id: `o${index}`, name: `owner ${index}` }));
    await O.insertAll(owners);
    await I.insertAll(owners.map((owner, index) => ({ id: `i${index}`, ownerId: owner.id, rank: index })));
    const { events, Item: Bound } = listen({ models: { Item } });
    const items = await (Bound as any).includes("owner").toArray();
    expect(items).toHaveLength(1000);
    expect(events).toHaveLength(2);
    expect(events[1]!.params).toHaveLength(0);
    expect(items[999].owner.get().name).toBe("owner 999");
  });

  it("or of two long lists, whereNot, exists, updateAll and deleteAll on a long list each fit", async () => {
    await seed();
    const { events, Item: Bound } = listen({ models: { Item } });
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

describe("Querying: combinations", () => {
  it("a scope chained after where keeps both, and paginate with includes pages it", async () => {
    await seed();
    const { events, Item: Bound } = listen({ models: { Item } });
    const page = await (Bound as any).where({ ownerId: "o1" }).ranked().includes("owner").paginate({ perPage: 1 });
    expect(page.records.map((r: any) => r.id)).toEqual(["b"]);
    expect(page.total).toBe(2);
    expect(page.records[0].owner.get().name).toBe("one");
    expect(events).toHaveLength(3);
  });

  it("count after distinct + select + limit agrees with toArray()", async () => {
    await seed();
    const relation = I.distinct().select("name").limit(2);
    expect(await relation.count()).toBe((await relation.toArray()).length);
    const offset = I.distinct().select("ownerId").offset(1);
    expect(await offset.count()).toBe((await offset.toArray()).length);
  });
});

describe("Events 1: no filtered value reaches a query event, whatever sends it", () => {
  it("conditions, lists, comparisons, negations, or, calculations, paging, bulk writes and record writes", async () => {
    const SECRET = "S3CR3T";
    const { events, db, Item: B, Secret: S } = listen({ models: { Item, Secret } }) as any;
    await B.insert({ id: "t1", apiToken: `${SECRET}-1`, name: "x", rank: 1 });
    await B.insertAll([{ id: "t2", apiToken: `${SECRET}-2` }, { id: "t3", apiToken: null }]);
    await B.upsert({ id: "t1", apiToken: `${SECRET}-4` });
    await B.upsertAll([{ id: "t2", apiToken: `${SECRET}-5` }], { uniqueBy: ["id"] });
    await db.batch([B.toInsertAll([{ id: "t5", apiToken: `${SECRET}-6` }]), B.toUpsert({ id: "t6", apiToken: `${SECRET}-7` })]);
    const token = `${SECRET}-4`;
    await B.where({ apiToken: token }).toArray();
    await B.whereNot({ apiToken: token, name: "x" }).toArray();
    await B.where({ apiToken: [token, `${SECRET}-9`, null] }).count();
    await B.where({ apiToken: between(`${SECRET}-0`, `${SECRET}-9`) }).limit(2).count();
    await B.where({ apiToken: token }).or(B.where({ apiToken: gt(SECRET) })).distinct().count();
    await B.exists({ apiToken: token });
    await B.where({ apiToken: token }).pluck("id");
    await B.where({ apiToken: token }).paginate({ perPage: 1 });
    await B.where({ apiToken: token }).paginate({ perPage: 1, count: false });
    await B.findBy({ apiToken: token });
    await B.where({ apiToken: token }).last();
    await B.where({ apiToken: gt(SECRET) }).order({ rank: "asc" }).limit(1).updateAll({ apiToken: `${SECRET}-10` });
    await B.where({ apiToken: `${SECRET}-10` }).order({ rank: "asc" }).limit(1).deleteAll();
    const record = await B.create({ id: "t7", apiToken: `${SECRET}-11` });
    record.apiToken = `${SECRET}-12`;
    await record.save();
    await record.destroy();
    const secret = await S.create({ token: `${SECRET}-13`, name: "n" });
    await S.find(`${SECRET}-13`);
    await S.find([`${SECRET}-13`]);
    await secret.reload();
    secret.name = "m";
    await secret.save();
    await secret.destroy();
    expect(events.length).toBeGreaterThan(25);
    const leaked = events.filter((event: { params: unknown[] }) => JSON.stringify(event.params).includes(SECRET));
    expect(leaked.map((event: { sql: string }) => event.sql)).toEqual([]);
  });

  it("toSql() of a Relation and of a Statement shows the values unfiltered", () => {
    expect(I.where({ apiToken: "tok" }).toSql().params).toEqual(["tok"]);
    expect(JSON.stringify(I.toInsert({ id: "x", apiToken: "tok" }).toSql().params)).toContain("tok");
    expect(I.where({ apiToken: "tok" }).toUpdateAll({ apiToken: "new" }).toSql().params).toEqual(["new", "tok"]);
  });
});

describe("Bulk writes", () => {
  it("insert and insertAll fill declared defaults and generated keys, and skip callbacks; insert resolves to meta", async () => {
    const meta = await I.insert({ name: "q" });
    expect(meta).toMatchObject({ changes: 1 });
    await I.insertAll([{ name: "r" }, { name: "s" }]);
    const rows = await I.order({ name: "asc" }).toArray();
    expect(rows.map((r: any) => r.kind)).toEqual(["model", "model", "model"]);
    expect(rows.every((r: any) => typeof r.id === "string" && r.id.length > 10)).toBe(true);
  });

  it("insert and insertAll raise RecordNotUnique for a duplicate, and skip it with onDuplicate: skip", async () => {
    await seed();
    expect(await rejectionOf(I.insert({ id: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await rejectionOf(I.insertAll([{ id: "z1", code: "z" }, { id: "z2", code: "A" }]))).toBeInstanceOf(RecordNotUnique);
    expect(await I.count()).toBe(4);
    expect((await I.insert({ id: "a" }, { onDuplicate: "skip" })).changes).toBe(0);
    expect((await I.insertAll([{ id: "z1", code: "z" }, { id: "z2", code: "A" }], { onDuplicate: "skip" })).changes).toBe(1);
  });

  it("updateAll with undefined rejects with TypeError, sending nothing", async () => {
    const { events, Item: B } = listen({ models: { Item } }) as any;
    expect(await rejectionOf(B.updateAll({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(await rejectionOf(B.insert({ name: undefined }))).toBeInstanceOf(TypeError);
    expect(events).toHaveLength(0);
  });
});

describe("Results: find with no id; calculations on association Relations", () => {
  it("find() with no id throws RecordNotFound without a query, as in Rails; find([]) is empty", async () => {
    await seed();
    const { events, Item: B } = listen({ models: { Item } }) as any;
    expect(await rejectionOf(B.find())).toBeInstanceOf(RecordNotFound);
    expect(await rejectionOf(B.where({ name: "x" }).find())).toBeInstanceOf(RecordNotFound);
    expect(events).toHaveLength(0);
    expect(await B.find([])).toEqual([]);
  });

  it("paginate and size/isEmpty/hasAny on an association Relation", async () => {
    await seed();
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

describe("Connection", () => {
  it("withDatabase routes queries, a bound Model keeps its own database inside it, and batch([]) of Statements runs there", async () => {
    await seed();
    const one = listen();
    const two = listen({ models: { Item } }) as any;
    await withDatabase(one.db, async () => {
      await I.find("a");
      await two.Item.find("b");
      await batch([I.where({ id: "d" }).toDeleteAll()]);
    });
    expect(one.events).toHaveLength(2);
    expect(two.events).toHaveLength(1);
  });
});

describe("Querying: last and IrreversibleOrder", () => {
  it("last() throws for an sql order chained after a scope, and on a paginating-like window", async () => {
    await seed();
    expect(await rejectionOf(I.ranked().order(sql`rank`).last())).toBeInstanceOf(IrreversibleOrder);
    expect(await rejectionOf(I.order(sql`rank`).limit(2).last())).toBeInstanceOf(IrreversibleOrder);
    expect((await I.ranked().last()).id).toBe("a");
  });
});

describe("Bulk writes skip validations and callbacks declared with the public API", () => {
  it("insert, insertAll, upsert, upsertAll, updateAll and deleteAll (and their Statements in batch)", async () => {
    let ran = 0;
    class Guarded extends Item {
      static {
        this.validates("name", { presence: true, length: { minimum: 5 } });
        this.beforeSave(() => {
          ran++;
          throw new Error("beforeSave must not run");
        });
        this.beforeDestroy(() => {
          ran++;
          throw new Error("beforeDestroy must not run");
        });
      }
    }
    const G = Guarded as any;
    await G.insert({ id: "g1", name: "" });
    await G.insertAll([{ id: "g2", name: null }]);
    await G.upsert({ id: "g1", name: "x" });
    await G.upsertAll([{ id: "g3", name: "y" }]);
    expect(await G.where({ id: ["g1", "g2"] }).updateAll({ name: "" })).toBe(2);
    await batch([G.toInsert({ id: "g4" }), G.where({ id: "g4" }).toUpdateAll({ name: "" })]);
    expect(await G.count()).toBe(4);
    expect(await G.deleteAll()).toBe(4);
    expect(ran).toBe(0);
  });
});

describe("Scopes 1 and Connection: a scope of a bound Model queries its database", () => {
  it("also when the body names its own class (ScopeStatic)", async () => {
    await seed();
    const { events, Counted: B } = listen({ models: { Counted } }) as any;
    expect((await B.positive().toArray()).map((r: any) => r.id).sort()).toEqual(["a", "b", "c"]);
    expect(await B.positive().count()).toBe(3);
    expect(events).toHaveLength(2);
  });
});

describe("Connection: db.model(M) is the Model bound to db", () => {
  it("records found or built through it are instances of it, as of M", async () => {
    await seed();
    const { Item: B } = listen({ models: { Item } }) as any;
    const found = await B.find("a");
    expect(found instanceof B).toBe(true);
    expect(found instanceof Item).toBe(true);
    expect(B.build() instanceof B).toBe(true);
    expect({} instanceof B).toBe(false);
    expect((await O.find("o1")) instanceof B).toBe(false);
  });
});
