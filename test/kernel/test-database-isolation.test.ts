import { env } from "cloudflare:test";
import { expect, it } from "vitest";

// local-d1.test.ts writes users; a separate file must start with an empty,
// migrated database (each test file gets its own Miniflare instance).
it("starts each test file with an empty, migrated database", async () => {
  expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")).toBe(0);
});
