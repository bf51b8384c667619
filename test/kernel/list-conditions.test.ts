import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CastError } from "../../src/index.js";
import { D1_LIMITS } from "../helpers/d1-limits.js";
import { listen } from "../helpers/queries.js";
import { BlobUser, bytes } from "../models/blob-users.js";
import { resetDatabase } from "../helpers/db.js";
import { User } from "../models/fixtures.js";

// A list condition is bound as JSON and read back with json_each: its values must come back as the very values D1
// binds for a scalar condition, and a list of any length must fit D1's limit of 1,000,000 bytes a value.

const REALS = [2 ** 53 + 2, 1e20, -0, 5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 2 ** 63, 2 ** 63 - 1024, -(2 ** 63), 1e21, 0.1, 1 / 3, 2 ** -1074 * 3];

describe("a list condition compares as the scalar one", () => {
  it("reads back every value with the type and value D1 binds for it alone", async () => {
    const values = [...REALS, 1, -5, Number.MAX_SAFE_INTEGER, true, false, "text", "2024-01-01T00:00:00.000Z"];
    for (const value of values) {
      const { params } = User.where({ score: [0] }).toSql();
      expect(params).toHaveLength(1);
      const [json] = User.where(typeof value === "number" ? { score: [value] } : typeof value === "boolean" ? { admin: [value] } : { name: [value] }).toSql().params;
      const listed = await env.DB.prepare("SELECT typeof(value) AS type, quote(value) AS text FROM json_each(?)").bind(json).first();
      const bound = await env.DB.prepare("SELECT typeof(?1) AS type, quote(?1) AS text").bind(typeof value === "boolean" ? Number(value) : value).first();
      expect(listed, String(value)).toEqual(bound);
    }
  });

  it("matches the same rows as the scalar condition for a real at every boundary", async () => {
    for (const [index, score] of [...REALS, ...Array.from({ length: 15 }, () => (Math.random() - 0.5) * 2 ** (Math.random() * 2000 - 1000))].entries()) {
      const name = `real-boundary-${index}`;
      await User.create({ name, score });
      await User.create({ name, score: score === 0 ? 1 : score / 2 });
      const mine = User.where({ name });
      const scalar = await mine.where({ score }).pluck("score");
      expect(scalar, String(score)).toHaveLength(1);
      expect(await mine.where({ score: [score] }).pluck("score"), String(score)).toEqual(scalar);
      expect(await mine.whereNot({ score: [score] }).deleteAll(), String(score)).toBe(1);
      expect(await mine.pluck("score"), String(score)).toEqual(scalar);
    }
  }, 20_000);
});

describe("a list of any length", () => {
  const uuids = Array.from({ length: 600_000 }, () => crypto.randomUUID());

  beforeAll(async () => {
    await User.insertAll(uuids.slice(-3).map((id, index) => ({ id, name: `listed-${index}` })));
    await User.create({ name: "not listed" });
  });

  it("counts through 600,000 UUIDs, bound as several JSON values within D1's limit", async () => {
    const { db, events } = listen();
    expect(await db.model(User).where({ id: uuids }).count()).toBe(3);
    expect(await db.model(User).whereNot({ id: uuids }).where({ name: "not listed" }).count()).toBe(1);
    for (const event of events) {
      expect(event.params.length).toBeLessThanOrEqual(D1_LIMITS.boundParameters);
      for (const param of event.params) expect(new TextEncoder().encode(String(param)).byteLength).toBeLessThanOrEqual(D1_LIMITS.valueBytes);
    }
    expect(events[0]!.params.length).toBeGreaterThan(20);
    expect(events[0]!.sql).toContain(`"id" IN (SELECT value FROM json_each(?1)) OR "id" IN (SELECT value FROM json_each(?2))`);
  }, 60_000);

  it("still searches the column's index when the list is split", async () => {
    const { sql, params } = User.where({ id: uuids.slice(0, 60_000) }).toSql();
    expect(params.length).toBeGreaterThan(1);
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
    const details = plan.results.map((step) => step.detail);
    expect(details.filter((detail) => /SEARCH users USING INDEX sqlite_autoindex_users_1 \(id=\?\)/.test(detail))).toHaveLength(params.length);
    expect(details.join("\n")).not.toMatch(/SCAN users/);
  });
});

describe("a single value over D1's limit for one value", () => {
  const big = "é".repeat(500_001);

  it("is refused before sending, naming the Model, the attribute and the limit", async () => {
    const { db, events } = listen();
    const Bound = db.model(User);
    await expect(Bound.create({ name: big })).rejects.toThrow(new CastError("User.name: a value of 1000002 bytes is over D1's limit of 1000000 bytes for one value", User, "name"));
    expect(() => Bound.where({ name: big })).toThrow(/User\.name: .* over D1's limit of 1000000 bytes/);
    expect(() => Bound.where({ name: ["a", big] })).toThrow(/User\.name: .* over D1's limit/);
    const user = await User.create({ name: "small" });
    const bound = await Bound.find(user.id);
    bound.name = "x".repeat(D1_LIMITS.valueBytes + 1);
    await expect(bound.save()).rejects.toThrow(/User\.name: a value of 1000001 bytes/);
    expect(events.map((event) => event.sql)).toEqual([expect.stringMatching(/^SELECT/)]);
    expect((await User.find(user.id)).name).toBe("small");
  });

  it("is accepted up to the limit", async () => {
    const user = await User.create({ name: "x".repeat(D1_LIMITS.valueBytes) });
    expect(await User.where({ name: "x".repeat(D1_LIMITS.valueBytes) }).pluck("id")).toEqual([user.id]);
  });
});

describe("a list of bytes", () => {
  beforeEach(async () => {
    await resetDatabase();
    for (const [id, email] of [[1, bytes(0, 255)], [2, bytes()], [3, bytes(0xab, 0xcd)], [4, null]] as const) {
      await BlobUser.createOrThrow({ id: bytes(id), name: `user ${id}`, email });
    }
  });

  it("matches the rows holding those bytes, each once, as blobs and not as their text", async () => {
    const view = new Uint8Array([9, 0xab, 0xcd, 9]).subarray(1, 3);
    const names = (relation: { pluck(name: "name"): Promise<string[]> }) => relation.pluck("name").then((list) => list.sort());
    expect(await names(BlobUser.where({ email: [bytes(0, 255), view, bytes(0, 255)] }))).toEqual(["user 1", "user 3"]);
    expect(await names(BlobUser.where({ email: [bytes(), null] }))).toEqual(["user 2", "user 4"]);
    expect(await names(BlobUser.whereNot({ email: [bytes(0, 255), null] }))).toEqual(["user 2", "user 3"]);
    expect(await names(BlobUser.where({ email: ["\x00\xff", "00ff", "[]"] }))).toEqual([]);
  });

  it("finds records by a list of byte keys, each key once", async () => {
    expect((await BlobUser.find([bytes(3), bytes(1), bytes(3)])).map((user) => user.name)).toEqual(["user 3", "user 1"]);
    expect(await BlobUser.where({ id: [bytes(2), bytes(4)] }).count()).toBe(2);
    expect(await BlobUser.where({ id: [bytes(2), bytes(9)] }).exists()).toBe(true);
  });
});
