/**
 * The app's package.json, as `init` needs it: the npm scripts that apply migrations and run the Worker, the
 * packages the project uses, and `"type": "module"`. What the app already has is kept: a script or dependency of
 * the same name is left as it is, with a note when it differs. The type is the exception: the Worker is an ES
 * module, and with `"type": "commonjs"` (what `npm init -y` writes) the Workers Vitest integration fails to load.
 */
import { isPlainObject } from "../../kernel/index.js";
import { ownPackage } from "../own-package.js";
import { outputLine, type FileToWrite, type Project } from "../project.js";
import { type Tool, TOOLS, type ToolVersions } from "./tool-versions.js";

/**
 * The packages whose install scripts npm 11 runs without a notice (its `allowScripts` policy): wrangler's and the
 * Workers Vitest integration's esbuild and workerd, which check their platform's binary as they install.
 */
const ALLOWED_SCRIPTS: Readonly<Record<string, boolean>> = { esbuild: true, workerd: true };

/** The npm scripts `init` adds. */
export const SCRIPTS: Readonly<Record<string, string>> = {
  dev: "wrangler dev",
  "db:migrate": "wrangler d1 migrations apply DB --local",
  typecheck: "tsc",
  test: "vitest run",
};

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
  /** The tools package.json gets, in the ranges `versions` gave. */
  readonly addedTools: readonly Tool[];
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

// The manifest with the type, scripts and packages it lacks, and what its line of output says about them.
function completedManifest(manifest: Manifest, versions: ToolVersions): { completed: Manifest; changes: string[]; added: Tool[] } {
  const changes: string[] = [];
  const completed: Manifest = { ...manifest, type: "module", scripts: withMissing(manifest.scripts, SCRIPTS) };
  if (manifest.type !== "module") {
    changes.push(`"type" is now "module", was ${manifest.type === undefined ? "unset" : JSON.stringify(manifest.type)}: the Worker and its tests are ES modules`);
  }
  if (!hasPackage(manifest, "recordflare")) {
    completed.dependencies = withMissing(manifest.dependencies, { recordflare: `^${ownPackage.version}` });
  }
  if (manifest.allowScripts === undefined) completed.allowScripts = ALLOWED_SCRIPTS;
  const added = TOOLS.filter((tool) => !hasPackage(manifest, tool));
  if (added.length > 0) {
    completed.devDependencies = withMissing(manifest.devDependencies, Object.fromEntries(added.map((tool) => [tool, versions.ranges[tool]])));
  }
  for (const tool of added) if (versions.reasons[tool] !== undefined) changes.push(versions.reasons[tool]);
  return { completed, changes, added };
}

// The changes, said in one note; none when there are none.
function joined(changes: readonly string[]): string | undefined {
  return changes.length === 0 ? undefined : changes.join("; ");
}

/**
 * What to write for the app's package.json; `name` is a new one's package name, `versions` the ranges of the tools
 * to add.
 */
export function planManifest(project: Project, name: string, versions: ToolVersions): ManifestPlan {
  const file = "package.json";
  const original = project.read(file);
  if (original === undefined) {
    const { completed, changes, added } = completedManifest({ name, private: true, type: "module" }, versions);
    return { file: { path: file, text: `${JSON.stringify(completed, null, 2)}\n`, note: joined(changes) }, notes: versions.upgrades, name: undefined, addedTools: added };
  }
  const manifest = parsedManifest(original);
  if (manifest === undefined) {
    return { file: undefined, notes: [outputLine("skip", file, "not a JSON object npm can read; left as it is")], name: undefined, addedTools: [] };
  }
  const notes = Object.entries(SCRIPTS)
    .filter(([script, command]) => manifest.scripts !== undefined && script in manifest.scripts && manifest.scripts[script] !== command)
    .map(([script, command]) => outputLine("skip", file, `script ${script} is kept; recordflare's would be \`${command}\``));
  notes.push(...versions.upgrades);
  const { completed, changes, added } = completedManifest(manifest, versions);
  const packageName = typeof manifest.name === "string" ? manifest.name : undefined;
  // Nothing missing: the file is left byte for byte as it is.
  if (JSON.stringify(completed) === JSON.stringify(manifest)) {
    return { file: undefined, notes: [outputLine("identical", file), ...notes], name: packageName, addedTools: [] };
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(original)?.[1] ?? 2;
  return { file: { path: file, text: `${JSON.stringify(completed, null, indent)}\n`, note: joined(changes) }, notes, name: packageName, addedTools: added };
}
