import { describe, expect, it } from "vitest";
import { gt, Model } from "../../src/index.js";
import { listen } from "../helpers/queries.js";

class Item extends Model({ id: "integer", code: "string", createdAt: "datetime", updatedAt: "datetime" }) {
  static override binding = "DB";
  static override tableName = "cost_items";
}

const details = (steps: readonly { detail: string }[]) => steps.map((step) => step.detail);

describe("explain", () => {
  it("returns SQLite's plan as { id, parent, detail } rows: SEARCH through an index, SCAN for a full read", async () => {
    const searched = await Item.where({ code: "c1" }).explain();
    expect(searched).toEqual([{ id: expect.any(Number), parent: 0, detail: "SEARCH cost_items USING INDEX index_cost_items_on_code (code=?)" }]);
    expect(details(await Item.where({ id: 5 }).explain())).toEqual(["SEARCH cost_items USING INTEGER PRIMARY KEY (rowid=?)"]);
    expect(details(await Item.where({ createdAt: gt(new Date(0)) }).explain())).toEqual(["SCAN cost_items"]);
    expect(details(await Item.explain())).toEqual(["SCAN cost_items"]);
  });

  it("explains the query toArray() sends, with the same bound values, in one round trip", async () => {
    const { db, events } = listen();
    const relation = db.model(Item).where({ code: ["a", "b"] }).order({ code: "desc" }).limit(3);
    const plan = await relation.explain();
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toBe(`EXPLAIN QUERY PLAN ${relation.toSql().sql}`);
    expect(events[0]!.params).toEqual(relation.toSql().params);
    // Steps nest: a subquery's steps name their parent's id.
    const ids = new Set(plan.map((step) => step.id));
    for (const step of plan) expect(step.parent === 0 || ids.has(step.parent)).toBe(true);
    expect(plan.some((step) => step.detail.startsWith("SEARCH cost_items USING INDEX index_cost_items_on_code"))).toBe(true);
  });
});
