import { applyD1Migrations, env, reset } from "cloudflare:test";
import { withoutD1Limits } from "./d1-limits.js";

/**
 * Storage semantics with @cloudflare/vitest-plugin 1.5 + vitest 4:
 * every test FILE gets a fresh Miniflare instance (fresh, empty D1 database,
 * migrated by test/setup.ts), but tests WITHIN a file share the database:
 * writes are not rolled back between tests.
 *
 * Call this in `beforeEach` for per-test isolation. `reset()` from
 * "cloudflare:test" wipes the whole D1 database (schema included), so the
 * migrations are re-applied afterwards.
 */
export async function resetDatabase(): Promise<void> {
  await reset();
  await applyD1Migrations(withoutD1Limits(env.DB), env.TEST_MIGRATIONS);
}
