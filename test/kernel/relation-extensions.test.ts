import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, belongsTo, column, defineApplicationRecord, hasMany, sql } from "../../src/index.js";
import { computedValueOf, definePlugin, type QueryPurpose, type Relation, reservedName } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { schema } from "../models/fixtures.js";

// A plugin keeps its own entries in a Relation's description (`extensions`): they survive every way a Relation is
// narrowed or combined. The compile hooks are told what each SELECT is for (`purpose`).

const purposes: QueryPurpose[] = [];

/**
 * `labelled(text)` narrows to one label through its own entry, read back by its `relation:where` hook; every compile
 * records its purpose.
 */
const labelling = definePlugin({
  name: "labelling",
  relationMethods: {
    labelled(this: Relation, label: string) {
      return this.withExtension("label", label);
    },
  },
  hooks: {
    "relation:where"({ data, parts, model, purpose }) {
      purposes.push(purpose);
      const label = data.extensions["label"];
      if (label !== undefined && model.byName.has("label")) parts.where.push(`"label" = ${parts.params.bind(label)}`);
    },
  },
});

class LabellingBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(labelling);
  }
}

const ApplicationRecord = defineApplicationRecord(schema, LabellingBase);

class Counter extends ApplicationRecord("counters") {
  static big = this.scope((q) => q.where(sql`${column("value")} > 5`));
}

class Writer extends ApplicationRecord("users") {
  posts = hasMany(Article, { foreignKey: "userId", dependent: "destroy" });
}

class Article extends ApplicationRecord("posts") {
  user = belongsTo(Writer, { foreignKey: "userId" });
}

/** The plugin's view of a Relation or Model, whose method the typed face does not list. */
const labelled = (relation: unknown, label: string): Relation => (relation as { labelled(label: string): Relation }).labelled(label);
const labels = async (relation: Relation) => ((await relation.toArray()) as Counter[]).map((counter) => counter.label).sort();

beforeEach(async () => {
  await resetDatabase();
  await Counter.insertAll([
    { label: "a", value: 1 },
    { label: "a", value: 9 },
    { label: "b", value: 9 },
  ]);
  purposes.length = 0;
});

describe("a plugin's own entry of a Relation's description", () => {
  it("is read back and set through extension() and withExtension(), without changing the Relation it came from", () => {
    const all = Counter.all() as unknown as Relation;
    const narrowed = labelled(all, "a");
    expect(narrowed.extension("label")).toBe("a");
    expect(all.extension("label")).toBeUndefined();
    expect(narrowed.description.extensions).toEqual({ label: "a" });
  });

  it("survives where, order, limit, a scope and with()", async () => {
    const narrowed = labelled(Counter.all(), "a");
    expect(await labels(narrowed)).toEqual(["a", "a"]);
    const chained = (narrowed as unknown as typeof Counter).where({ value: 9 }).order({ id: "desc" }).limit(5) as unknown as Relation;
    expect(chained.extension("label")).toBe("a");
    expect(await labels(chained)).toEqual(["a"]);
    const scoped = (narrowed as unknown as typeof Counter).big() as unknown as Relation;
    expect(scoped.extension("label")).toBe("a");
    expect(await labels(scoped)).toEqual(["a"]);
    expect(narrowed.with({ limit: 1 }).extension("label")).toBe("a");
  });

  it("is taken from the other Relation by merge; or requires the same entries on both sides", async () => {
    const plain = Counter.where({ value: 9 }) as unknown as Relation & typeof Counter;
    const merged = plain.merge(labelled(Counter.all(), "b") as never) as unknown as Relation;
    expect(merged.extension("label")).toBe("b");
    expect(await labels(merged)).toEqual(["b"]);
    const overridden = (labelled(Counter.all(), "a") as unknown as typeof Counter).merge(labelled(Counter.all(), "b") as never) as unknown as Relation;
    expect(overridden.extension("label")).toBe("b");
    const either = (labelled(Counter.where({ value: 1 }), "a") as unknown as typeof Counter).or(labelled(Counter.where({ value: 9 }), "a") as never) as unknown as Relation;
    expect(either.extension("label")).toBe("a");
    expect(await labels(either)).toEqual(["a", "a"]);
    const other = labelled(Counter.where({ value: 9 }), "b") as never;
    expect(() => (labelled(Counter.where({ value: 1 }), "a") as unknown as typeof Counter).or(other)).toThrow(/differ in extensions/);
    expect(() => (Counter.where({ value: 1 }) as unknown as typeof Counter).or(other)).toThrow(/differ in extensions/);
  });

  it("named by a Symbol, is carried as the others are, but or does not compare it and keeps the receiver's", async () => {
    const ORIGIN = Symbol("origin");
    const origin = {};
    const marked = (Counter.where({ value: 1 }) as unknown as Relation).withExtension(ORIGIN, origin);
    const narrowed = (marked as unknown as typeof Counter).where({ label: "a" }).limit(5) as unknown as Relation;
    expect(narrowed.extension(ORIGIN)).toBe(origin);
    const either = (marked as unknown as typeof Counter).or(Counter.where({ value: 9 }) as never) as unknown as Relation;
    expect(either.extension(ORIGIN)).toBe(origin);
    expect(await labels(either)).toEqual(["a", "a", "b"]);
    const plain = (Counter.where({ value: 9 }) as unknown as typeof Counter).or(marked as never) as unknown as Relation;
    expect(plain.extension(ORIGIN)).toBeUndefined();
    expect(((Counter.all() as unknown as typeof Counter).merge(marked as never) as unknown as Relation).extension(ORIGIN)).toBe(origin);
    expect(() => marked.withExtension(1 as never, true)).toThrow("Counter: Relation.withExtension takes a string or Symbol name, not 1");
  });

  it("narrows counts, existence checks, plucks and set-based writes as it narrows loads", async () => {
    const narrowed = labelled(Counter.all(), "b") as unknown as typeof Counter;
    expect(await narrowed.count()).toBe(1);
    expect(await narrowed.exists()).toBe(true);
    expect(await narrowed.pluck("label")).toEqual(["b"]);
    expect(await narrowed.updateAll({ value: 3 })).toBe(1);
    expect(await Counter.where({ value: 3 }).count()).toBe(1);
    expect(await narrowed.deleteAll()).toBe(1);
    expect(await Counter.count()).toBe(2);
  });
});

describe("the purpose a compile hook is told", () => {
  it("names each kind of SELECT: load, count, exists, pluck, updateAll, deleteAll", async () => {
    await Counter.all().toArray();
    await Counter.first();
    await Counter.count();
    await Counter.exists();
    await Counter.pluck("id");
    await Counter.where({ label: "b" }).updateAll({ value: 3 });
    await Counter.where({ label: "b" }).deleteAll();
    expect(purposes).toEqual(["load", "load", "count", "exists", "pluck", "updateAll", "deleteAll"]);
  });

  it("tells find(id) from reload()", async () => {
    const counter = (await Counter.first())!;
    purposes.length = 0;
    await Counter.find(counter.id);
    await counter.reload();
    expect(purposes).toEqual(["load", "reload"]);
  });

  it("names the rows of an includes and of a destroy's dependents preload", async () => {
    const { db, events } = listen();
    const writer = await Writer.create({ id: "w1", name: "Ada" });
    await Article.create({ id: "p1", userId: writer.id, title: "On engines" });
    purposes.length = 0;
    events.length = 0;
    const [loaded] = await db.model(Writer).includes("posts").toArray();
    // The main SELECT is compiled twice: sent, and read as the preload's subquery source.
    expect(purposes.sort()).toEqual(["load", "load", "preload"]);
    expect((await loaded!.posts().toArray()).map((post) => post.id)).toEqual(["p1"]);
    expect(events).toHaveLength(2);
    purposes.length = 0;
    await writer.destroy();
    expect(purposes).toContain("preload");
    expect(purposes).not.toContain("load");
  });
});

describe("guide: Relation hooks: computed columns", () => {
  const doubled = { name: reservedName("doubled"), fragment: sql`${column("value")} * ${2}` };
  const base = () => Counter.where({ label: "a" }) as unknown as Relation;

  it("are selected after the Model's own columns, under their name, and read back with computedValueOf", async () => {
    const { events, db } = listen();
    const relation = (db.model(Counter).where({ label: "a" }) as unknown as Relation).with({ columns: [doubled] }).order(sql`1`);
    const counters = (await relation.toArray()) as Counter[];
    expect(events[0]!.sql).toBe(`SELECT "counters".*, ("value" * ?1) AS "recordflare_doubled" FROM "counters" WHERE "label" = ?2 ORDER BY 1`);
    expect(counters.map((counter) => [counter.value, computedValueOf(counter, doubled.name)])).toEqual([
      [1, 2],
      [9, 18],
    ]);
    expect(computedValueOf((await Counter.where({ label: "a" }).first())!, doubled.name)).toBeUndefined();
  });

  it("are refused unless named with a reserved name and given as an sql fragment", () => {
    expect(() => base().with({ columns: [{ name: "doubled", fragment: doubled.fragment }] })).toThrow(/^Counter: Relation\.with: columns takes a list of \{ name, fragment \} with reserved names/);
    expect(() => base().with({ columns: [{ name: doubled.name, fragment: "1" as never }] })).toThrow(TypeError);
  });

  it("count(), exists() and pluck() never compute them; merge takes the other's, or requires the same", async () => {
    const { events, db } = listen();
    const relation = (db.model(Counter).where({ label: "a" }) as unknown as Relation).with({ columns: [doubled] });
    expect(await (relation.with({ limit: 1 }) as unknown as { count(): Promise<number> }).count()).toBe(1);
    expect(await (relation as unknown as { exists(): Promise<boolean> }).exists()).toBe(true);
    expect(await (relation as unknown as { pluck(name: string): Promise<unknown[]> }).pluck("value")).toEqual([1, 9]);
    expect(events.filter((event) => event.sql.includes("recordflare_doubled"))).toEqual([]);
    const merged = (base() as unknown as { merge(other: Relation): Relation }).merge(relation);
    expect(merged.description.columns.map((each) => each.name)).toEqual([doubled.name]);
    expect(() => (base() as unknown as { or(other: Relation): Relation }).or(relation)).toThrow(/columns/);
  });
});
