import { beforeEach, describe, expect, it } from "vitest";
import { IrreversibleOrder, lastRecord, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { kernelUsers } from "../helpers/kernel-bases.js";

describe("last comes with the lastRecord plugin", () => {
  it("a base without it has no last", () => {
    const User = kernelUsers();
    expect("last" in User).toBe(false);
    expect("last" in User.all()).toBe(false);
  });

  it("registered, last reverses the order, or the primary key's, and refuses an sql order", async () => {
    const User = kernelUsers(lastRecord);
    await User.create({ name: "b", age: 1 });
    await User.create({ name: "a", age: 2 });
    expect((await User.order({ name: "asc" }).last()).name).toBe("b");
    expect((await User.order({ age: "asc" }).limit(1).last()).name).toBe("b");
    expect((await User.last()).id > (await User.first()).id).toBe(true);
    await expect(User.order(sql`name`).last()).rejects.toThrow(IrreversibleOrder);
  });
});

describe("last(n)", () => {
  beforeEach(resetDatabase);

  it("the last n records, in the Relation's order: the order reversed, limited, read back", async () => {
    const User = kernelUsers(lastRecord);
    for (const [name, age] of [["c", 3], ["a", 1], ["b", 2], ["d", 4]] as const) await User.create({ name, age });
    expect((await User.order({ age: "asc" }).last(2)).map((user: { name: string }) => user.name)).toEqual(["c", "d"]);
    expect((await User.last(3)).map((user: { age: number }) => user.age)).toEqual([1, 2, 4]);
    expect(await User.last(0)).toEqual([]);
    expect(await User.order({ age: "asc" }).last(10)).toHaveLength(4);
    // A window: the last n of the records toArray() gives.
    expect((await User.order({ age: "asc" }).limit(3).last(2)).map((user: { age: number }) => user.age)).toEqual([2, 3]);
    expect((await User.order({ age: "asc" }).offset(3).last(5)).map((user: { age: number }) => user.age)).toEqual([4]);
    await expect(User.last(-1)).rejects.toThrow("last takes a whole number from 0, not -1");
  });
});
