import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { compatibilityDate } from "./vitest.config.js";

const root = path.dirname(fileURLToPath(import.meta.url));

// Mutation testing (npm run mutate): StrykerJS's vitest runner takes one project, so this holds only the workers
// project of vitest.config.ts (the node tests import the built package, which mutants never reach).
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "test/fixtures/migrations"));
  return {
    plugins: [
      cloudflareTest({
        miniflare: {
          compatibilityDate,
          compatibilityFlags: ["nodejs_compat"],
          d1Databases: ["DB"],
          bindings: { TEST_MIGRATIONS: migrations },
        },
      }),
    ],
    test: {
      root,
      include: ["test/**/*.test.ts"],
      exclude: ["test/node/**", "test/types/**", "**/node_modules/**"],
      setupFiles: ["./test/setup.ts"],
    },
  };
});
