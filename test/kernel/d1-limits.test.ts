import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { between, column, connect, gte, lte, sql, type SqlFragment } from "../../src/index.js";
import { defineStatement, relationOf } from "../../src/plugin.js";
import { D1_LIMITS } from "../helpers/d1-limits.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord, schema, User } from "../models/fixtures.js";

// Every statement here runs through the suite's binding, which refuses what production D1 refuses (over 100 bound
// parameters, 100 KB of SQL, a value over 1,000,000 bytes); the tests check the results and count what each sent.

class WideRow extends ApplicationRecord("wide_rows") {}
class Scoped extends ApplicationRecord("users") {
  static override tableName = "users";
  static agedAtLeastAll = this.scope((q, ages: number[]) => ages.reduce((relation, age) => relation.where({ age: gte(age) }), q));
}

const NAMES = Array.from({ length: 600 }, (_, index) => `limits-${index}`);

beforeAll(async () => {
  await User.insertAll(NAMES.map((name, index) => ({ name, age: index, score: index / 4, email: `${name}@example.com` })));
});

/** The events of what `run` sends, each checked to bind at most D1's 100 parameters. */
async function sentWithinLimits<T>(run: (db: ReturnType<typeof listen>["db"]) => Promise<T>): Promise<{ result: T; params: number[]; sqls: string[] }> {
  const { db, events, sqls } = listen();
  const result = await run(db);
  const params = events.map((event) => event.params.length);
  for (const count of params) expect(count).toBeLessThanOrEqual(D1_LIMITS.boundParameters);
  return { result, params, sqls: sqls() };
}

const ours = () => User.where({ name: NAMES });

describe("bound parameters: never more than 100 per statement", () => {
  it("100 chained or()s", async () => {
    let relation = User.where({ name: NAMES[0] });
    for (const name of NAMES.slice(1, 100)) relation = relation.or(User.where({ name }));
    const { result, params } = await sentWithinLimits((db) => db.model(User).merge(relation).pluck("name"));
    expect(result.sort()).toEqual(NAMES.slice(0, 100).sort());
    expect(params).toEqual([91]);
  });

  it("a where with 99 betweens", async () => {
    let relation = ours();
    for (let index = 0; index < 99; index++) relation = relation.where({ age: between(index, 599 - index) });
    const { result } = await sentWithinLimits((db) => db.model(User).merge(relation).pluck("age"));
    expect(result.sort((a, b) => a! - b!)).toEqual(Array.from({ length: 404 }, (_, index) => index + 98));
  });

  it("a where plus a whereNot with 198 bound values", async () => {
    const relation = ours()
      .where(Object.fromEntries([["age", gte(0)]]))
      .whereNot({ age: between(0, 9) });
    let wide = relation;
    for (let index = 0; index < 98; index++) wide = wide.where({ score: lte(1000 + index) }).whereNot({ score: between(-2 - index, -1) });
    const { result } = await sentWithinLimits((db) => db.model(User).merge(wide).count());
    expect(result).toBe(590);
    expect(wide.toSql().params.length).toBeLessThanOrEqual(100);
  });

  it("scopes and sql fragments with many values", async () => {
    const ages = Array.from({ length: 150 }, (_, index) => index);
    const values = NAMES.slice(0, 150);
    const fragment = values.slice(1).reduce<SqlFragment>((list, name) => sql`${list}, ${name}`, sql`${values[0]}`);
    const relation = Scoped.agedAtLeastAll(ages).where(sql`${column("name")} IN (${fragment})`);
    const { result } = await sentWithinLimits((db) => db.model(Scoped).merge(relation).count());
    expect(result).toBe(1);
  });

  it("keeps each value's type when it is bound past the plain parameters", async () => {
    const values = [1, 1.5, 9007199254740994, -0, "text", null, true, new Uint8Array([1, 2])];
    const padding = Array.from({ length: 95 }, (_, index) => index).reduce<SqlFragment>((list, value) => sql`${list}, ${value}`, sql`-1`);
    const columns = values.reduce<SqlFragment>((list, value) => sql`${list}, typeof(${value}), quote(${value})`, sql`0 IN (${padding})`);
    const statement = User.where(sql`(${columns}) IS NOT NULL`).toSql();
    expect(statement.params.length).toBeLessThanOrEqual(100);
    const selected = statement.sql.replace(/^SELECT \* FROM "users" WHERE \(\((.*)\) IS NOT NULL\)$/, "SELECT $1");
    const row = (await env.DB.prepare(selected).bind(...statement.params).raw())[0]!.slice(1);
    expect(row).toEqual(["real", "1.0", "real", "1.5", "real", "9007199254740994.0", "real", "0.0", "text", "'text'", "null", "NULL", "real", "1.0", "blob", "X'0102'"]);
  });

  it("an UPDATE of all 100 columns of a 100-column table with its key (101 values)", async () => {
    const names = Object.keys(schema.wide_rows).filter((name) => name !== "id");
    const values = (seed: number) => Object.fromEntries(names.map((name, index) => [name, wideValue(index, seed)]));
    const row = await WideRow.createOrThrow(values(1));
    const { params } = await sentWithinLimits(async (db) => {
      const bound = await db.model(WideRow).find(row.id);
      bound.assign({ ...values(2), id: `${row.id}-renamed` });
      return bound.saveOrThrow();
    });
    expect(params).toEqual([1, 91]);
    const reloaded = (await WideRow.find(`${row.id}-renamed`)) as unknown as Record<string, unknown>;
    expect(Object.fromEntries(names.map((name) => [name, reloaded[name]]))).toEqual(values(2));
  });
});

function wideValue(index: number, seed: number): unknown {
  switch (index % 6) {
    case 0:
      return `text ${index} ${seed}`;
    case 1:
      return index * 1000 + seed;
    case 2:
      return index === 2 ? 2 ** 53 + 2 * seed : index + seed / 8;
    case 3:
      return seed % 2 === 0;
    case 4:
      return new Date(Date.UTC(2024, 0, index, seed));
    default:
      return { index, seed, nested: [seed] };
  }
}

describe("SQL text: never more than D1's 100 KB", () => {
  it("a statement over it is refused with TypeError naming the Model before it is sent; one just within it runs", async () => {
    const { db, events } = listen();
    // "é" takes two bytes in UTF-8: the text is counted in bytes, as D1 counts it.
    const padded = (characters: number) => defineStatement({ sql: `SELECT 1 AS "one" WHERE '${"é".repeat(characters)}' IS NULL`, model: relationOf(User).model });
    await expect(db.batch([padded(50_000)])).rejects.toThrow(/^User: a statement of 100\d{3} bytes of SQL is over D1's limit of 100000 bytes; it was not sent$/);
    expect(events).toHaveLength(0);
    expect(await db.batch([padded(49_900)])).toEqual([[]]);
    expect(events).toHaveLength(1);
  });

  it("counts the comment connect's comment option puts before each statement: one that tips it over is refused", async () => {
    const sent: string[] = [];
    const db = connect(env.DB, { comment: () => "x".repeat(200), onQuery: (event) => void sent.push(event.sql) });
    const padded = defineStatement({ sql: `SELECT 1 AS "one" WHERE '${"é".repeat(49_900)}' IS NULL`, model: relationOf(User).model });
    await expect(db.batch([padded])).rejects.toThrow(/^User: a statement of 100\d{3} bytes of SQL is over D1's limit of 100000 bytes; it was not sent$/);
    expect(sent).toHaveLength(0);
  });
});

describe("sql fragments folded from thousands of others", () => {
  it("compile without recursion: one of 3,000 runs, one of 20,000 is refused by its SQL length, not the JavaScript stack", async () => {
    const list = (count: number) => Array.from({ length: count - 1 }).reduce<SqlFragment>((fragment) => sql`${fragment}, ${column("name")}`, sql`${column("name")}`);
    const folded = (count: number) => sql`${column("name")} IN (${list(count)})`;
    expect(await User.where({ name: NAMES.slice(0, 3) }).where(folded(3000)).count()).toBe(3);
    const { db, events } = listen();
    await expect(db.model(User).where(folded(20_000)).count()).rejects.toThrow(/^User: a statement of \d+ bytes of SQL is over D1's limit of 100000 bytes; it was not sent$/);
    expect(events).toHaveLength(0);
  });
});

describe("expression depth: never deeper than D1's 100", () => {
  it("300 chained or()s that bind no value", async () => {
    let relation = User.where({ bornAt: null, name: NAMES[0] });
    for (const name of NAMES.slice(1, 300)) relation = relation.or(User.where({ bornAt: null, name }));
    expect(await relation.count()).toBe(300);
    expect(await relation.where({ age: -1 }).deleteAll()).toBe(0);
  });

  it("1,000 conditions", async () => {
    let relation = ours();
    for (let index = 0; index < 1000; index++) relation = relation.where({ age: gte(index % 10) });
    const { result } = await sentWithinLimits((db) => db.model(User).merge(relation).count());
    expect(result).toBe(591);
  });

  it("500 or-branches of several conditions each, through a SELECT and a DELETE", async () => {
    let relation = User.where({ name: NAMES[0], age: 0 });
    for (const [index, name] of NAMES.slice(1, 500).entries()) relation = relation.or(User.where({ name, age: index + 1 }));
    const { result } = await sentWithinLimits((db) => db.model(User).merge(relation).count());
    expect(result).toBe(500);
    expect(await relation.where({ age: -1 }).deleteAll()).toBe(0);
  });

  it("a whereNot of 200 conditions, and 150 chained or()s of whereNots", async () => {
    let relation = ours();
    for (let index = 0; index < 200; index++) relation = relation.whereNot({ age: index, score: index });
    expect(await relation.count()).toBe(599);
    let nested = User.whereNot({ name: NAMES });
    for (const name of NAMES.slice(0, 150)) nested = nested.or(User.whereNot({ name, age: gte(0) }));
    expect(await nested.where({ name: NAMES }).count()).toBe(600);
  });
});

describe("ORDER BY: never more than D1's 100 terms", () => {
  it("orders by each attribute once, so any number of attribute terms runs", async () => {
    expect(User.order({ name: "asc" }).order({ name: "desc", age: "desc" }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "name" ASC, "age" DESC`);
    let relation = User.where({ name: NAMES });
    for (let index = 0; index < 150; index++) relation = relation.order(index % 2 === 0 ? { age: "desc" } : { name: "asc", score: "desc" });
    expect(await relation.limit(2).pluck("age")).toEqual([599, 598]);
    expect(await relation.last()).toMatchObject({ age: 0 });
  });

  it("refuses more than 100 terms of sql fragments with TypeError naming the Model and order, before anything is sent", async () => {
    const { db, events } = listen();
    let relation = db.model(User).where({ name: NAMES.slice(0, 3) });
    for (let index = 0; index < 100; index++) relation = relation.order(sql`${column("age")} * ${index + 1}`);
    expect(await relation.pluck("age")).toEqual([0, 1, 2]);
    events.length = 0;
    const over = relation.order(sql`${column("name")}`);
    expect(() => over.toSql()).toThrow(/^User\.order: 101 terms in an ORDER BY are over D1's limit of 100; it was not sent$/);
    await expect(over.toArray()).rejects.toThrow(/^User\.order: 101 terms/);
    await expect(over.limit(1).updateAll({ score: 1 })).rejects.toThrow(/^User\.order: 101 terms/);
    expect(events).toHaveLength(0);
  });
});

/** `levels` alternating where() and or(): each level holds the conditions before it one level deeper. */
function alternating(levels: number) {
  let relation = User.where({ name: NAMES[0] });
  for (let index = 1; index <= levels; index++) relation = relation.where({ age: index }).or(User.where({ name: NAMES[index] }));
  return relation;
}

const TOO_DEEP = /^User: or\(\) and whereNot\(\) nest its conditions past D1's limit of 100 on an expression's depth/;

describe("expression depth: conditions that nest for real", () => {
  it("are refused past half the limit with TypeError naming the Model before anything is sent, and run below it alone or as a subquery", async () => {
    const { db, events } = listen();
    const deep = db.model(User).merge(alternating(23));
    expect(() => deep.toSql()).toThrow(TOO_DEEP);
    for (const run of [() => deep.toArray(), () => deep.count(), () => deep.exists(), () => deep.pluck("name"), () => deep.paginate({ page: 1 })]) {
      await expect(run()).rejects.toThrow(TOO_DEEP);
    }
    await expect(deep.updateAll({ score: 1 })).rejects.toThrow(TOO_DEEP);
    await expect(deep.deleteAll()).rejects.toThrow(TOO_DEEP);
    let notted = User.whereNot({ name: NAMES[0], age: 0 });
    for (let index = 1; index < 40; index++) notted = User.whereNot({ age: index }).or(notted.where({ name: NAMES[index] }));
    await expect(db.model(User).merge(notted).count()).rejects.toThrow(TOO_DEEP);
    expect(events).toHaveLength(0);
    // One level less runs alone and as the subquery of a paged updateAll, whose conditions SQLite counts twice.
    const shallow = db.model(User).merge(alternating(22));
    expect(await shallow.pluck("name")).toEqual([NAMES[22]]);
    expect(await shallow.order({ name: "asc" }).limit(5).updateAll({ score: 0.5 })).toBe(1);
  });
});

describe("filtered values bound past the plain parameters", () => {
  it("show as [FILTERED] in query events", async () => {
    const secret = "canary-secret@example.com";
    let relation = User.where({ email: secret });
    for (let index = 0; index < 120; index++) relation = relation.or(User.where({ email: `${index}-${secret}` }));
    const { db, events } = listen();
    expect(await db.model(User).merge(relation).count()).toBe(0);
    expect(JSON.stringify(events)).not.toContain("canary");
    expect(JSON.stringify(events[0]!.params)).toContain("[FILTERED]");
  });
});
