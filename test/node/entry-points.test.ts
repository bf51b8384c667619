// The package's two entries as an installed app sees them: `recordflare` exports what apps use, and
// `recordflare/plugin` the plugin API. Checked on the packed package, at run time and with TypeScript (bundler and
// Node16 resolution, and the `typesVersions` of an older resolution), including a `ValidatorOptions` augmentation.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./helpers/cli-app.js";
import { installPackedLibrary, linkFromRepository, shIn } from "./helpers/packed-package.js";

let folder: string;
let appFolder: string;

/** Internals of the plugin API that the main entry must not export. */
const PLUGIN_INTERNALS = ["ParamWriter", "selectParts", "databaseForBatch", "definePlugin", "defineModelState", "compileSelect", "valuesToWrite", "Relation"];

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), "recordflare-entries-"));
  appFolder = path.join(folder, "app");
  mkdirSync(appFolder);
  writeFileSync(path.join(appFolder, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  installPackedLibrary(folder, appFolder);
  linkFromRepository(appFolder, "typescript", { name: "tsc", file: "bin/tsc" });
  linkFromRepository(appFolder, "@cloudflare/workers-types");
}, 120_000);

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const RUNTIME_PROBE = `
const main = await import("recordflare");
const plugin = await import("recordflare/plugin");
console.log(JSON.stringify({
  pluginApi: ["definePlugin", "ParamWriter", "selectParts", "databaseForBatch", "Statement", "defineModelState"].filter((name) => typeof plugin[name] === "function"),
  internalsInMain: ${JSON.stringify(PLUGIN_INTERNALS)}.filter((name) => name in main),
  appApi: ["Model", "ActiveRecord", "Base", "connect", "batch", "defineValidator", "validations", "RecordNotFound"].filter((name) => main[name] !== undefined),
  oneKernel: main.Base === plugin.Base && main.RecordNotFound === plugin.RecordNotFound,
}));
`;

// A plugin file and an app file as their authors write them; each @ts-expect-error must be needed.
const PLUGIN_SOURCE = `import { definePlugin, ParamWriter, Statement, type ModelHooks, type SaveContext } from "recordflare/plugin";

const writer = new ParamWriter();
export const probe: Statement<unknown> = new Statement({ sql: "SELECT " + writer.bind(1), params: writer.params }, undefined, "rows", (rows) => rows);
const beforeSave: ModelHooks["record:beforeSave"] = (context: SaveContext) => void context.record;
export const stamp = definePlugin({ name: "stamp", hooks: { "record:beforeSave": beforeSave } });
`;

const APP_SOURCE = `import { ActiveRecord, defineApplicationRecord, defineValidator, type ValidatorOption } from "recordflare";
import { stamp } from "./plugin.js";

declare module "recordflare" {
  interface ValidatorOptions<T> {
    slug?: ValidatorOption;
  }
}

const slug = defineValidator("slug", {
  validate: ({ value, report }) => {
    if (typeof value !== "string" || !/^[a-z0-9-]+$/.test(value)) report("invalid", "is not a slug");
  },
});

class ApplicationBase extends ActiveRecord {
  static {
    this.use(stamp, slug);
  }
}

const ApplicationRecord = defineApplicationRecord({ posts: { id: "string", title: "string" } }, ApplicationBase);

export class Post extends ApplicationRecord("posts") {
  static {
    this.validates("title", { slug: true });
    // @ts-expect-error no check is registered as slugg
    this.validates("title", { slugg: true });
  }
}

// @ts-expect-error the main entry does not export the plugin internals
import { ParamWriter } from "recordflare";
// @ts-expect-error the main entry does not export the plugin internals
import { selectParts } from "recordflare";
// @ts-expect-error the main entry does not export the plugin internals
import { databaseForBatch } from "recordflare";
// @ts-expect-error the main entry does not export the plugin internals
import { definePlugin } from "recordflare";
export const unused = [ParamWriter, selectParts, databaseForBatch, definePlugin];
`;

/** The first TypeScript example of a section of the guide's plugins chapter, as the guide prints it. */
function guideExample(heading: string): string {
  const guide = readFileSync(path.join(root, "docs/guide/plugins.md"), "utf8");
  const section = guide.slice(guide.indexOf(`\n${heading}\n`));
  const example = /```ts\n([\s\S]*?)```/.exec(section);
  if (!example) throw new Error(`docs/guide/plugins.md has no TypeScript example under ${heading}`);
  return example[1]!;
}

// An app using the guide's typed plugin: its methods and the built-in plugins' methods are all typed on the Model.
const TYPED_PLUGIN_APP_SOURCE = `import { ActiveRecord, defineApplicationRecord, type Page, type RelationOf } from "recordflare";
import { chronological } from "./chronological.js";

class ApplicationBase extends ActiveRecord {
  static {
    this.use(chronological);
  }
}

const ApplicationRecord = defineApplicationRecord({ posts: { id: "integer", title: "string", createdAt: "datetime" } }, ApplicationBase);

export class Post extends ApplicationRecord("posts") {
  static {
    this.validates("title", { presence: true });
    // @ts-expect-error validates takes the Model's attribute names
    this.validates("titel", { presence: true });
  }
}

export const oldestFirst: RelationOf<typeof Post> = Post.chronological();
export const chained: RelationOf<typeof Post> = Post.where({ title: "a" }).chronological().limit(2);
// @ts-expect-error the plugin's method takes what it declares
Post.chronological(1);
export const page: Promise<Page<Post>> = Post.chronological().paginate({ page: 1 });
export const preloaded: RelationOf<typeof Post> = Post.includes();
export const renamed: Promise<number> = Post.where({ id: 1 }).updateAll({ title: "b" });
// @ts-expect-error updateAll takes the Model's attributes
Post.updateAll({ titel: "b" });
export const titles: Promise<(string | null)[]> = Post.pluck("title");
`;

// An app using the guide's attribute type: the plugin's name is a type name, and its attributes have its types.
const TYPED_ATTRIBUTE_APP_SOURCE = `import { ActiveRecord, defineApplicationRecord, gt } from "recordflare";
import { type Money, moneyType } from "./money.js";

class ApplicationBase extends ActiveRecord {
  static {
    this.use(moneyType);
  }
}

const ApplicationRecord = defineApplicationRecord({ products: { id: "integer", name: "string", price: "integer" } }, ApplicationBase);

export class Product extends ApplicationRecord("products", { price: "money" }) {}

export const price: Money | null = Product.build({ price: "19.99" }).price;
export const json: string | null | undefined = Product.build().toJSON().price;
export const cheap = Product.where({ price: gt({ cents: 1000 }) });
export const prices: Promise<(Money | null)[]> = Product.pluck("price");
// @ts-expect-error a number is neither Money nor its text
Product.build({ price: 19.99 });
// @ts-expect-error an unknown type name is not an override
ApplicationRecord("products", { price: "dollars" });
`;

/** The compiler's complaints about the app's sources (in `sources`) with these options: "" when they type-check. */
function typecheck(compilerOptions: Record<string, unknown>, sources = "src"): string {
  const options = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2023"], types: ["@cloudflare/workers-types"], ...compilerOptions };
  writeFileSync(path.join(appFolder, "tsconfig.json"), JSON.stringify({ compilerOptions: options, include: [sources] }));
  try {
    return shIn(appFolder, "node_modules/.bin/tsc", "-p", "tsconfig.json");
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

describe("the packed package's entries", () => {
  it("recordflare/plugin exports the plugin API; recordflare exports the app's API and none of the plugin internals", () => {
    writeFileSync(path.join(appFolder, "probe.mjs"), RUNTIME_PROBE);
    const report = JSON.parse(shIn(appFolder, process.execPath, "probe.mjs")) as Record<string, unknown>;
    expect(report).toEqual({
      pluginApi: ["definePlugin", "ParamWriter", "selectParts", "databaseForBatch", "Statement", "defineModelState"],
      internalsInMain: [],
      appApi: ["Model", "ActiveRecord", "Base", "connect", "batch", "defineValidator", "validations", "RecordNotFound"],
      oneKernel: true,
    });
  });

  it("both entries type-check as an app and a plugin use them, under each module resolution", () => {
    mkdirSync(path.join(appFolder, "src"), { recursive: true });
    writeFileSync(path.join(appFolder, "src/plugin.ts"), PLUGIN_SOURCE);
    writeFileSync(path.join(appFolder, "src/app.ts"), APP_SOURCE);
    expect(typecheck({ module: "ESNext", moduleResolution: "bundler" })).toBe("");
    expect(typecheck({ module: "Node16", moduleResolution: "node16" })).toBe("");
    // Resolutions that ignore package.json exports find the plugin entry through typesVersions.
    expect(typecheck({ module: "ESNext", moduleResolution: "node10" })).toBe("");
  }, 120_000);

  it("the guide's typed plugin (augmenting recordflare/plugin, or recordflare) keeps the built-in plugins' methods typed, under each module resolution", () => {
    const sources = path.join(appFolder, "typed-plugin");
    mkdirSync(sources, { recursive: true });
    writeFileSync(path.join(sources, "chronological.ts"), guideExample("### Typing a plugin's methods"));
    writeFileSync(path.join(sources, "app.ts"), TYPED_PLUGIN_APP_SOURCE);
    expect(typecheck({ module: "ESNext", moduleResolution: "bundler" }, "typed-plugin")).toBe("");
    expect(typecheck({ module: "Node16", moduleResolution: "node16" }, "typed-plugin")).toBe("");
    expect(typecheck({ module: "ESNext", moduleResolution: "node10" }, "typed-plugin")).toBe("");
    // The main entry re-exports the same interfaces: augmenting it merges into them too.
    const onMainEntry = guideExample("### Typing a plugin's methods").replace('declare module "recordflare/plugin"', 'declare module "recordflare"');
    expect(onMainEntry).toContain('declare module "recordflare" {');
    writeFileSync(path.join(sources, "chronological.ts"), onMainEntry);
    expect(typecheck({ module: "ESNext", moduleResolution: "bundler" }, "typed-plugin")).toBe("");
  }, 120_000);

  it("the guide's attribute type (augmenting recordflare) types the attributes declared with it, under each module resolution", () => {
    const sources = path.join(appFolder, "typed-attribute");
    mkdirSync(sources, { recursive: true });
    writeFileSync(path.join(sources, "money.ts"), guideExample("### Adding an attribute type"));
    writeFileSync(path.join(sources, "app.ts"), TYPED_ATTRIBUTE_APP_SOURCE);
    expect(typecheck({ module: "ESNext", moduleResolution: "bundler" }, "typed-attribute")).toBe("");
    expect(typecheck({ module: "Node16", moduleResolution: "node16" }, "typed-attribute")).toBe("");
    expect(typecheck({ module: "ESNext", moduleResolution: "node10" }, "typed-attribute")).toBe("");
  }, 120_000);
});
