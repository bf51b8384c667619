import { defineConfig } from "vitest/config";
import { workersProject } from "./vitest.config.js";

// Mutation testing (npm run mutate): StrykerJS's vitest runner takes one project, so this holds only the workers
// project of vitest.config.ts (the node tests import the built package, which mutants never reach).
export default defineConfig(() => workersProject());
