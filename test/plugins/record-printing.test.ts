import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { recordPrinting } from "../../src/index.js";
import { kernelUsers } from "../helpers/kernel-bases.js";

describe("record printing comes with the recordPrinting plugin", () => {
  it("a record of a base without it prints as an object, its values not shown", () => {
    const user = kernelUsers().build({ name: "Ada" });
    expect(String(user)).toBe("[object Object]");
    expect(inspect(user)).not.toContain("Ada");
  });

  it("registered, toString and the console print the class and attributes, and a Model's own toString wins", () => {
    const User = kernelUsers(recordPrinting);
    const user = User.build({ name: "Ada" });
    expect(String(user)).toMatch(/^#<KernelUser id: "[^"]+", name: "Ada", /);
    expect(inspect(user)).toBe(String(user));
    class Named extends (User as unknown as new () => object) {
      override toString(): string {
        return "a user";
      }
    }
    expect(inspect(new Named())).toBe("a user");
  });
});
