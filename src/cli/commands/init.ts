/**
 * `recordflare init`: sets up a new or existing Worker project for recordflare. It writes what is missing
 * (wrangler.jsonc, tsconfig.json, migrations/, the schema file, the base class, a Worker entry) and adds what
 * wrangler.jsonc and package.json lack; a file the app already has is never replaced.
 */
import path from "node:path";
import { defineCommand } from "citty";
import { compatibilityDateFor } from "../init/compatibility-date.js";
import { planManifest } from "../init/package-manifest.js";
import { FIRST_TEST_TEMPLATE, GITIGNORE_TEMPLATE, TEST_ENV_TEMPLATE, TEST_SETUP_TEMPLATE, TSCONFIG_TEMPLATE, vitestConfigTemplate, WORKER_TEMPLATE } from "../init/project-templates.js";
import { toolVersions } from "../init/tool-versions.js";
import { planWranglerConfig, workerName } from "../init/wrangler-config.js";
import { PATHS, Project, type FileToWrite } from "../project.js";
import { renderSchema } from "../schema-writer.js";
import { APPLICATION_RECORD_TEMPLATE } from "../templates.js";
import { cwdArg } from "./shared-args.js";

const NEXT_STEPS = `
Next:
  npm install
  npx recordflare g model User name:string!
  npm run db:migrate
  npm run dev
  npm test`;

/**
 * The Worker entry to write from the template, at the path the wrangler configuration names (`main`): none when
 * that entry is not TypeScript (it is the app's to write) or lies outside the app's folder.
 */
function workerEntry(project: Project, entry: string): FileToWrite[] {
  const inside = path.relative(project.root, path.resolve(project.root, entry));
  if (!entry.endsWith(".ts") || inside.startsWith("..") || path.isAbsolute(inside)) return [];
  return [{ path: inside, text: WORKER_TEMPLATE }];
}

/** The `init` command. */
export const initCommand = defineCommand({
  meta: {
    name: "init",
    description:
      "Set up a Worker project for recordflare: wrangler.jsonc (D1 binding DB, nodejs_compat), tsconfig.json, migrations/, the schema file, the base class, src/index.ts, a Vitest config with a first test, a .gitignore, and npm scripts; files that exist are kept",
  },
  args: { cwd: cwdArg },
  async run({ args }) {
    const project = new Project(args.cwd);
    const versions = toolVersions(project.root);
    const manifest = planManifest(project, workerName(path.basename(project.root)), versions);
    const name = workerName(manifest.name ?? path.basename(project.root));
    // The tested wrangler and Workers Vitest integration, once installed, take the date recordflare is tested with.
    const addsTestedTools = (["wrangler", "@cloudflare/vitest-plugin"] as const).every((tool) => manifest.addedTools.includes(tool) && versions.reasons[tool] === undefined);
    const wrangler = planWranglerConfig(project, name, compatibilityDateFor(project.root, addsTestedTools));
    const database = await project.migratedDatabase(project.migrations());
    let schema: string;
    try {
      schema = renderSchema(database.tables());
    } finally {
      database.close();
    }
    const edits = [wrangler.file, manifest.file].filter((file): file is FileToWrite => file !== undefined);
    const lines = [
      ...project.write(edits),
      ...wrangler.notes,
      ...manifest.notes,
      ...project.writeNew([
        { path: "tsconfig.json", text: TSCONFIG_TEMPLATE },
        { path: PATHS.schema, text: schema },
        { path: PATHS.applicationRecord, text: APPLICATION_RECORD_TEMPLATE },
        ...workerEntry(project, wrangler.entry),
        { path: "vitest.config.ts", text: vitestConfigTemplate(wrangler.configFile) },
        { path: "test/setup.ts", text: TEST_SETUP_TEMPLATE },
        { path: "test/env.d.ts", text: TEST_ENV_TEMPLATE },
        { path: "test/database.test.ts", text: FIRST_TEST_TEMPLATE },
        { path: ".gitignore", text: GITIGNORE_TEMPLATE },
      ]),
      ...project.makeFolder(PATHS.migrations),
    ];
    console.log(`${lines.join("\n")}\n${NEXT_STEPS}`);
  },
});
