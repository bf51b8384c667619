import { defineConfig } from "vitest/config";
import { workersProject } from "./vitest.config.js";

// Mutation testing of the files that hold D1's limits and refuse bad arguments (npx stryker run stryker.limits.json):
// the workers project narrowed to the unit tests of those limits, since every test of the suite covers arguments.ts.
export default defineConfig(async () => {
  const project = await workersProject();
  return {
    ...project,
    test: {
      ...project.test,
      include: ["test/kernel/d1-value-limits.test.ts", "test/kernel/argument-checks.test.ts", "test/kernel/bound-parameters.test.ts"],
      testTimeout: 600_000,
    },
  };
});
