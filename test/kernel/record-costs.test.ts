import { beforeEach, describe, expect, it } from "vitest";
import { connect } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { recordingRoundTrips } from "../helpers/queries.js";
import { ApplicationRecord, User } from "../models/fixtures.js";

/** Users with synchronous validations and callbacks, as most apps declare them. */
class CheckedUser extends ApplicationRecord("users") {
  static calls: string[] = [];
  static {
    this.validates("name", { presence: true });
    this.beforeSave((user) => void CheckedUser.calls.push(`beforeSave ${user.name}`));
    this.afterSave((user) => void CheckedUser.calls.push(`afterSave ${user.name}`));
  }
}

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

describe("the work a save does before its write", () => {
  it("a save whose hooks return no promise sends its statement in the turn it is called: no event-loop turn before it", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    const creating = db.model(User).create({ name: "Ada" });
    expect(roundTrips).toHaveLength(1);
    const user = await creating;
    const updating = user.update({ age: 36 });
    expect(roundTrips).toHaveLength(2);
    expect(await updating).toBe(true);
  });

  it("so does one with synchronous validations and callbacks, which still run in order and refuse as before", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const Users = connect(binding).model(CheckedUser);
    CheckedUser.calls = [];
    const creating = Users.create({ name: "Ada" });
    expect(roundTrips).toHaveLength(1);
    expect(CheckedUser.calls).toEqual(["beforeSave Ada"]);
    expect((await creating).isPersisted()).toBe(true);
    expect(CheckedUser.calls).toEqual(["beforeSave Ada", "afterSave Ada"]);
    const refused = await Users.create({ name: "" });
    expect(refused.isNewRecord()).toBe(true);
    expect(refused.errors.fullMessages()).toEqual(["Name can't be blank"]);
    expect(roundTrips).toHaveLength(1);
  });

  it("each set of assigned columns gets its own INSERT, whatever was saved before (compiled once per Model and set)", async () => {
    const { Users, roundTrips } = counted();
    await Users.create({ name: "Ada", age: 36 });
    await Users.create({ name: "Grace" });
    await Users.create({ name: "Edsger", age: 72 });
    await Users.create({ age: 41, name: "Barbara", email: "barbara@example.com" });
    const columns = roundTrips.map(([sql]) => /\(([^)]*)\) VALUES/.exec(sql!)![1]);
    expect(columns).toEqual([
      '"id", "name", "age", "admin", "created_at", "updated_at"',
      '"id", "name", "admin", "created_at", "updated_at"',
      '"id", "name", "age", "admin", "created_at", "updated_at"',
      '"id", "name", "email", "age", "admin", "created_at", "updated_at"',
    ]);
    const stored = await User.where({ name: ["Ada", "Grace", "Edsger", "Barbara"] }).order({ name: "asc" }).pluck("name", "age", "email");
    expect(stored).toEqual([
      ["Ada", 36, null],
      ["Barbara", 41, "barbara@example.com"],
      ["Edsger", 72, null],
      ["Grace", null, null],
    ]);
  });
});
