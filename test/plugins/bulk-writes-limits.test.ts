/**
 * Bulk writes within D1's limits by construction: rows over the limit for one value go as several INSERTs in one
 * atomic batch, a single value over it is refused before sending, and very wide writes keep to 100 bound
 * parameters and 100 KB of SQL (the suite's binding, test/helpers/d1-limits.ts, fails any statement past them).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Model, RecordNotUnique } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import { Counter, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

const LIMIT = 1_000_000;
const wideColumns = Array.from({ length: 99 }, (_, index) => `c${index + 1}`);

/** A 100-column table (D1's maximum): its key and 99 text columns. */
class Wide extends Model({ id: { type: "string", null: false }, ...Object.fromEntries(wideColumns.map((name) => [name, "string"])) } as Record<string, "string" | { type: "string"; null: false }>) {
  static override binding = "DB";
  static override tableName = "audit_q_wide";
}

describe("rows over D1's limit for one value", () => {
  it("go as several INSERTs in one round trip, each bound value within the limit", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const { db, events } = listen({ binding });
    const rows = Array.from({ length: 30 }, (_, index) => ({ label: `${index}`.padEnd(100_000, "x") }));
    const meta = await db.model(Counter).insertAll(rows);
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]!.length).toBeGreaterThanOrEqual(4);
    expect(roundTrips[0]!.every((sql) => sql.startsWith(`INSERT INTO "counters" ("label") SELECT json_extract(value, '$[0]')`))).toBe(true);
    expect(events.every((event) => event.batched && event.params.length === 1)).toBe(true);
    expect(meta["changes"]).toBe(30);
    expect(await Counter.order({ id: "asc" }).pluck("label")).toEqual(rows.map((row) => row.label));
  });

  it("write nothing when the third INSERT of the batch fails", async () => {
    const big = "x".repeat(450_000);
    const rows = [1, 2, 3, 4, 5].map((index) => ({ name: big, email: `${index}@x.io` }));
    rows[4]!.email = "1@x.io";
    const { binding, roundTrips } = recordingRoundTrips();
    const { db } = listen({ binding });
    await expect(db.model(User).insertAll(rows)).rejects.toThrow(RecordNotUnique);
    expect(roundTrips).toEqual([[expect.any(String), expect.any(String), expect.any(String)]]);
    expect(await countRows("users")).toBe(0);
  });

  it("upsertAll splits alike, updating the existing rows", async () => {
    const first = await User.create({ name: "old", email: "a@x.io" });
    const rows = Array.from({ length: 12 }, (_, index) => ({ name: `${index}`.padEnd(100_000, "y"), email: `${index}@x.io` }));
    const { binding, roundTrips } = recordingRoundTrips();
    await listen({ binding }).db.model(User).upsertAll([{ id: first.id, name: "new", email: "a@x.io" }, ...rows]);
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]!.length).toBeGreaterThan(1);
    expect((await first.reload(), first.name)).toBe("new");
    expect(await countRows("users")).toBe(13);
  });

  it("a row whose JSON alone is over the limit is bound value by value", async () => {
    const name = "é".repeat(499_000) + '"'.repeat(1_000);
    const { db, events } = listen();
    await db.model(User).insertAll([{ name }, { name: "small" }]);
    expect(events.map((event) => event.sql)).toEqual([expect.stringMatching(/VALUES \(\?1, \?2, \?3, \?4, \?5\)$/), expect.stringMatching(/json_each\(\?1\) WHERE true$/)]);
    expect(await User.order({ name: "desc" }).pluck("name")).toEqual([name, "small"]);
  });

  it("a Statement of several INSERTs joins a batch whole, and prints every part", async () => {
    const rows = Array.from({ length: 15 }, (_, index) => ({ label: `${index}`.padEnd(100_000, "z") }));
    const statement = Counter.toInsertAll(rows);
    expect(statement.toSql().sql.split(";\n")).toHaveLength(2);
    expect(statement.toSql().params).toHaveLength(2);
    const { binding, roundTrips } = recordingRoundTrips();
    const { db } = listen({ binding });
    const [meta, deleted] = await db.batch([statement, Counter.where({ label: "none" }).toDeleteAll()]);
    expect(meta["changes"]).toBe(15);
    expect(deleted).toBe(0);
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(3);
  });
});

describe("a single value over D1's limit", () => {
  it("is refused before sending by every bulk write, naming the Model, the attribute and the limit", async () => {
    const { db, events } = listen();
    const U = db.model(User);
    const tooBig = "é".repeat(500_001);
    const refused = /^User\.name: a value of 1000002 bytes is over D1's limit of 1000000 bytes for one value$/;
    await expect(U.insert({ name: tooBig })).rejects.toThrow(refused);
    await expect(U.insertAll([{ name: "a" }, { name: tooBig }])).rejects.toThrow(refused);
    await expect(U.upsert({ name: tooBig })).rejects.toThrow(refused);
    await expect(U.upsertAll([{ name: tooBig }])).rejects.toThrow(refused);
    await expect(U.updateAll({ name: tooBig })).rejects.toThrow(refused);
    expect(() => U.toInsert({ name: tooBig })).toThrow(TypeError);
    expect(events).toHaveLength(0);
  });

  it("is written when it is exactly at the limit", async () => {
    const name = "x".repeat(LIMIT);
    await User.insert({ name });
    await User.updateAll({ name: name.slice(1) + "y" });
    expect((await User.pluck("name"))[0]).toHaveLength(LIMIT);
  });
});

describe("very wide writes", () => {
  const wideRow = (id: string, value: string) => ({ id, ...Object.fromEntries(wideColumns.map((name) => [name, `${value} ${name}`])) });

  it("updateAll of all 100 columns of a 100-column table binds the values past 90 through one JSON value", async () => {
    await Wide.insert(wideRow("w1", "old"));
    await Wide.insert(wideRow("w2", "keep"));
    const { db, events } = listen();
    expect(await db.model(Wide).where({ id: "w1" }).updateAll(wideRow("w1", "new"))).toBe(1);
    expect(events[0]!.params).toHaveLength(91);
    expect(events[0]!.sql).toMatch(/^UPDATE "audit_q_wide" SET "id" = \?1, "c1" = \?2, .*"c99" = json_extract\(\?91, '\$\[\d+\]'\) WHERE "id" = json_extract\(\?91, '\$\[\d+\]'\)$/);
    expect(await Wide.order({ id: "asc" }).pluck("c1", "c99")).toEqual([["new c1", "new c99"], ["keep c1", "keep c99"]]);
  });

  it("updateAll whose values pass the limit as one JSON row binds them as several", async () => {
    await Wide.insert(wideRow("w1", "old"));
    const big = Object.fromEntries(wideColumns.map((name) => [name, name.padEnd(30_000, "v")]));
    const { db, events } = listen();
    await db.model(Wide).where({ id: "w1" }).updateAll({ id: "w1", ...big });
    expect(events[0]!.params.length).toBeGreaterThan(3);
    expect(events[0]!.params.length).toBeLessThan(100);
    expect(await Wide.pluck("c42")).toEqual([big["c42"]]);
  });

  it("upsertAll of 100-column rows sends one bound value and short SQL", async () => {
    await Wide.insert(wideRow("w1", "old"));
    const { db, events } = listen();
    await db.model(Wide).upsertAll([wideRow("w1", "new"), wideRow("w2", "added")]);
    expect(events[0]!.params).toHaveLength(1);
    expect(new TextEncoder().encode(events[0]!.sql).byteLength).toBeLessThan(10_000);
    expect(await Wide.order({ id: "asc" }).pluck("c50")).toEqual(["new c50", "added c50"]);
  });
});
