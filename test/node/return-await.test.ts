/**
 * Every async function under src awaits the promise it returns. A promise returned unawaited gets its handler a few
 * microtasks after it is rejected, and workerd before the 2026-03 compatibility dates reports such a rejection as
 * unhandled, which fails an app's Vitest run although the app awaited the call. The workers project of the oldest
 * date supported (vitest.config.ts) runs the refusal tests at that date; this check covers the paths they do not.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("async functions", () => {
  it("await the promise they return (scripts/check-return-await.mjs)", () => {
    const check = spawnSync(process.execPath, [`${root}/scripts/check-return-await.mjs`], { encoding: "utf8" });
    expect(check.stdout).toBe("");
    expect(check.status).toBe(0);
    // The script parses the sources with TypeScript: seconds on a machine busy with the other node tests.
  }, 60_000);
});
