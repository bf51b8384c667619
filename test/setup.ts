import { env } from "cloudflare:test";
import { applyMigrations } from "../src/testing/index.js";
import { enforcingD1Limits, withoutD1Limits } from "./helpers/d1-limits.js";

// Runs before each test file, with the helpers an app's tests use (recordflare/testing). applyMigrations() applies
// only what the `d1_migrations` table does not record, so this is safe even if the database is shared between files.
await applyMigrations(withoutD1Limits(env.DB), env.TEST_MIGRATIONS);

// Every test runs against production D1's limits, which local D1 enforces only in part.
env.DB = enforcingD1Limits(env.DB);
