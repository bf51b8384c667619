import { beforeEach, describe, expect, it } from "vitest";
import { connect } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";

/**
 * What the everyday operations cost on D1: round trips (a lone statement or a whole batch) and rows read, counted
 * on local D1. Each count is the minimum D1 allows; a test fails if one grows.
 */
function counted() {
  const { binding, roundTrips } = recordingRoundTrips();
  const rowsRead: number[] = [];
  const db = connect(binding, { onQuery: (event) => rowsRead.push(event.rowsRead) });
  return { Users: db.model(User), roundTrips, rowsRead, totalRead: () => rowsRead.reduce((sum, rows) => sum + rows, 0) };
}

beforeEach(async () => {
  await resetDatabase();
  await User.insertAll(Array.from({ length: 200 }, (_, index) => ({ name: `User ${index}`, age: index })));
});

describe("round trips and rows read of single-record operations", () => {
  it("find(id) and findBy on the key: one round trip reading one row", async () => {
    const { id } = (await User.findByOrThrow({ name: "User 7" }))!;
    const { Users, roundTrips, totalRead } = counted();
    await Users.find(id);
    await Users.findBy({ id });
    expect(roundTrips).toHaveLength(2);
    expect(totalRead()).toBe(2);
  });

  it("create and update: one round trip each; a save with nothing changed: none", async () => {
    const { Users, roundTrips } = counted();
    const user = await Users.create({ name: "Ada" });
    expect(roundTrips).toHaveLength(1);
    await user.update({ age: 36 });
    expect(roundTrips).toHaveLength(2);
    expect(await user.save()).toBe(true);
    await user.update({ age: 36 });
    expect(roundTrips).toHaveLength(2);
  });

  it("exists and count: one round trip each; exists reads at most the rows up to the first match", async () => {
    const { Users, roundTrips, rowsRead } = counted();
    expect(await Users.exists()).toBe(true);
    expect(await Users.where({ name: "User 3" }).exists()).toBe(true);
    expect(await Users.count()).toBe(200);
    expect(roundTrips).toHaveLength(3);
    expect(rowsRead[0]).toBe(1);
    expect(rowsRead[1]).toBeLessThanOrEqual(4);
  });
});
