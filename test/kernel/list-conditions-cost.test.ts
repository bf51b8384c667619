import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { Model } from "../../src/index.js";
import { withoutD1Limits } from "../helpers/d1-limits.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";

// What D1 bills a list condition, in rows read (its `meta`, in query events). A list of primary keys among the
// conditions of a SELECT without ORDER BY is a join on json_each: one row per value and one per key searched; any
// other list is `IN (SELECT value FROM json_each(?N))`, three rows per value.

class Item extends Model({ id: "integer", code: "string", createdAt: "datetime", updatedAt: "datetime" }) {
  static override binding = "DB";
  static override tableName = "cost_items";
}

const ROWS = 5_000;
const ids = (count: number, from = 1) => Array.from({ length: count }, (_, index) => from + index);

beforeAll(async () => {
  await withoutD1Limits(env.DB)
    .prepare("INSERT INTO cost_items (id, code, created_at, updated_at) SELECT value, 'c' || value, ?2, ?2 FROM json_each(?1)")
    .bind(JSON.stringify(ids(ROWS)), new Date(0).toISOString())
    .run();
});

/** Runs `query` on a listening database; resolves to its result, the rows read and the SQL of its one query. */
async function billed<T>(query: (items: typeof Item) => Promise<T>) {
  const { db, events } = listen();
  const result = await query(db.model(Item));
  expect(events).toHaveLength(1);
  return { result, rowsRead: events[0]!.rowsRead, sql: events[0]!.sql };
}

describe("a list of primary keys reads the list's length plus the rows it matches, plus one at most", () => {
  it("where({ id: [50 ids] })", async () => {
    const { result, rowsRead, sql } = await billed((items) => items.where({ id: ids(50, 101) }).toArray());
    expect(result.map((item) => item.id!).sort((a, b) => a - b)).toEqual(ids(50, 101));
    expect(rowsRead).toBeLessThanOrEqual(50 + 50 + 1);
    expect(sql).toBe(
      'SELECT "cost_items".* FROM (SELECT value AS "recordflare_list_value" FROM json_each(?1)) AS "recordflare_list" CROSS JOIN "cost_items" ON "id" = "recordflare_list"."recordflare_list_value"',
    );
  });

  it("where({ id: [5,000 ids] }).count()", async () => {
    const { result, rowsRead } = await billed((items) => items.where({ id: ids(ROWS) }).count());
    expect(result).toBe(ROWS);
    expect(rowsRead).toBeLessThanOrEqual(ROWS + ROWS + 1);
  });

  it("find([50 ids]), exists and pluck likewise, with further conditions after the list", async () => {
    expect((await billed((items) => items.find(ids(50, 7)))).rowsRead).toBeLessThanOrEqual(101);
    const { result: found, rowsRead } = await billed((items) => items.where({ id: ids(50, 1) }).where({ code: "c30" }).pluck("code"));
    expect(found).toEqual(["c30"]);
    expect(rowsRead).toBeLessThanOrEqual(101);
    expect((await billed((items) => items.exists({ id: ids(50, 4_990) }))).result).toBe(true);
  });

  it("a key that is missing is searched, and billed, too: at most twice the list's length, plus one", async () => {
    const list = ids(50, ROWS - 24);
    const { result, rowsRead } = await billed((items) => items.where({ id: list }).toArray());
    expect(result).toHaveLength(25);
    expect(rowsRead).toBeLessThanOrEqual(2 * list.length + 1);
  });

  it("gives each row once, as IN does, for a list holding a key twice", async () => {
    const { result } = await billed((items) => items.where({ id: [3, 3, 4, "3"] }).pluck("id"));
    expect(result.sort()).toEqual([3, 4]);
    expect(await Item.where({ id: [3, 3, 4] }).count()).toBe(2);
  });
});

describe("a joined list with conditions that hooks add", () => {
  it("keeps the join, and each value in its place, wherever a hook puts a bound term", async () => {
    class Pushed extends Item {
      static {
        this.hook("relation:where", ({ parts }) => {
          parts.where.push(`"code" <> ${parts.params.bind("c2")}`);
        });
      }
    }
    class Unshifted extends Item {
      static {
        this.hook("relation:where", ({ parts }) => {
          parts.where.unshift(`"code" <> ${parts.params.bind("c2")}`);
        });
      }
    }
    for (const model of [Pushed, Unshifted]) {
      const { db, events } = listen();
      expect((await db.model(model).where({ id: [1, 2, 3] }).where({ code: ["c1", "c2", "c3"] }).pluck("id")).sort()).toEqual([1, 3]);
      expect(events[0]!.sql).toContain("CROSS JOIN");
      expect(events[0]!.rowsRead).toBeLessThanOrEqual(3 + 3 + 1 + 3);
      expect(await listen().db.model(model).where({ id: [1, 2, 3] }).count()).toBe(2);
    }
  });

  it("joins a list of primary keys that follows another condition", async () => {
    const { result, rowsRead, sql } = await billed((items) => items.where({ code: ["c7", "c8", "c9"] }).where({ id: ids(50, 1) }).pluck("id"));
    expect(result.sort((a, b) => a! - b!)).toEqual([7, 8, 9]);
    expect(sql).toContain("CROSS JOIN");
    // The join's 50 + 50, plus the 3 values of the code list (its IN), where the IN on keys alone read 150.
    expect(rowsRead).toBeLessThanOrEqual(50 + 50 + 1 + 3);
  });
});

describe("lists read as IN", () => {
  it("with an ORDER BY (IN walks the list in key order and stops at the LIMIT; a join would sort every row)", async () => {
    const { result, rowsRead, sql } = await billed((items) => items.where({ id: ids(ROWS) }).order({ id: "asc" }).limit(10).pluck("id"));
    expect(result).toEqual(ids(10));
    expect(sql).toContain('WHERE "id" IN (SELECT value FROM json_each(?1))');
    expect(rowsRead).toBeLessThanOrEqual(ROWS + 3 * 10);
  });

  it("on a column other than the primary key, which may have no index to search", async () => {
    const { result, sql } = await billed((items) => items.where({ code: ["c1", "c2"] }).count());
    expect(result).toBe(2);
    expect(sql).toContain('WHERE "code" IN (SELECT value FROM json_each(?1))');
  });

  it("for text keys that one row could match twice under NOCASE or RTRIM (the join would give it twice)", () => {
    expect(User.where({ id: ["a", "A"] }).toSql().sql).toContain('WHERE "id" IN (SELECT value FROM json_each(?1))');
    expect(User.where({ id: ["a", "a "] }).toSql().sql).toContain('WHERE "id" IN (SELECT value FROM json_each(?1))');
    expect(User.where({ id: ["a", "b"] }).toSql().sql).toContain("CROSS JOIN");
  });

  it("in a DELETE, which has no join: deleteAll still removes exactly the listed rows", async () => {
    await Item.insertAll(ids(3, 90_001).map((id) => ({ id, code: "doomed" })));
    expect(await Item.where({ id: [...ids(3, 90_001), 99_999] }).deleteAll()).toBe(3);
    expect(await Item.where({ code: "doomed" }).count()).toBe(0);
  });
});
