/**
 * Round trips and rows read: what each blog scenario costs on a real local D1 (Miniflare), for recordflare, for
 * Drizzle's relational queries, and for the minimum D1 allows (hand-written batches). Counts, not timings: they are
 * exact and do not depend on the machine.
 */
import { fileURLToPath } from "node:url";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { bundleWorker } from "../lib/esbuild-worker.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const COMPATIBILITY_DATE = "2026-11-01";

export const SCENARIOS = {
  postPage: "a post page: the post, its author and its comments",
  latestPosts: "the 25 newest posts with their authors",
  postsPage: "page 2 of posts (25 a page) with their authors and the total",
  taggedPostsPage: "page 2 of posts with their tags (through taggings) and comment counts (a counter cache), with the total",
  remarksPage: "the 25 newest comments on posts and photos (polymorphic), each with what it is on",
  deleteUser: "a user deleted with 30 posts of 2 comments each (dependent: destroy)",
  signup: "a signup with a unique email, 5,000 users in the table",
};
export const IMPLEMENTATIONS = ["recordflare", "drizzle", "minimum"];

export async function runCosts() {
  const { code } = await bundleWorker(here("./worker.mjs"));
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: code, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ["nodejs_compat"], d1Databases: ["DB"] }),
  );
  try {
    await mf.ready;
    const scenarios = {};
    for (const scenario of Object.keys(SCENARIOS)) {
      scenarios[scenario] = {};
      for (const impl of IMPLEMENTATIONS) {
        const response = await mf.dispatchFetch("http://bench.local/run", { method: "POST", body: JSON.stringify({ scenario, impl }) });
        const result = await response.json();
        if (!response.ok) throw new Error(`${scenario} by ${impl} failed: ${result.error}`);
        scenarios[scenario][impl] = result;
      }
      const answers = new Set(IMPLEMENTATIONS.map((impl) => JSON.stringify([scenarios[scenario][impl].answer, scenarios[scenario][impl].tables])));
      if (answers.size !== 1) throw new Error(`${scenario}: the implementations did not do the same work: ${[...answers].join(" / ")}`);
    }
    return { scenarios };
  } finally {
    await mf.dispose();
  }
}
