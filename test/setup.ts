import { applyD1Migrations, env } from "cloudflare:test";
import { enforcingD1Limits, withoutD1Limits } from "./helpers/d1-limits.js";

// Runs before each test file. applyD1Migrations() is idempotent (it records
// applied migrations in the `d1_migrations` table), so this is safe even if the
// database is shared between files.
await applyD1Migrations(withoutD1Limits(env.DB), env.TEST_MIGRATIONS);

// Every test runs against production D1's limits, which local D1 enforces only in part.
env.DB = enforcingD1Limits(env.DB);
