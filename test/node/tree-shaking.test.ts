import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const distIndex = `${dist}index.mjs`;

/** Bundles a Worker the way wrangler does (esbuild, ESM, minified) from source text that imports the built package. */
async function bundle(source: string, { keepNames = false } = {}): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    minify: true,
    keepNames,
    format: "esm",
    platform: "neutral",
    external: ["cloudflare:*", "node:*"],
    alias: { recordflare: distIndex },
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The modules of the built package that a Worker bundled from `source` carries, as paths inside dist/. */
async function bundledModules(source: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    external: ["cloudflare:*", "node:*"],
    alias: { recordflare: distIndex },
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // The output's inputs, not the metafile's: those list every module read, also the ones tree-shaking dropped.
  const [output] = Object.values(result.metafile.outputs);
  return Object.keys(output!.inputs)
    .map((input) => relative(dist, input))
    .filter((input) => !input.startsWith(".."));
}

const WORKER_BODY = `
class User extends defineApplicationRecord({ users: { id: "string", name: "string", createdAt: "datetime", updatedAt: "datetime" } }, AppBase)("users") {}
export default { fetch: async (request, env) => Response.json(await connect(env.DB).model(User).create({ name: "x" })) };
`;

// Each string below is a message only one built-in plugin contains. The association slot's message sits in a
// module whose top level calls functions: it is dropped only because dist keeps one module per source file.
const VALIDATIONS = "validates takes an attribute name";
const ASSOCIATIONS = "has no association";
const ASSOCIATION_SLOT = "load() first, or query with includes";
const PERMITTING = "permit takes a plain object";
const TABLE_NAMING = "equipment";
const CALCULATIONS = "to count the rows where an attribute is set";
const COMBINING = "differ only in conditions";
const ENCRYPTS = "no condition can match its ciphertext";
// What the association plugins do, which only a declaration (hasMany, hasOne, belongsTo) brings into a bundle.
const ASSOCIATION_WORK = {
  slot: "association used on a record made with new",
  counts: "only a hasMany's records are counted",
  counterCaches: "keeps no counter cache",
  dependents: "Cannot delete record because",
};
// The modules of the association plugins themselves: their registration, which forwards to the work once installed,
// and the wraps of Relation build and create, which read an entry only an association's Relation holds.
const ASSOCIATION_PLUGIN_MODULES = ["association-counts-plugin", "association-relation", "counter-caches-plugin", "counter-column", "installation", "plugin"].map((name) => `plugins/associations/${name}.mjs`);
// The Relation and record methods of the default set's plugins, and what only the Models' app code calls.
const DEFAULT_SET_EXTRAS = {
  lastRecord: "cannot reverse an order given as an sql fragment",
  queryPlans: "EXPLAIN QUERY PLAN",
  changeTracking: "from or to is undefined",
  findMany: "no records with",
  recordPrinting: " (destroyed)",
  counters: "a counter is an integer attribute",
  aggregates: "a number attribute (integer or real)",
  batches: "reads by primary key: the Relation takes no order",
  findOrCreate: "a plain object of the attributes only a new record gets",
  destroyAll: "narrow with where(...) first, or use destroyBy",
};
// What only plugins install: the planning of records' writes and the statements hooks add around any write
// (installWritePlans), the changes guard (installChangesGuard), the checks of Relation.with (installRelationChecks).
const PLUGIN_INSTALLED_CHECKS = {
  writePlans: "a write:plan hook left none",
  writeExtras: "a write:plan hook reads the keys written",
  whereTerms: "a write's where terms are sql fragments",
  changesGuard: "recordflare changes guard",
  relationChecks: "is not an entry of a Relation's description",
};
// The modules of the plugins outside the default set, and of the entries that are not the Worker's (the CLI and
// testing run in Node, the web helpers are what an app's request handling imports).
const OPTIONAL_PLUGIN_MODULES = ["plugins/audit-log.mjs", "plugins/encrypts.mjs", "plugins/encrypts-subclasses.mjs", "plugins/multi-tenancy.mjs", "plugins/optimistic-locking.mjs", "plugins/soft-delete.mjs"];
const OTHER_ENTRIES = /^(cli|testing|web)\/|^(cli|hono|plugin|testing|testing-config)\.mjs$/;
const APP_CODE_CHECKS = {
  "sql`...`": "an sql fragment takes null",
  comparisons: "use null, which matches nothing",
};
// The checks defineStatement runs on a plugin's own SQL: the default set's reads of a Relation (pluck, the aggregates)
// make their Statements with compiledStatement, so only an association brings these in.
const DEFINE_STATEMENT_CHECKS = "defineStatement: sql";

describe("bundling the built package", () => {
  it("drops the plugins a Worker built on Base does not register", async () => {
    const code = await bundle(`import { Base, connect, defineApplicationRecord, idGeneration, timestamps } from "recordflare";
      class AppBase extends Base { static { this.use(idGeneration, timestamps); } }
      ${WORKER_BODY}`);
    // Compared as booleans: a failure would otherwise print the whole bundle.
    expect(code.includes("createdAt")).toBe(true);
    expect(code.includes(VALIDATIONS)).toBe(false);
    expect(code.includes(ASSOCIATIONS)).toBe(false);
    expect(code.includes(PERMITTING)).toBe(false);
    expect(code.includes(ASSOCIATION_SLOT)).toBe(false);
    expect(code.includes(TABLE_NAMING)).toBe(false);
    expect(code.includes(CALCULATIONS)).toBe(false);
    expect(code.includes(COMBINING)).toBe(false);
    for (const [plugin, text] of Object.entries(DEFAULT_SET_EXTRAS)) expect(code.includes(text), plugin).toBe(false);
    for (const [maker, text] of Object.entries(APP_CODE_CHECKS)) expect(code.includes(text), maker).toBe(false);
    for (const [check, text] of Object.entries(PLUGIN_INSTALLED_CHECKS)) expect(code.includes(text), check).toBe(false);
  });

  it("refuses a record's write that a hook plans when nothing installed the write plans, naming the Model", async () => {
    const code = await bundle(
      `import { Base, defineApplicationRecord, idGeneration, timestamps } from "recordflare";
      class AppBase extends Base { static { this.use(idGeneration, timestamps); } }
      class User extends defineApplicationRecord({ users: { id: "string", name: "string", createdAt: "datetime", updatedAt: "datetime" } }, AppBase)("users") {
        static { this.hook("write:plan", () => {}); }
      }
      export const save = () => User.build({ name: "x" }).save();`,
      { keepNames: true },
    );
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.writePlans)).toBe(false);
    // The refusal comes before the save looks for a database, so the bundle runs here without one.
    const worker = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as { save(): Promise<boolean> };
    await expect(worker.save()).rejects.toThrow(new TypeError("User: a write:prepare, write:plan or write:outcome hook needs installWritePlans() (plugin API), called in its plugin's setup"));
  });

  it.each([
    {
      hook: `this.hook("write:plan", (plan) => plan.after(() => sql\`SELECT 1\`))`,
      write: `User.toInsertAll([{ name: "x" }])`,
      message: "User.insertAll: a write:plan hook added statements",
    },
    {
      hook: `this.hook("write:plan", (plan) => void plan.where.push(sql\`\${column("name")} IS NOT NULL\`))`,
      write: `User.all().toDeleteAll()`,
      message: "User.deleteAll: a write:plan hook added where terms",
    },
    {
      hook: `this.hook("write:outcome", () => {})`,
      write: `User.where({ name: "x" }).toUpdateAll({ name: "y" })`,
      message: "User.updateAll: a write:outcome hook awaits its outcome",
    },
  ])("refuses a bulk write ($message) when nothing installed the write plans, naming the Model", async ({ hook, write, message }) => {
    const code = await bundle(
      `import { Base, bulkWrites, column, defineApplicationRecord, sql } from "recordflare";
      class AppBase extends Base { static { this.use(bulkWrites); } }
      class User extends defineApplicationRecord({ users: { id: "integer", name: "string" } }, AppBase)("users") {
        static { ${hook}; }
      }
      export const write = () => ${write};`,
      { keepNames: true },
    );
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.writeExtras)).toBe(false);
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.whereTerms)).toBe(false);
    const worker = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as { write(): unknown };
    expect(() => worker.write()).toThrow(new TypeError(`${message}, which needs installWritePlans() (plugin API), called in its plugin's setup`));
  });

  it("refuses Relation.with when nothing installed its checks, naming the Model", async () => {
    const code = await bundle(
      `import { Base, defineApplicationRecord } from "recordflare";
      class User extends defineApplicationRecord({ users: { id: "string", name: "string" } }, Base)("users") {}
      export const limited = () => User.all().with({ limit: 1 });`,
      { keepNames: true },
    );
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.relationChecks)).toBe(false);
    const worker = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as { limited(): unknown };
    expect(() => worker.limited()).toThrow(
      new TypeError("User: Relation.with needs installRelationChecks() (plugin API), called in the setup of the plugin that calls it"),
    );
  });

  it("bundles the checks of Relation.with with each built-in plugin that calls it, registered alone on Base", async () => {
    for (const plugin of ["batches", "combining", "defaultScopes", "destroyAll", "lastRecord", "pagination"]) {
      const code = await bundle(`import { Base, ${plugin} } from "recordflare";
        export class Registered extends Base { static { this.use(${plugin}); } }`);
      expect(code.includes(PLUGIN_INSTALLED_CHECKS.relationChecks), plugin).toBe(true);
    }
  });

  it("keeps every built-in plugin in a Worker built on ActiveRecord", async () => {
    const code = await bundle(`import { ActiveRecord, connect, defineApplicationRecord, hasMany } from "recordflare";
      class AppBase extends ActiveRecord {}
      class Post extends defineApplicationRecord({ posts: { id: "string", userId: "string" } }, AppBase)("posts") {}
      class Author extends defineApplicationRecord({ users: { id: "string" } }, AppBase)("users") { posts = hasMany(Post) }
      export const authors = () => Author.includes("posts").toArray();
      ${WORKER_BODY}`);
    expect(code.includes(VALIDATIONS)).toBe(true);
    expect(code.includes(ASSOCIATIONS)).toBe(true);
    expect(code.includes(PERMITTING)).toBe(true);
    expect(code.includes(TABLE_NAMING)).toBe(true);
    expect(code.includes(CALCULATIONS)).toBe(true);
    expect(code.includes(COMBINING)).toBe(true);
    for (const [plugin, text] of Object.entries(DEFAULT_SET_EXTRAS)) expect(code.includes(text), plugin).toBe(true);
    expect(code.includes(ASSOCIATION_WORK.slot)).toBe(true);
    expect(code.includes(ASSOCIATION_WORK.counts)).toBe(true);
    expect(code.includes(ASSOCIATION_WORK.counterCaches)).toBe(true);
    // The associations' own Statements are made with defineStatement, checks and all.
    expect(code.includes(DEFINE_STATEMENT_CHECKS)).toBe(true);
    // Counter caches (a default plugin) plan writes, and several default plugins call Relation.with.
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.writePlans)).toBe(true);
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.writeExtras)).toBe(true);
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.whereTerms)).toBe(true);
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.relationChecks)).toBe(true);
    // No default plugin demands a number of changed rows: the changes guard stays out.
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.changesGuard)).toBe(false);
    // An optional plugin is not in the default set: a Worker that registers none carries none of it.
    expect(code.includes(ENCRYPTS)).toBe(false);
  });

  it("leaves what associations do out of a Worker on ActiveRecord whose Models declare none", async () => {
    const source = `import { ActiveRecord, connect, defineApplicationRecord } from "recordflare";
      class AppBase extends ActiveRecord {}
      ${WORKER_BODY}`;
    const code = await bundle(source);
    for (const [part, text] of Object.entries(ASSOCIATION_WORK)) expect(code.includes(text), part).toBe(false);
    // The association plugins are registered all the same (with their refusal while none is declared), as the rest.
    expect(code.includes("has no associations (hasMany, hasOne or belongsTo)")).toBe(true);
    expect(code.includes(VALIDATIONS)).toBe(true);
    // No default plugin writes an sql`...` fragment (counters build theirs with fragmentOf): its checks stay out.
    expect(code.includes(APP_CODE_CHECKS["sql`...`"])).toBe(false);
    expect(code.includes(DEFINE_STATEMENT_CHECKS)).toBe(false);
    // No default plugin adds statements around a write: their placing (and a bulk insert's keys) stays out.
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.writeExtras)).toBe(false);
    expect(code.includes(PLUGIN_INSTALLED_CHECKS.whereTerms)).toBe(false);
    const associationModules = (await bundledModules(source)).filter((module) => module.startsWith("plugins/associations/"));
    expect(associationModules.sort()).toEqual(ASSOCIATION_PLUGIN_MODULES);
  });

  it("leaves the optional plugins, the CLI, testing and web modules out of a Worker built on ActiveRecord", async () => {
    const modules = await bundledModules(`import { ActiveRecord, connect, defineApplicationRecord } from "recordflare";
      class AppBase extends ActiveRecord {}
      ${WORKER_BODY}`);
    expect(modules).toContain("plugins/default-plugins.mjs");
    expect(modules.filter((module) => OPTIONAL_PLUGIN_MODULES.includes(module))).toEqual([]);
    expect(modules.filter((module) => OTHER_ENTRIES.test(module))).toEqual([]);
  });

  it("checks the module of every plugin the package exports outside the default set", async () => {
    const exported = (await import(distIndex)) as Record<string, unknown> & { defaultPlugins: readonly unknown[] };
    const isPlugin = (value: unknown): value is { name: string } => typeof value === "object" && value !== null && "name" in value && ("hooks" in value || "setup" in value);
    const optional = Object.values(exported).filter((value) => isPlugin(value) && !exported.defaultPlugins.includes(value));
    expect(optional.length).toBeGreaterThan(0);
    for (const plugin of optional as { name: string }[]) expect(OPTIONAL_PLUGIN_MODULES, plugin.name).toContain(`plugins/${plugin.name}.mjs`);
  });
});
