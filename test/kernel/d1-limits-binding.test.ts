import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { D1_LIMITS } from "../helpers/d1-limits.js";

// The suite's D1 binding (test/setup.ts) fails what production D1 fails, even where local D1 is lenient.
describe("the test suite's D1 binding", () => {
  it("refuses more than 100 bound parameters", async () => {
    const sql = `SELECT ${Array.from({ length: 101 }, () => "?").join(", ")}`;
    expect(() => env.DB.prepare(sql).bind(...Array.from({ length: 101 }, (_, i) => i))).toThrow(/too many SQL variables/);
    const ok = await env.DB.prepare(`SELECT ${Array.from({ length: 100 }, () => "?").join(", ")}`).bind(...Array.from({ length: 100 }, (_, i) => i)).raw();
    expect(ok[0]).toHaveLength(100);
  });

  it("refuses more than 100,000 bytes of SQL", () => {
    expect(() => env.DB.prepare(`SELECT '${"x".repeat(D1_LIMITS.sqlBytes)}'`)).toThrow(/SQL statement of/);
  });

  it("refuses a bound value over 1,000,000 bytes, counting text as UTF-8", async () => {
    expect(() => env.DB.prepare("SELECT ?").bind("é".repeat(500_001))).toThrow(/string or blob too big/);
    expect(() => env.DB.prepare("SELECT ?").bind(new Uint8Array(D1_LIMITS.valueBytes + 1))).toThrow(/string or blob too big/);
    expect(await env.DB.prepare("SELECT length(?) AS n").bind("x".repeat(D1_LIMITS.valueBytes)).first("n")).toBe(D1_LIMITS.valueBytes);
  });

  it("keeps batches working through the wrapper", async () => {
    const [a, b] = await env.DB.batch([env.DB.prepare("SELECT ? AS n").bind(1), env.DB.prepare("SELECT 2 AS n")]);
    expect([a!.results[0], b!.results[0]]).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
