import type { D1Migration } from "cloudflare:test";

// Bindings configured in vitest.config.ts (`cloudflareTest({ miniflare })`).
// `env` from both "cloudflare:test" and "cloudflare:workers" is `Cloudflare.Env`.
declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

export {};
