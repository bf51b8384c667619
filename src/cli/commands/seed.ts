/**
 * `recordflare seed`: runs the app's seeds file (`src/db/seeds.ts`, Rails' `db/seeds.rb`) against the local D1 that
 * `wrangler dev` and `wrangler d1 migrations apply --local` use, or the remote one with `--remote`, through
 * wrangler's own platform proxy: the app's Models, on its real database engine, with no SQL file written.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire, register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { defineCommand } from "citty";
import { cwdArg } from "./shared-args.js";

/** The seeds file `seed` runs unless told another. */
export const SEEDS_FILE = "src/db/seeds.ts";

type PlatformProxy = { env: Record<string, unknown>; dispose(): Promise<void> };
type D1BindingConfig = { binding?: string; remote?: boolean };
type Wrangler = {
  getPlatformProxy(options: { configPath?: string; remoteBindings?: boolean }): Promise<PlatformProxy>;
  unstable_readConfig(args: { config?: string }): { d1_databases?: D1BindingConfig[] };
};
type Esbuild = { build(options: object): Promise<unknown> };

/** A package of the app (wrangler, esbuild), loaded from the app's folder, as the app's own scripts would load it. */
async function appPackage<T>(root: string, name: string, install: string): Promise<T> {
  let resolved: string;
  try {
    resolved = createRequire(path.join(root, "package.json")).resolve(name);
  } catch {
    throw new Error(`seed needs ${name}, which the app lacks: ${install}`);
  }
  return (await import(pathToFileURL(resolved).href)) as T;
}

/**
 * The module that runs the seeds: the seeds file's default export, called inside `withDatabase` on the binding, so
 * that the app's Models query it. `recordflare` stays the app's own (not bundled), the copy its Models use.
 */
function runnerSource(seedsFile: string): string {
  return `import seed from ${JSON.stringify(seedsFile)};
import { connect, withDatabase } from "recordflare";
export default (binding, env) => {
  if (typeof seed !== "function") throw new Error("the seeds file must export default an async function, given the database and env");
  const db = connect(binding);
  return withDatabase(db, () => seed({ db, env }));
};
`;
}

/** Bundles the seeds file (TypeScript, importing the app's Models) into one ES module in `folder`. */
async function bundledRunner(root: string, seedsFile: string, folder: string): Promise<string> {
  const esbuild = await appPackage<Esbuild>(root, "esbuild", "it comes with wrangler: npm install --save-dev wrangler");
  const outfile = path.join(folder, "seed.mjs");
  await esbuild.build({
    stdin: { contents: runnerSource(seedsFile), resolveDir: root, sourcefile: "recordflare-seed.mjs", loader: "js" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    // A class that names itself in a static would be renamed (`_User`), and a class's name is data: a polymorphic
    // type, an inferred foreign key. wrangler keeps names for the Worker alike.
    keepNames: true,
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

/** The wrangler configuration: the one given, else the app's `wrangler.jsonc`, `wrangler.json` or `wrangler.toml`. */
function configPathOf(root: string, given: string | undefined): string {
  if (given !== undefined) return path.resolve(root, given);
  const found = ["wrangler.jsonc", "wrangler.json", "wrangler.toml"].map((name) => path.join(root, name)).find((file) => existsSync(file));
  if (!found) throw new Error("seed: the app has no wrangler.jsonc, wrangler.json or wrangler.toml; run recordflare init, or pass --config");
  return found;
}

/**
 * Refuses `--remote` unless the configuration marks the binding `"remote": true`: without it wrangler's platform proxy
 * quietly gives the local database, and the seeds would land where the user did not mean them to.
 */
function checkRemoteBinding(wrangler: Wrangler, configPath: string, binding: string): void {
  const entry = wrangler.unstable_readConfig({ config: configPath }).d1_databases?.find((database) => database.binding === binding);
  const file = path.basename(configPath);
  if (!entry) throw new Error(`seed --remote: ${file} has no D1 binding ${JSON.stringify(binding)} in d1_databases`);
  if (entry.remote !== true) {
    throw new Error(`seed --remote: the D1 binding ${JSON.stringify(binding)} in ${file} is not marked remote; add "remote": true to its d1_databases entry (and its real database_id), then run again`);
  }
}

/**
 * Node's stand-in for workerd's `cloudflare:workers`, whose `env` is the platform proxy's (the configuration's vars and
 * the secrets of `.dev.vars`): recordflare reads a plugin's secrets there (`encrypts`' keys), as in the Worker.
 */
function provideWorkerEnv(env: Record<string, unknown>): void {
  const key = "recordflare.seedEnv";
  (globalThis as Record<symbol, unknown>)[Symbol.for(key)] = env;
  const workersModule = `data:text/javascript,export const env = globalThis[Symbol.for("${key}")];`;
  const hooks = `export function resolve(specifier, context, next) {
  return specifier === "cloudflare:workers" ? { shortCircuit: true, url: ${JSON.stringify(workersModule)} } : next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** The `seed` command. */
export const seedCommand = defineCommand({
  meta: {
    name: "seed",
    description: `Run the seeds file (${SEEDS_FILE}: export default async function seed({ db, env })) against the local D1 that wrangler dev uses, or the remote one`,
  },
  args: {
    cwd: cwdArg,
    file: { type: "string", description: `The seeds file (default: ${SEEDS_FILE})`, valueHint: "path" },
    binding: { type: "string", description: "The D1 binding to seed (default: DB)", valueHint: "name" },
    config: { type: "string", description: "The wrangler configuration (default: the app's wrangler.jsonc, wrangler.json or wrangler.toml)", valueHint: "path" },
    remote: { type: "boolean", description: "Seed the remote database (the binding must be marked remote in the wrangler configuration)" },
  },
  async run({ args }) {
    const root = path.resolve(args.cwd ?? ".");
    const seedsFile = path.resolve(root, args.file ?? SEEDS_FILE);
    if (!existsSync(seedsFile)) throw new Error(`seed: no seeds file at ${path.relative(root, seedsFile)}; write one that exports default async function seed({ db, env })`);
    const binding = args.binding ?? "DB";
    const folder = mkdtempSync(path.join(root, "node_modules", ".recordflare-seed-"));
    try {
      const runner = await bundledRunner(root, seedsFile, folder);
      const wrangler = await appPackage<Wrangler>(root, "wrangler", "npm install --save-dev wrangler");
      const configPath = configPathOf(root, args.config);
      if (args.remote) checkRemoteBinding(wrangler, configPath, binding);
      const proxy = await wrangler.getPlatformProxy({ configPath, ...(args.remote ? { remoteBindings: true } : {}) });
      try {
        const d1 = proxy.env[binding];
        if (!d1) throw new Error(`seed: the wrangler configuration has no binding ${JSON.stringify(binding)}`);
        provideWorkerEnv(proxy.env);
        const { default: run } = (await import(pathToFileURL(runner).href)) as { default: (binding: unknown, env: unknown) => Promise<unknown> };
        await run(d1, proxy.env);
      } finally {
        await proxy.dispose();
      }
      console.log(`seeded     ${binding} (${args.remote ? "remote" : "local"}) from ${path.relative(root, seedsFile)}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
});
