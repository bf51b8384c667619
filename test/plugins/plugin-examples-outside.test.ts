/**
 * Plugins written as an app would write them, from outside: importing only the public entries (`recordflare` and
 * `recordflare/plugin`), run against real D1. Each is a plugin users ask for: acts-as-list positions, query tagging,
 * a money type with a currency, and touching a parent on a child's write.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  ActiveRecord,
  batch,
  belongsTo,
  between,
  connect,
  defineApplicationRecord,
  gt,
  hasMany,
  type QueryEvent,
  reflectOnAssociation,
  withDatabase,
} from "../../src/index.js";
import {
  attributesOf,
  attributeWas,
  type AttributeTypeDefinition,
  column,
  defineAttributeType,
  definePlugin,
  fragmentOf,
  installWritePlans,
  quoteIdentifier,
  type ResolvedModel,
  sql,
  type WritePlan,
} from "../../src/plugin.js";

const schema = {
  list_items: {
    id: { type: "integer", null: false },
    listId: "integer",
    name: { type: "string", null: false },
    position: "integer",
  },
  tagged_posts: {
    id: { type: "integer", null: false },
    title: { type: "string", null: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  tagged_comments: {
    id: { type: "integer", null: false },
    postId: "integer",
    body: { type: "string", null: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  priced_goods: {
    id: { type: "integer", null: false },
    name: { type: "string", null: false },
    price: "integer",
  },
} as const;

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare(`CREATE TABLE list_items (id INTEGER PRIMARY KEY, list_id INTEGER, name TEXT NOT NULL, position INTEGER)`),
    env.DB.prepare(`CREATE TABLE tagged_posts (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`),
    env.DB.prepare(
      `CREATE TABLE tagged_comments (id INTEGER PRIMARY KEY, post_id INTEGER, body TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
    ),
    env.DB.prepare(`CREATE TABLE priced_goods (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER)`),
  ]);
});

/** A database whose query events are collected, and a function running `fn` on it. */
function listening(options: Parameters<typeof connect>[1] = {}) {
  const events: QueryEvent[] = [];
  const db = connect(env.DB, { ...options, onQuery: (event) => events.push(event) });
  const roundTrips = () => new Set(events.map((event) => event.roundTrip)).size;
  return { events, roundTrips, run: <T,>(fn: () => Promise<T>) => withDatabase(db, fn) };
}

// ---- 1. acts-as-list --------------------------------------------------------------------------------------------

/** The Model's table and a column of it, as SQL text for the plugin's own statements. */
const tableOf = (model: ResolvedModel) => fragmentOf(model.quotedTable, []);
const columnOf = (model: ResolvedModel, name: string) => fragmentOf(quoteIdentifier(model.byName.get(name)!.column), []);

/**
 * `positioned({ scope })`: records keep a 1-based `position` within their list (the rows with the same `scope`
 * value). A new record takes the next position in its INSERT (the database computes it, so two requests never take
 * the same one), a bulk insert numbers its rows in its own batch, and a destroy closes the gap in its batch.
 */
function positioned({ scope }: { scope: string }) {
  const nextPosition = (model: ResolvedModel, list: unknown) =>
    sql`(SELECT COALESCE(MAX(${column("position")}), 0) + 1 FROM ${tableOf(model)} WHERE ${column(scope)} IS ${list})`;

  // The position is read from the row, not the record: another write may have moved it since the record was loaded.
  const closeGap = (plan: WritePlan) => {
    const { model, record } = plan;
    const [table, key, list, position] = [tableOf(model), columnOf(model, model.primaryKey.name), columnOf(model, scope), columnOf(model, "position")];
    const id = record.readAttribute(model.primaryKey.name);
    plan.before(
      () => sql`UPDATE ${table} SET ${position} = ${position} - 1
        WHERE ${key} IN (SELECT later.${key} FROM ${table} AS gone JOIN ${table} AS later
          ON later.${list} IS gone.${list} AND later.${position} > gone.${position} WHERE gone.${key} = ${id})`,
    );
  };

  // The rows a bulk insert left unpositioned, numbered after their list's last position in the order of their keys.
  const numberInserted = (plan: WritePlan) => {
    const { model } = plan;
    const [table, key, list, position] = [tableOf(model), columnOf(model, model.primaryKey.name), columnOf(model, scope), columnOf(model, "position")];
    plan.after(
      (written) => sql`UPDATE ${table} SET ${position} = numbered.position FROM (
          SELECT fresh.${key} AS id, (SELECT COALESCE(MAX(${position}), 0) FROM ${table} AS old WHERE old.${list} IS fresh.${list} AND old.${position} IS NOT NULL)
            + ROW_NUMBER() OVER (PARTITION BY fresh.${list} ORDER BY fresh.${key}) AS position
          FROM ${table} AS fresh WHERE fresh.${key} IN (SELECT "key" FROM (${written.keys})) AND fresh.${position} IS NULL
        ) AS numbered WHERE ${table}.${key} = numbered.id`,
    );
  };

  return definePlugin({
    name: "positioned",
    setup: installWritePlans,
    hooks: {
      "write:plan"(plan) {
        if (plan.operation === "create" && (plan.values.get("position") ?? null) === null) {
          plan.values.set("position", nextPosition(plan.model, plan.record.readAttribute(scope)));
        } else if (plan.operation === "destroy") closeGap(plan);
        else if (plan.operation === "insertAll" && plan.rows.some((row) => (row.get("position") ?? null) === null)) numberInserted(plan);
      },
    },
  });
}

/** Moves a positioned record to `to` in its list, shifting the records between in the same batch. */
async function moveTo(record: ListItem, to: number): Promise<void> {
  const from = record.position!;
  if (to === from) return;
  const between_ = to < from ? between(to, from - 1) : between(from + 1, to);
  const shift = ListItem.where({ listId: record.listId, position: between_ }).toUpdateAll({
    position: to < from ? sql`${column("position")} + 1` : sql`${column("position")} - 1`,
  });
  record.position = to;
  await batch([shift, record.toSave()]);
}

class PositionedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(positioned({ scope: "listId" }));
  }
}

class ListItem extends defineApplicationRecord(schema, PositionedBase)("list_items") {}

const positionsOf = async (listId: number) => (await ListItem.where({ listId }).order({ position: "asc" }).toArray()).map((item) => [item.name, item.position]);

describe("acts-as-list as a plugin", () => {
  it("gives a new record the next position of its list in its INSERT, one statement, no read before", async () => {
    const { events, run } = listening();
    const [a, b, other] = await run(async () => [
      await ListItem.createOrThrow({ listId: 1, name: "a" }),
      await ListItem.createOrThrow({ listId: 1, name: "b" }),
      await ListItem.createOrThrow({ listId: 2, name: "other" }),
    ]);
    expect([a.position, b.position, other.position]).toEqual([1, 2, 1]);
    expect(events).toHaveLength(3);
  });

  it("numbers the new records of one batch in turn: each INSERT sees the rows inserted before it", async () => {
    const [x, y] = [ListItem.build({ listId: 7, name: "x" }), ListItem.build({ listId: 7, name: "y" })];
    const { roundTrips, run } = listening();
    await run(() => batch([x.toSave(), y.toSave()]));
    expect(roundTrips()).toBe(1);
    expect([x.position, y.position]).toEqual([1, 2]);
  });

  it("numbers the rows of insertAll after the list's last position, in the insert's own batch", async () => {
    await ListItem.createOrThrow({ listId: 3, name: "first" });
    const { roundTrips, run } = listening();
    await run(() => ListItem.insertAll([
        { listId: 3, name: "x", position: null },
        { listId: 4, name: "y", position: null },
        { listId: 3, name: "z", position: null },
        { listId: 3, name: "given", position: 9 },
      ]));
    expect(roundTrips()).toBe(1);
    expect(await positionsOf(3)).toEqual([["first", 1], ["given", 9], ["x", 10], ["z", 11]]);
    expect(await positionsOf(4)).toEqual([["y", 1]]);
  });

  it("numbers a bulk insert of many rows, whatever statements it is sent as", async () => {
    const names = Array.from({ length: 600 }, (_, index) => `row ${index}`);
    await ListItem.insertAll(names.map((name) => ({ listId: 8, name, position: null })));
    expect(await positionsOf(8)).toEqual(names.map((name, index) => [name, index + 1]));
  });

  it("closes the gap a destroy leaves, in the destroy's batch", async () => {
    const { roundTrips, run } = listening();
    const items = await run(async () => [await ListItem.createOrThrow({ listId: 5, name: "a" }), await ListItem.createOrThrow({ listId: 5, name: "b" })]);
    await ListItem.createOrThrow({ listId: 5, name: "c" });
    await run(() => items[0]!.destroyOrThrow());
    expect(roundTrips()).toBe(3);
    expect(await positionsOf(5)).toEqual([["b", 1], ["c", 2]]);
    await items[1]!.destroyOrThrow();
    expect(await positionsOf(5)).toEqual([["c", 1]]);
  });

  it("moves a record to another position in one batch", async () => {
    const items: ListItem[] = [];
    for (const name of ["a", "b", "c", "d"]) items.push(await ListItem.createOrThrow({ listId: 6, name }));
    const { roundTrips, run } = listening();
    await run(() => moveTo(items[3]!, 2));
    expect(roundTrips()).toBe(1);
    expect(await positionsOf(6)).toEqual([["a", 1], ["d", 2], ["b", 3], ["c", 4]]);
    await moveTo(items[3]!, 4);
    expect(await positionsOf(6)).toEqual([["a", 1], ["b", 2], ["c", 3], ["d", 4]]);
  });
});

// ---- 2. query tagging ---------------------------------------------------------------------------------------------

/** The route a request is serving, read by the database's `comment` at each round trip. */
const route = new AsyncLocalStorage<string>();
const routeComment = () => {
  const current = route.getStore();
  return current === undefined ? undefined : `app:${current}`;
};

class TaggedBase extends ActiveRecord {
  static override binding = "DB";
}
const TaggedRecord = defineApplicationRecord(schema, TaggedBase);

class TaggedComment extends TaggedRecord("tagged_comments") {
  post = belongsTo(TaggedPost, { foreignKey: "postId" });
}
class TaggedPost extends TaggedRecord("tagged_posts") {
  comments = hasMany(TaggedComment, { foreignKey: "postId", dependent: "destroy" });
}

describe("query tagging with the database's comment", () => {
  it("puts the route's comment on every statement: reads, record writes, bulk writes, dependents, counts, preloads", async () => {
    const { events, run } = listening({ comment: routeComment });
    await route.run("/posts", () =>
      run(async () => {
        const post = await TaggedPost.createOrThrow({ title: "Tagged" });
        await TaggedComment.createOrThrow({ postId: post.id, body: "one" });
        await TaggedComment.insertAll([{ postId: post.id, body: "two" }, { postId: post.id, body: "three" }]);
        await TaggedComment.where({ postId: post.id }).updateAll({ body: "edited" });
        await TaggedPost.includes("comments").toArray();
        await TaggedComment.count();
        await TaggedComment.where({ postId: post.id }).pluck("body");
        await batch([TaggedComment.where({ body: "none" }).toDeleteAll()]);
        await post.destroyOrThrow();
      }),
    );
    expect(events.length).toBeGreaterThan(8);
    expect(events.filter((event) => !event.sql.startsWith("/* app:/posts */ "))).toEqual([]);
  });

  it("sends no comment outside a route, and refuses a comment that would end early", async () => {
    const { events, run } = listening({ comment: routeComment });
    await run(() => TaggedPost.count());
    expect(events[0]!.sql).toMatch(/^SELECT COUNT/);
    const bad = listening({ comment: () => "a */ DROP TABLE x; /*" });
    await expect(bad.run(() => TaggedPost.count())).rejects.toThrow(new TypeError('connect: comment takes a function returning text without */, not "a */ DROP TABLE x; /*"'));
    expect(bad.events).toEqual([]);
    expect(() => connect(env.DB, { comment: "app" as never })).toThrow(TypeError);
  });
});

// ---- 3. a money attribute type ------------------------------------------------------------------------------------

/** An amount in whole cents of one currency; the record holds it, D1 the cents. */
class Euros {
  readonly currency = "EUR";
  constructor(readonly cents: number) {}
  toJSON() {
    return { cents: this.cents, currency: this.currency };
  }
}

const euros: AttributeTypeDefinition<Euros> = {
  cast: (value) => (value instanceof Euros ? value : Number.isSafeInteger(value) ? new Euros(value as number) : undefined),
  toDatabase: (amount) => amount.cents,
  fromDatabase: (stored) => new Euros(Number(stored)),
  comparable: true,
  toJSON: (amount) => amount.toJSON(),
};

const eurosType = definePlugin({
  name: "euros-type",
  setup() {
    defineAttributeType("euros", euros);
  },
});

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    euros: Euros;
  }
  interface AttributeInputMap {
    euros: number;
  }
  interface AttributeJsonMap {
    euros: { cents: number; currency: string };
  }
}

class MoneyBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(eurosType);
  }
}

class Good extends defineApplicationRecord(schema, MoneyBase)("priced_goods", { price: "euros" }) {}

describe("a money type with a currency", () => {
  it("stores cents, and reads, compares, plucks, serializes, tracks changes and writes in bulk through the type", async () => {
    const lamp = await Good.createOrThrow({ name: "lamp", price: new Euros(1999) });
    await Good.insertAll([{ name: "desk", price: new Euros(25000) }, { name: "pen", price: 150 }]);
    expectTypeOf(lamp.price).toEqualTypeOf<Euros | null>();
    expect((await env.DB.prepare("SELECT price FROM priced_goods WHERE name = 'lamp'").first())!["price"]).toBe(1999);

    expect((await Good.findBy({ price: new Euros(1999) }))?.name).toBe("lamp");
    expect(await Good.where({ price: [new Euros(150), new Euros(25000)] }).order({ name: "asc" }).pluck("name")).toEqual(["desk", "pen"]);
    expect(await Good.where({ price: gt(new Euros(1000)) }).order({ name: "asc" }).pluck("price")).toEqual([new Euros(25000), new Euros(1999)]);
    expect(lamp.asJson()).toMatchObject({ price: { cents: 1999, currency: "EUR" } });

    lamp.price = new Euros(1999);
    expect(lamp.isChanged()).toBe(false);
    lamp.price = new Euros(2499);
    expect(lamp.changes()).toEqual({ price: [new Euros(1999), new Euros(2499)] });

    await Good.where({ name: "pen" }).updateAll({ price: new Euros(175) });
    expect((await Good.findBy({ name: "pen" }))?.price).toEqual(new Euros(175));
  });
});

// ---- 4. touching a parent ------------------------------------------------------------------------------------------

/**
 * `touchesParent(name)`: a record's save or destroy sets its `belongsTo` parent's `updatedAt` in the same batch
 * (a save that changes nothing touches nothing); bulk writes touch the parents of the rows they write too.
 */
function touchesParent(name: string) {
  const parentOf = (model: Function) => {
    const { target, foreignKey, primaryKey } = reflectOnAssociation(model, name);
    return { Parent: target as typeof TouchedPost, foreignKey, primaryKey };
  };
  const touch = (model: Function, key: unknown) => {
    const { Parent, primaryKey } = parentOf(model);
    return Parent.where({ [primaryKey]: key }).toUpdateAll({ updatedAt: new Date() });
  };
  return definePlugin({
    name: `touches-${name}`,
    setup: installWritePlans,
    hooks: {
      // A comment moved to another post touches both, as Rails' touch: true does.
      "record:beforeWrite"({ record, operation, batch }) {
        const { foreignKey } = parentOf(record.constructor);
        if (operation === "update" && !record.isChanged()) return;
        const keys = new Set([record.readAttribute(foreignKey), operation === "update" ? attributeWas(record, foreignKey) : null]);
        for (const key of keys) if (key !== null) batch.push(touch(record.constructor, key));
      },
      "record:beforeDelete"({ record, batch }) {
        const key = attributeWas(record, parentOf(record.constructor).foreignKey);
        if (key !== null) batch.push(touch(record.constructor, key));
      },
      // Bulk writes: the parents of the rows written (for updateAll and deleteAll, read before the write).
      "write:plan"(plan) {
        if (plan.record !== undefined) return;
        const { Parent, foreignKey, primaryKey } = parentOf(plan.model.model);
        const parentColumnOf = (attribute: string) => fragmentOf(quoteIdentifier(attributesOf(Parent).find(({ name }) => name === attribute)!.column), []);
        const [parentTable, parentKey, parentUpdatedAt] = [fragmentOf(quoteIdentifier(Parent.tableName), []), parentColumnOf(primaryKey), parentColumnOf("updatedAt")];
        const [table, key, parentColumn] = [tableOf(plan.model), columnOf(plan.model, plan.model.primaryKey.name), columnOf(plan.model, foreignKey)];
        plan.after(
          (written) => sql`UPDATE ${parentTable} SET ${parentUpdatedAt} = ${new Date().toISOString()}
            WHERE ${parentKey} IN (SELECT ${parentColumn} FROM ${table} WHERE ${key} IN (SELECT "key" FROM (${written.keys})))`,
        );
      },
    },
  });
}

class TouchBase extends ActiveRecord {
  static override binding = "DB";
}
const TouchRecord = defineApplicationRecord(schema, TouchBase);

class TouchingComment extends TouchRecord("tagged_comments") {
  static {
    this.use(touchesParent("post"));
  }
  post = belongsTo(TouchedPost, { foreignKey: "postId" });
}
class TouchedPost extends TouchRecord("tagged_posts") {
  comments = hasMany(TouchingComment, { foreignKey: "postId" });
}

const LONG_AGO = new Date("2001-01-01T00:00:00.000Z");
async function oldPost(): Promise<TouchedPost> {
  const post = await TouchedPost.createOrThrow({ title: "Old" });
  await TouchedPost.where({ id: post.id }).updateAll({ updatedAt: LONG_AGO });
  return post;
}
const updatedAtOf = async (post: TouchedPost) => (await TouchedPost.find(post.id)).updatedAt!.getTime();

describe("touching a parent as a plugin", () => {
  it("touches the post when a comment is created, saved or destroyed, in the write's batch", async () => {
    const post = await oldPost();
    const { roundTrips, run } = listening();
    const comment = await run(() => TouchingComment.createOrThrow({ postId: post.id, body: "hi" }));
    expect(roundTrips()).toBe(1);
    expect(await updatedAtOf(post)).toBeGreaterThan(LONG_AGO.getTime());

    await TouchedPost.where({ id: post.id }).updateAll({ updatedAt: LONG_AGO });
    await comment.save();
    expect(await updatedAtOf(post)).toBe(LONG_AGO.getTime());
    await run(() => comment.update({ body: "edited" }));
    expect(await updatedAtOf(post)).toBeGreaterThan(LONG_AGO.getTime());

    const other = await oldPost();
    await TouchedPost.where({ id: post.id }).updateAll({ updatedAt: LONG_AGO });
    await comment.update({ postId: other.id });
    expect([await updatedAtOf(post), await updatedAtOf(other)].map((time) => time > LONG_AGO.getTime())).toEqual([true, true]);

    await TouchedPost.where({ id: other.id }).updateAll({ updatedAt: LONG_AGO });
    const before = roundTrips();
    await run(() => comment.destroyOrThrow());
    expect(roundTrips()).toBe(before + 1);
    expect(await updatedAtOf(other)).toBeGreaterThan(LONG_AGO.getTime());
  });

  it("touches the posts of the rows a bulk write writes, in its batch", async () => {
    const [post, other] = [await oldPost(), await oldPost()];
    await TouchingComment.insertAll([{ postId: post.id, body: "bulk" }]);
    expect(await updatedAtOf(post)).toBeGreaterThan(LONG_AGO.getTime());
    expect(await updatedAtOf(other)).toBe(LONG_AGO.getTime());

    await TouchedPost.where({ id: post.id }).updateAll({ updatedAt: LONG_AGO });
    await TouchingComment.where({ postId: post.id }).deleteAll();
    expect(await updatedAtOf(post)).toBeGreaterThan(LONG_AGO.getTime());
  });

  it("names the Model for an association it does not declare", () => {
    expect(() => reflectOnAssociation(TouchingComment, "author")).toThrow(new TypeError('TouchingComment.reflectOnAssociation: "author" is no association of TouchingComment'));
    expect(reflectOnAssociation(TouchedPost, "comments")).toEqual({ name: "comments", kind: "hasMany", target: TouchingComment, foreignKey: "postId", primaryKey: "id", through: undefined });
  });
});
