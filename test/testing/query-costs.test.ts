import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect } from "../../src/index.js";
import { countQueries, expectNoTableScans, expectRoundTrips, recordingBinding, type SentStatement } from "../../src/testing/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { failingFirstTries } from "../helpers/transient-d1.js";
import { Post, User } from "../models/fixtures.js";
import { Account } from "../models/lifecycle-fixtures.js";

beforeEach(resetDatabase);

async function seed() {
  const ada = await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
  await Post.createOrThrow({ userId: ada.id, title: "First" });
  return ada;
}

describe("recordflare/testing: what a test's queries cost", () => {
  it("countQueries gives the round trips with their statements and values, and the rows read", async () => {
    const ada = await seed();
    const { result, roundTrips, rowsRead, events } = await countQueries(() => User.find(ada.id));
    expect(result.name).toBe("Ada");
    expect(roundTrips).toEqual([[{ sql: expect.stringContaining(`FROM "users"`), params: [ada.id] }]]);
    expect(rowsRead).toBe(1);
    expect(events).toHaveLength(1);
  });

  it("recordingBinding hands over each round trip, a statement's first and raw included, and keeps the binding's other methods", async () => {
    const trips: SentStatement[][] = [];
    const binding = recordingBinding(env.DB, (statements) => trips.push(statements));
    expect(await binding.prepare("SELECT ?1 AS n").bind(7).first("n")).toBe(7);
    expect(await binding.prepare("SELECT 1 AS n").raw()).toEqual([[1]]);
    await binding.batch([binding.prepare("SELECT 2"), binding.prepare("SELECT ?1").bind("x")]);
    expect(trips).toEqual([
      [{ sql: "SELECT ?1 AS n", params: [7] }],
      [{ sql: "SELECT 1 AS n", params: [] }],
      [{ sql: "SELECT 2", params: [] }, { sql: "SELECT ?1", params: ["x"] }],
    ]);
    expect(typeof binding.withSession).toBe("function");
    expect(typeof binding.exec).toBe("function");
  });

  it("expectRoundTrips passes the exact count and fails on any other, listing the SQL of each round trip", async () => {
    const ada = await seed();
    const found = await expectRoundTrips(1, () => User.find(ada.id));
    expect(found.id).toBe(ada.id);
    const error = await rejectionOf(expectRoundTrips(1, async () => [await User.find(ada.id), await Post.count()]));
    expect(error.message).toMatch(/^expected 1 round trip, got 2:\n  1\. SELECT .* FROM "users".*\n  2\. SELECT COUNT\(\*\).* FROM "posts"/);
    await expect(expectRoundTrips(1.5, () => null)).rejects.toThrow("expectRoundTrips takes a whole number of round trips, not 1.5");
    await expect(expectRoundTrips(Object.create(null), () => null)).rejects.toThrow("expectRoundTrips takes a whole number of round trips, not {}");
  });

  it("expectNoTableScans fails a query that reads a table row by row, naming it, and passes a search by key or index", async () => {
    const ada = await seed();
    expect((await expectNoTableScans(() => User.find(ada.id))).name).toBe("Ada");
    expect(await expectNoTableScans(() => Post.where({ userId: ada.id }).count())).toBe(1);
    const error = await rejectionOf(expectNoTableScans(() => User.where({ name: "Ada" }).toArray()));
    expect(error.message).toMatch(/^expected no table scans, got 1:\n  SCAN users in SELECT \* FROM "users" WHERE "name" = \?1/);
    expect(await expectNoTableScans(() => User.where({ name: "Ada" }).count(), { allow: ["users"] })).toBe(1);
  });

  it("expectNoTableScans checks a statement sent after a comment (connect's comment option) as any other", async () => {
    await seed();
    const Users = connect(env.DB, { comment: () => "route=/users" }).model(User);
    const error = await rejectionOf(expectNoTableScans(() => Users.where({ name: "Ada" }).toArray()));
    expect(error.message).toMatch(/^expected no table scans, got 1:\n  SCAN users in \/\* route=\/users \*\/ SELECT \* FROM "users" WHERE "name" = \?1/);
    expect(await expectNoTableScans(() => Users.where({ name: "Ada" }).count(), { allow: ["users"] })).toBe(1);
  });

  it("each helper checks its own arguments first, naming itself", async () => {
    await expect(expectRoundTrips(1, 5 as never)).rejects.toThrow("expectRoundTrips takes the work to run, a function, not 5");
    await expect(countQueries(5 as never)).rejects.toThrow("countQueries takes the work to run, a function, not 5");
    await expect(expectNoTableScans("User.count()" as never)).rejects.toThrow(`expectNoTableScans takes the work to run, a function, not "User.count()"`);
    await expect(countQueries(() => null, { bindng: env.DB } as never)).rejects.toThrow('countQueries: "bindng" is not an option; the options are binding');
    await expect(expectRoundTrips(0, () => null, { bindng: env.DB } as never)).rejects.toThrow('expectRoundTrips: "bindng" is not an option; the options are binding');
    await expect(countQueries(() => null, { binding: "DB" } as never)).rejects.toThrow(`countQueries: binding takes a D1 binding (env.DB, not its name), not "DB"`);
    await expect(countQueries(() => null, 5 as never)).rejects.toThrow("countQueries takes an options object, not 5");
    expect(() => recordingBinding("DB" as never, () => {})).toThrow(`recordingBinding takes a D1 binding (env.DB, not its name), not "DB"`);
    expect(() => recordingBinding(env.DB, undefined as never)).toThrow("recordingBinding takes a D1 binding, then a function given each round trip's statements, not undefined");
  });

  it("expectNoTableScans refuses an unknown option and an allow that is not a list of table names, before running anything", async () => {
    await seed();
    const scanning = () => User.where({ name: "Ada" }).toArray();
    await expect(expectNoTableScans(scanning, { alow: ["users"] } as never)).rejects.toThrow('expectNoTableScans: "alow" is not an option; the options are allow, binding');
    await expect(expectNoTableScans(scanning, { allow: "users" } as never)).rejects.toThrow(`expectNoTableScans: allow takes a list of table names, not "users"`);
    await expect(expectNoTableScans(scanning, { allow: [1] } as never)).rejects.toThrow("expectNoTableScans: allow takes a list of table names, not [1]");
  });

  it("countQueries counts the queries of a record loaded before it started, sent through the database it keeps", async () => {
    const ada = await seed();
    const loaded = await User.find(ada.id);
    loaded.name = "Ada L.";
    const { result, roundTrips, events, rowsWritten } = await countQueries(async () => {
      await loaded.saveOrThrow();
      return User.count();
    });
    expect(result).toBe(1);
    expect(roundTrips).toEqual([[{ sql: expect.stringMatching(/^UPDATE "users"/), params: expect.arrayContaining(["Ada L.", ada.id]) }], [{ sql: expect.stringContaining("COUNT(*)"), params: [] }]]);
    expect(events.map((event) => [event.sql.split(" ")[0], event.batched])).toEqual([["UPDATE", false], ["SELECT", false]]);
    expect(rowsWritten).toBeGreaterThanOrEqual(1);
    await expectRoundTrips(1, () => loaded.update({ name: "Ada" }));
    // A helper inside another's work counts what it runs; the outer one does not.
    const outer = await countQueries(() => expectRoundTrips(1, () => loaded.update({ name: "Ada King" })));
    expect(outer.roundTrips).toEqual([]);
    // What is sent once the work is done is counted no more.
    await loaded.update({ name: "Ada Lovelace" });
    expect(roundTrips).toHaveLength(2);
  });

  it("another database's query events are the ones it builds: filtered attributes masked, numbered in the helper's round trips", async () => {
    await Account.createOrThrow({ id: "a1", name: "Ada", role: "admin", passwordDigest: "old" });
    const loaded = await Account.find("a1");
    loaded.passwordDigest = "s3cret";
    const { roundTrips, events } = await countQueries(async () => [await User.count(), await loaded.saveOrThrow()]);
    expect(events.map((event) => [event.sql.split(" ")[0], event.roundTrip])).toEqual([["SELECT", 1], ["UPDATE", 2]]);
    expect(events[1]!.params).toContain("[FILTERED]");
    expect(JSON.stringify(events)).not.toContain("s3cret");
    // The round trips keep the values as sent: expectNoTableScans explains each statement with them.
    expect(roundTrips[1]![0]!.params).toContain("s3cret");
  });

  it("another database's retried round trip shows each try with its attempt, each a round trip of the helper's", async () => {
    await User.createOrThrow({ name: "Ada" });
    const { binding } = failingFirstTries(env.DB, "before");
    const Users = connect(binding, { retries: { delayMs: 0 } }).model(User);
    const { result, roundTrips, events } = await countQueries(() => Users.count(), { binding });
    expect(result).toBe(1);
    expect(roundTrips).toHaveLength(2);
    expect(events.map((event) => [event.attempt, event.roundTrip, event.error instanceof Error])).toEqual([[1, 1, true], [2, 2, false]]);
  });

  it("a database opened on a D1 session of the binding is counted: it was connected with the binding", async () => {
    const Users = connect(env.DB, { session: "first-primary" }).model(User);
    const { result, roundTrips, events } = await countQueries(() => Users.count());
    expect(result).toBe(0);
    expect(roundTrips).toEqual([[{ sql: expect.stringContaining("COUNT(*)"), params: [] }]]);
    expect(events).toHaveLength(1);
  });

  it("the binding is the Worker's env.DB unless given", async () => {
    const ada = await seed();
    const { roundTrips } = await countQueries(() => User.find(ada.id), { binding: env.DB });
    expect(roundTrips).toHaveLength(1);
  });
});
