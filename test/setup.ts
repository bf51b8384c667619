import { applyD1Migrations, env } from "cloudflare:test";

// Runs before each test file. applyD1Migrations() is idempotent (it records
// applied migrations in the `d1_migrations` table), so this is safe even if the
// database is shared between files.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
