import { describe, expect, it } from "vitest";
import { queryPlans } from "../../src/index.js";
import { kernelUsers } from "../helpers/kernel-bases.js";

describe("explain comes with the queryPlans plugin", () => {
  it("a base without it has no explain; registered, explain gives SQLite's plan", async () => {
    expect("explain" in kernelUsers()).toBe(false);
    const User = kernelUsers(queryPlans);
    const steps = await User.where({ name: "a" }).explain();
    expect(steps.map((step: { detail: string }) => step.detail).join(" ")).toMatch(/users/);
  });
});
