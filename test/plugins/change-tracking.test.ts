import { describe, expect, it } from "vitest";
import { changeTracking, validations } from "../../src/index.js";
import { kernelUsers } from "../helpers/kernel-bases.js";

describe("change tracking comes with the changeTracking plugin", () => {
  it("a record of a base without it has none of the methods; the kernel still writes only what changed", async () => {
    const User = kernelUsers();
    const user = await User.create({ name: "a" });
    for (const method of ["isChanged", "changed", "changes", "attributeWas", "isAttributeChanged", "restoreAttributes", "savedChanges"]) {
      expect(method in user, method).toBe(false);
    }
    user.name = "b";
    expect(await user.save()).toBe(true);
    expect((await User.find(user.id)).name).toBe("b");
  });

  it("registered, a record tracks its changes and what its last save wrote", async () => {
    const User = kernelUsers(changeTracking);
    const user = await User.create({ name: "a", age: 1 });
    expect(user.savedChangeTo("name")).toEqual([null, "a"]);
    user.name = "b";
    expect(user.isChanged()).toBe(true);
    expect(user.changes()).toEqual({ name: ["a", "b"] });
    expect(user.isAttributeChanged("name", { from: "a", to: "b" })).toBe(true);
    expect(user.attributeWas("name")).toBe("a");
    user.restoreAttributes();
    expect(user.changed()).toEqual([]);
    expect(() => user.isAttributeChanged("nope")).toThrow(/has no attribute nope/);
  });

  it("uniqueness needs no changeTracking: it asks the kernel whether the attribute changed", async () => {
    const User = kernelUsers(validations);
    User.validates("email", { uniqueness: true });
    await User.create({ name: "a", email: "a@example.com" });
    const other = await User.create({ name: "b", email: "a@example.com" });
    expect(other.isPersisted()).toBe(false);
    expect(other.errors.fullMessages()).toEqual(["Email has already been taken"]);
  });
});
