/**
 * The versions of the tools `init` adds to package.json (wrangler, TypeScript, the Workers types, Vitest and the
 * Workers Vitest integration). By default those recordflare is tested with, from its own devDependencies. An app
 * that already has wrangler installed keeps it, and gets the `@cloudflare/workers-types` range that wrangler's
 * peerDependencies ask for: npm refuses to install a version outside it (ERESOLVE).
 */
import { ownPackage } from "../own-package.js";
import { outputLine } from "../project.js";
import { installedPackage } from "./installed-package.js";

/** The tools of a project, in the order they are added. */
export const TOOLS = ["wrangler", "typescript", "@cloudflare/workers-types", "vitest", "@cloudflare/vitest-plugin"] as const;

// recordflare's generated files and commands need wrangler 4.
const OLDEST_WRANGLER_MAJOR = 4;

/** A tool `init` adds. */
export type Tool = (typeof TOOLS)[number];

/** The version ranges to add, and what `init` says about them. */
export interface ToolVersions {
  readonly ranges: Readonly<Record<Tool, string>>;
  /** Why a range differs from the tested one, said on the package.json line of the output when the tool is added. */
  readonly reasons: Readonly<Partial<Record<Tool, string>>>;
  /** Output lines for what to upgrade. */
  readonly upgrades: string[];
}

/** The ranges for an app in `root`: the tested versions, or those that agree with the installed wrangler. */
export function toolVersions(root: string): ToolVersions {
  const tested = ownPackage.devDependencies;
  const ranges = Object.fromEntries(TOOLS.map((tool) => [tool, tested[tool]!])) as Record<Tool, string>;
  const wrangler = installedPackage(root, "wrangler");
  if (wrangler === undefined) return { ranges, reasons: {}, upgrades: [] };
  ranges.wrangler = `^${wrangler.version}`;
  const reasons: Partial<Record<Tool, string>> = { wrangler: `wrangler ${ranges.wrangler}, the version installed` };
  const typesRange = wrangler.peerDependencies["@cloudflare/workers-types"];
  if (typeof typesRange === "string" && typesRange !== ranges["@cloudflare/workers-types"]) {
    ranges["@cloudflare/workers-types"] = typesRange;
    reasons["@cloudflare/workers-types"] = `@cloudflare/workers-types ${typesRange}, the range the installed wrangler ${wrangler.version} takes`;
  }
  const major = Number.parseInt(wrangler.version, 10);
  const upgrades =
    major < OLDEST_WRANGLER_MAJOR
      ? [outputLine("upgrade", "wrangler", `${wrangler.version} is installed; recordflare needs wrangler ${OLDEST_WRANGLER_MAJOR}: npm install --save-dev wrangler@${tested.wrangler} @cloudflare/workers-types@${tested["@cloudflare/workers-types"]}`)]
      : [];
  return { ranges, reasons, upgrades };
}
