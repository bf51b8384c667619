/**
 * The app's package.json, as `init` needs it: the npm scripts that apply migrations and run the Worker, and the
 * packages the project uses. What the app already has is kept: a script or dependency of the same name is left
 * as it is, with a note when it differs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isPlainObject } from "../../kernel/index.js";
import { ownPackage } from "../own-package.js";
import { outputLine, type FileToWrite, type Project } from "../project.js";

/** The npm scripts `init` adds. */
export const SCRIPTS: Readonly<Record<string, string>> = {
  dev: "wrangler dev",
  "db:migrate": "wrangler d1 migrations apply DB --local",
  typecheck: "tsc",
};

// The tools of the project, in the versions recordflare is tested with.
const TOOLS = ["wrangler", "typescript", "@cloudflare/workers-types"] as const;

interface Manifest {
  name?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: unknown;
  devDependencies?: unknown;
  [key: string]: unknown;
}

/** What `init` decided about package.json. */
export interface ManifestPlan {
  readonly file: FileToWrite | undefined;
  readonly notes: string[];
  /** The package's name, when it has one. */
  readonly name: string | undefined;
}

// Adds the entries `wanted` has and `section` lacks; returns the section (a new one when there was none).
function withMissing(section: unknown, wanted: Readonly<Record<string, string>>): Record<string, unknown> {
  const result: Record<string, unknown> = isPlainObject(section) ? { ...section } : {};
  for (const [key, value] of Object.entries(wanted)) if (!(key in result)) result[key] = value;
  return result;
}

function hasPackage(manifest: Manifest, name: string): boolean {
  return [manifest.dependencies, manifest.devDependencies].some((section) => isPlainObject(section) && name in section);
}

function parsedManifest(text: string): Manifest | undefined {
  try {
    const manifest: unknown = JSON.parse(text);
    return isPlainObject(manifest) && (manifest.scripts === undefined || isPlainObject(manifest.scripts)) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

// The manifest with the scripts and packages it lacks.
function completedManifest(manifest: Manifest): Manifest {
  const completed: Manifest = { ...manifest, scripts: withMissing(manifest.scripts, SCRIPTS) };
  if (!hasPackage(manifest, "recordflare")) {
    completed.dependencies = withMissing(manifest.dependencies, { recordflare: `^${ownPackage.version}` });
  }
  const tools = Object.fromEntries(TOOLS.filter((tool) => !hasPackage(manifest, tool)).map((tool) => [tool, ownPackage.devDependencies[tool]!]));
  if (Object.keys(tools).length > 0) completed.devDependencies = withMissing(manifest.devDependencies, tools);
  return completed;
}

/** What to write for the app's package.json; `name` is a new one's package name. */
export function planManifest(project: Project, name: string): ManifestPlan {
  const file = "package.json";
  if (!project.exists(file)) {
    const text = `${JSON.stringify(completedManifest({ name, private: true, type: "module" }), null, 2)}\n`;
    return { file: { path: file, text }, notes: [], name: undefined };
  }
  const original = readFileSync(path.join(project.root, file), "utf8");
  const manifest = parsedManifest(original);
  if (manifest === undefined) {
    return { file: undefined, notes: [outputLine("skip", file, "not a JSON object npm can read; left as it is")], name: undefined };
  }
  const notes = Object.entries(SCRIPTS)
    .filter(([script, command]) => manifest.scripts !== undefined && script in manifest.scripts && manifest.scripts[script] !== command)
    .map(([script, command]) => outputLine("skip", file, `script ${script} is kept; recordflare's would be \`${command}\``));
  const completed = completedManifest(manifest);
  const packageName = typeof manifest.name === "string" ? manifest.name : undefined;
  // Nothing missing: the file is left byte for byte as it is.
  if (JSON.stringify(completed) === JSON.stringify(manifest)) {
    return { file: undefined, notes: [outputLine("identical", file), ...notes], name: packageName };
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(original)?.[1] ?? 2;
  return { file: { path: file, text: `${JSON.stringify(completed, null, indent)}\n` }, notes, name: packageName };
}
