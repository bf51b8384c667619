import { describe, expect, it } from "vitest";
import { findMany } from "../../src/index.js";
import { kernelUsers } from "../helpers/kernel-bases.js";

describe("finding several records comes with the findMany plugin", () => {
  it("without it, find takes one id and says which plugin finds several", async () => {
    const User = kernelUsers();
    const user = await User.create({ name: "a" });
    expect((await User.find(user.id)).name).toBe("a");
    await expect(User.find([user.id])).rejects.toThrow(new TypeError("KernelUser.find takes one id; register the findMany plugin to find several"));
    await expect(User.find(user.id, user.id)).rejects.toThrow(TypeError);
    await expect(User.find()).rejects.toThrow(/find needs an id/);
  });

  it("registered, find takes a list or several ids and keeps their order", async () => {
    const User = kernelUsers(findMany);
    const a = await User.create({ name: "a" });
    const b = await User.create({ name: "b" });
    expect((await User.find([b.id, a.id])).map((user: { name: string }) => user.name)).toEqual(["b", "a"]);
    expect((await User.find(a.id, b.id, a.id)).map((user: { name: string }) => user.name)).toEqual(["a", "b"]);
    expect((await User.find(a.id)).name).toBe("a");
    await expect(User.find([a.id, "missing"])).rejects.toThrow(/no records with id "missing"/);
  });
});
