import { describe, expect, it } from "vitest";
import { IrreversibleOrder, lastRecord, sql } from "../../src/index.js";
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
