import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { readMigrations } from "./src/testing/migration-files.js";

const root = path.dirname(fileURLToPath(import.meta.url));

// Must be <= the newest date supported by the workerd used by @cloudflare/vitest-plugin
// (node_modules/workerd 1.20261102.1 -> 2026-11-02). playground/wrangler.jsonc uses the same date.
export const compatibilityDate = "2026-11-01";

/**
 * The oldest date the refusals are run at too. Before the 2026-03 dates, workerd reports a rejection whose handler is
 * attached a few microtasks late (an async function returning another's rejected promise) as unhandled, which fails
 * an app's Vitest run although the app awaited the call: every async function under src awaits what it returns
 * (scripts/check-return-await.mjs), and these files prove it at run time.
 */
const oldestCompatibilityDate = "2025-03-01";
const refusalTests = ["test/spec/errors.test.ts", "test/properties/hostile-arguments.property.test.ts"];

/** The library tests: run inside workerd with a local D1 database (also the whole of vitest.mutate.config.ts). */
export async function workersProject(date = compatibilityDate) {
  const { migrations } = await readMigrations({ migrationsDir: path.join(root, "test/fixtures/migrations") });
  return {
    plugins: [
      cloudflareTest({
        miniflare: {
          compatibilityDate: date,
          compatibilityFlags: ["nodejs_compat"],
          d1Databases: ["DB"],
          // A Worker secret as `wrangler secret put` makes one: the encrypts plugin's key, read by name.
          bindings: { TEST_MIGRATIONS: migrations, ENCRYPTS_TEST_KEY: "RzwX5IyqAvw894mwosA8cgrYzD+BD0Ix9ndyACw9GJo=" },
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
}

export default defineConfig(async () => {
  const workers = await workersProject();
  const oldest = await workersProject(oldestCompatibilityDate);
  return {
    test: {
      projects: [
        { ...workers, test: { ...workers.test, name: "workers" } },
        { ...oldest, test: { ...oldest.test, name: `workers-${oldestCompatibilityDate}`, include: refusalTests } },
        {
          // Plain Node tests (CLI, importing the built package).
          test: {
            name: "node",
            root,
            environment: "node",
            include: ["test/node/**/*.test.ts"],
          },
        },
      ],
    },
  };
});
