/** What the numbers were measured on: versions, machine, load, and the source revision. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["miniflare", "workerd", "esbuild", "kysely", "kysely-d1", "drizzle-orm"];

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(`${ROOT}node_modules/${name}/package.json`, "utf8")).version;
  } catch {
    return undefined;
  }
}

function git(...args) {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export const loadAverage = () => loadavg().map((x) => Number(x.toFixed(2)));

export function environment() {
  const cores = cpus();
  return {
    node: process.version,
    packages: Object.fromEntries(PACKAGES.map((name) => [name, packageVersion(name)])),
    cpu: `${cores.length} × ${cores[0]?.model ?? "unknown"}`,
    git: { commit: git("rev-parse", "--short", "HEAD"), srcChanged: Boolean(git("status", "--porcelain", "--", "src")) },
  };
}
