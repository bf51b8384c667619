import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ignoringCase, Model } from "../../src/index.js";
import { withoutD1Limits } from "../helpers/d1-limits.js";
import { listen } from "../helpers/queries.js";

// cost_signups has the indexes `g model CostSignup email:string:unique_nocase handle:string:unique` writes:
// email's compares with NOCASE, handle's as stored.
const attributes = { id: "integer", email: "string", handle: "string", createdAt: "datetime", updatedAt: "datetime" } as const;

class Signup extends Model(attributes) {
  static override binding = "DB";
  static override tableName = "cost_signups";
  static {
    this.validates("email", { uniqueness: { caseSensitive: false } });
    this.validates("handle", { uniqueness: true });
  }
}

class NormalizedSignup extends Model(attributes) {
  static override binding = "DB";
  static override tableName = "cost_signups";
  static {
    this.normalizes("email", (email) => email.trim().toLowerCase());
    this.validates("email", { uniqueness: { caseSensitive: false } });
  }
}

const USERS = 5_000;

beforeAll(async () => {
  const ids = JSON.stringify(Array.from({ length: USERS }, (_, index) => index + 1));
  await withoutD1Limits(env.DB)
    .prepare("INSERT INTO cost_signups (id, email, handle, created_at, updated_at) SELECT value, 'user' || value || '@example.com', 'handle' || value, ?2, ?2 FROM json_each(?1)")
    .bind(ids, new Date(0).toISOString())
    .run();
});

/** The rows read by each query a signup sends, with the query. */
async function readsOfSignup(attributes: { email: string; handle: string }, model = Signup) {
  const { db, events } = listen();
  const record = await db.model(model).create(attributes);
  return { record, reads: events.map((event) => [event.rowsRead, event.sql] as const) };
}

describe("uniqueness on 5,000 rows reads through the index", () => {
  it("caseSensitive: false searches the :unique_nocase index: a signup reads at most a few rows", async () => {
    const { record, reads } = await readsOfSignup({ email: "Newcomer@Example.com", handle: "newcomer" });
    expect(record.isPersisted()).toBe(true);
    expect(reads).toHaveLength(3);
    for (const [rowsRead, sql] of reads) expect(rowsRead, sql).toBeLessThanOrEqual(2);
  });

  it("finds a rival that differs in ASCII case, reading one row", async () => {
    const { db, events } = listen();
    const record = db.model(Signup).build({ email: "USER77@example.COM", handle: "someone-new" });
    expect(await record.save()).toBe(false);
    expect(record.errors.fullMessages()).toEqual(["Email has already been taken"]);
    expect(events.map((event) => event.rowsRead)).toEqual([1, 0]);
  });

  it("SQLite searches the index for both checks (EXPLAIN QUERY PLAN)", async () => {
    const emailPlan = await Signup.where({ email: ignoringCase("a@b.c") }).explain();
    expect(emailPlan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SEARCH cost_signups USING (COVERING )?INDEX index_cost_signups_on_email \(email=\?\)$/)]);
    const handlePlan = await Signup.where({ handle: "h" }).explain();
    expect(handlePlan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SEARCH cost_signups USING (COVERING )?INDEX index_cost_signups_on_handle \(handle=\?\)$/)]);
  });

  it("an update that changes the email reads at most a few rows too", async () => {
    const { db, events } = listen();
    const record = await db.model(Signup).find(42);
    events.length = 0;
    expect(await record.update({ email: "Renamed42@example.com" })).toBe(true);
    for (const event of events) expect(event.rowsRead, event.sql).toBeLessThanOrEqual(2);
  });
});

describe("NOCASE folds ASCII letters only", () => {
  it("lets émile@ and ÉMILE@ both pass the validation and both be stored", async () => {
    const lower = await Signup.create({ email: "émile@example.com", handle: "emile-1" });
    const upper = await Signup.create({ email: "ÉMILE@example.com", handle: "emile-2" });
    expect([lower.isPersisted(), upper.isPersisted()]).toEqual([true, true]);
    // ASCII letters alone are folded: the index refuses this one, and the validation catches it first.
    const ascii = Signup.build({ email: "éMILE@EXAMPLE.com", handle: "emile-3" });
    expect(await ascii.save()).toBe(false);
    await expect(env.DB.prepare("INSERT INTO cost_signups (email, created_at, updated_at) VALUES ('ÉMILE@EXAMPLE.COM', '', '')").run()).rejects.toThrow(/UNIQUE/);
  });

  it("normalizes folds every letter, so the validation catches the Unicode variant", async () => {
    await NormalizedSignup.create({ email: "zoë@example.com" });
    const rival = NormalizedSignup.build({ email: "  ZOË@example.com" });
    expect(rival.email).toBe("zoë@example.com");
    expect(await rival.save()).toBe(false);
    expect(rival.errors.fullMessages()).toEqual(["Email has already been taken"]);
  });
});
