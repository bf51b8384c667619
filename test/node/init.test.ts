// `recordflare init` in temporary folders: a new project, an existing Worker project whose files are kept, the
// compatibility date of the installed wrangler, and what is refused. The built `dist/cli.mjs` runs as users run it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import jsonc from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { TESTED_COMPATIBILITY_DATE } from "../../src/cli/init/compatibility-date.js";
import { app, ok, read, root, run } from "./helpers/cli-app.js";

function write(folder: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
  writeFileSync(path.join(folder, file), text);
}

function files(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found[path.relative(folder, path.join(entry.parentPath, entry.name))] = read(folder, path.relative(folder, path.join(entry.parentPath, entry.name)));
  }
  return found;
}

function wranglerSettings(folder: string, file = "wrangler.jsonc"): any {
  const errors: jsonc.ParseError[] = [];
  const settings = jsonc.parse(read(folder, file), errors, { allowTrailingComma: true });
  expect(errors).toEqual([]);
  return settings;
}

// Installs a fake wrangler whose workerd is of the given version, as npm lays them out.
function installWrangler(folder: string, workerdVersion: string): void {
  write(folder, "node_modules/wrangler/package.json", JSON.stringify({ name: "wrangler", version: "4.99.0" }));
  write(folder, "node_modules/wrangler/node_modules/workerd/package.json", JSON.stringify({ name: "workerd", version: workerdVersion }));
}

const OUTPUT_OF_A_NEW_PROJECT = `create     wrangler.jsonc
create     package.json
create     tsconfig.json
create     src/db/schema.ts
create     src/models/application-record.ts
create     src/index.ts
create     vitest.config.ts
create     test/setup.ts
create     test/env.d.ts
create     test/database.test.ts
create     .gitignore
create     migrations/
`;

describe("recordflare init in an empty folder", () => {
  it("writes a project and says so, one line a file as g model does", () => {
    const folder = app();
    const output = ok(folder, "init");
    expect(output.startsWith(OUTPUT_OF_A_NEW_PROJECT)).toBe(true);
    expect(output).toContain("npm run db:migrate");
    const settings = wranglerSettings(folder);
    expect(settings.main).toBe("src/index.ts");
    expect(settings.compatibility_flags).toEqual(["nodejs_compat"]);
    expect(settings.compatibility_date).toBe("2026-11-01");
    expect(settings.d1_databases).toEqual([
      { binding: "DB", database_name: path.basename(folder).toLowerCase(), database_id: "00000000-0000-4000-8000-000000000000", migrations_dir: "migrations" },
    ]);
    expect(read(folder, "wrangler.jsonc")).toContain(`// A placeholder, enough for local work (--local). To deploy, run \`npx wrangler d1 create`);
    const manifest = JSON.parse(read(folder, "package.json"));
    expect(manifest.scripts).toEqual({ dev: "wrangler dev", "db:migrate": "wrangler d1 migrations apply DB --local", typecheck: "tsc", test: "vitest run" });
    expect(manifest.type).toBe("module");
    expect(Object.keys(manifest.dependencies)).toEqual(["recordflare"]);
    expect(read(folder, ".gitignore").split("\n")).toEqual(["node_modules/", ".wrangler/", ".dev.vars*", ""]);
    expect(Object.keys(manifest.devDependencies)).toEqual(["wrangler", "typescript", "@cloudflare/workers-types", "vitest", "@cloudflare/vitest-plugin"]);
    // npm 11 runs the install scripts of the packages its allowScripts policy lists without a notice.
    expect(manifest.allowScripts).toEqual({ esbuild: true, workerd: true });
    expect(read(folder, "vitest.config.ts")).toContain(`readMigrations({ config: "./wrangler.jsonc" })`);
    expect(read(folder, "test/setup.ts")).toContain("await applyMigrations(env.DB, env.TEST_MIGRATIONS, { table: env.TEST_MIGRATIONS_TABLE });");
    expect(JSON.parse(read(folder, "tsconfig.json")).compilerOptions.types).toEqual(["@cloudflare/workers-types"]);
    expect(read(folder, "src/db/schema.ts")).toContain("export const schema = {} as const;");
    expect(read(folder, "src/models/application-record.ts")).toContain("defineApplicationRecord(schema, ApplicationBase)");
    expect(read(folder, "src/index.ts")).toContain("withDatabase(connect(env.DB)");
  });

  it("prints what the guide's New project section shows", () => {
    const guide = read(root, "docs/guide/getting-started.md");
    const section = guide.slice(guide.indexOf("### `npx recordflare init`"));
    expect(/```text\n([\s\S]*?)```/.exec(section)![1]).toBe(OUTPUT_OF_A_NEW_PROJECT);
  });

  it("run again, changes nothing and says identical", () => {
    const folder = app();
    ok(folder, "init");
    const before = files(folder);
    const output = ok(folder, "init");
    expect(output.split("\n\n")[0]).toBe(OUTPUT_OF_A_NEW_PROJECT.replaceAll("create   ", "identical").trimEnd());
    expect(files(folder)).toEqual(before);
  });

  it("leaves the base class and the schema to g model, which then adds the Model", () => {
    const folder = app();
    ok(folder, "init");
    expect(ok(folder, "g", "model", "User", "name:string!")).toBe(
      "create     migrations/0001_create_users.sql\ncreate     src/models/user.ts\nupdate     src/db/schema.ts\n",
    );
  });

  it("names the Worker and database after the package when there is one", () => {
    const folder = app();
    write(folder, "package.json", `{ "name": "@acme/Blog App" }`);
    ok(folder, "init");
    expect(wranglerSettings(folder).name).toBe("blog-app");
  });
});

describe("recordflare init: the compatibility date", () => {
  it("is the date recordflare is tested with when package.json gets the tested wrangler and Workers Vitest integration", () => {
    const folder = app();
    ok(folder, "init");
    expect(wranglerSettings(folder).compatibility_date).toBe(TESTED_COMPATIBILITY_DATE);
    expect(read(folder, "wrangler.jsonc")).toContain("// compatibility_date: the date recordflare is tested with, which the wrangler and @cloudflare/vitest-plugin added to package.json support.");
    // The date the library's own tests run at.
    expect(read(root, "vitest.config.ts")).toContain(`export const compatibilityDate = "${TESTED_COMPATIBILITY_DATE}";`);
  });

  it("is one every wrangler 4 supports when package.json already names a wrangler that is not installed", () => {
    const folder = app();
    write(folder, "package.json", `{ "name": "blog", "devDependencies": { "wrangler": "^4.0.0" } }`);
    ok(folder, "init");
    expect(wranglerSettings(folder).compatibility_date).toBe("2025-03-01");
  });

  it("is the newest the installed wrangler's workerd supports", () => {
    const folder = app();
    installWrangler(folder, "1.20250505.0");
    ok(folder, "init");
    expect(wranglerSettings(folder).compatibility_date).toBe("2025-05-05");
    expect(read(folder, "wrangler.jsonc")).toContain("// compatibility_date: the newest the installed workerd 1.20250505.0 supports.");
  });

  it("is today's when the installed workerd is newer, since a later date is refused on deploy", () => {
    const folder = app();
    installWrangler(folder, "1.29991231.0");
    ok(folder, "init");
    expect(wranglerSettings(folder).compatibility_date).toBe(new Date().toISOString().slice(0, 10));
  });

  it("is no newer than the Workers Vitest integration's workerd (through miniflare), so that the first test runs", () => {
    const folder = app();
    installWrangler(folder, "1.20250707.0");
    write(folder, "node_modules/@cloudflare/vitest-plugin/package.json", JSON.stringify({ name: "@cloudflare/vitest-plugin", version: "1.5.0" }));
    write(folder, "node_modules/miniflare/package.json", JSON.stringify({ name: "miniflare", version: "4.0.0" }));
    write(folder, "node_modules/workerd/package.json", JSON.stringify({ name: "workerd", version: "1.20250606.1" }));
    ok(folder, "init");
    expect(wranglerSettings(folder).compatibility_date).toBe("2025-06-06");
    expect(read(folder, "wrangler.jsonc")).toContain("// compatibility_date: the newest the installed workerd 1.20250606.1 supports.");
  });

  it("is read from a workerd installed beside wrangler, found from a folder above", () => {
    const folder = app();
    write(folder, "node_modules/wrangler/package.json", JSON.stringify({ name: "wrangler", version: "4.99.0" }));
    write(folder, "node_modules/workerd/package.json", JSON.stringify({ name: "workerd", version: "1.20250606.1" }));
    mkdirSync(path.join(folder, "worker"));
    ok(path.join(folder, "worker"), "init");
    expect(wranglerSettings(path.join(folder, "worker")).compatibility_date).toBe("2025-06-06");
  });

  it("of an existing configuration is kept, with a note when the installed wrangler would refuse it", () => {
    const folder = app();
    installWrangler(folder, "1.20260503.0");
    write(folder, "wrangler.jsonc", `{ "name": "x", "main": "src/index.ts", "compatibility_date": "2026-11-01" }\n`);
    const output = ok(folder, "init");
    expect(output).toContain(
      "skip       wrangler.jsonc (compatibility_date 2026-11-01 is later than 2026-05-03, the newest the installed workerd 1.20260503.0 supports: wrangler will refuse it)",
    );
    expect(wranglerSettings(folder).compatibility_date).toBe("2026-11-01");
  });
});

describe("recordflare init in an existing Worker project", () => {
  const WRANGLER = `{
  // The shop's Worker.
  "name": "shop",
  "main": "src/worker.ts",
  "compatibility_date": "2025-01-15",
  "compatibility_flags": ["global_fetch_strictly_public"], // kept
  "d1_databases": [{ "binding": "ANALYTICS", "database_name": "analytics", "database_id": "abc" }],
}
`;
  const MANIFEST = `{
    "name": "shop",
    "scripts": {
        "dev": "wrangler dev --port 9000",
        "build": "tsc"
    },
    "dependencies": {
        "hono": "^4.0.0"
    },
    "devDependencies": {
        "wrangler": "^4.1.0"
    }
}
`;

  it("adds only what is missing, keeps comments, layout and the user's settings, and never replaces a file", () => {
    const folder = app();
    write(folder, "wrangler.jsonc", WRANGLER);
    write(folder, "package.json", MANIFEST);
    write(folder, "src/worker.ts", "export default { fetch: () => new Response('shop') };\n");
    write(folder, "tsconfig.json", `{ "compilerOptions": { "strict": true } }\n`);
    write(folder, "src/models/application-record.ts", "// the shop's own base class\n");
    const output = ok(folder, "init");
    expect(output.split("\n\n")[0]!.split("\n")).toEqual([
      "update     wrangler.jsonc",
      'update     package.json ("type" is now "module", was unset: the Worker and its tests are ES modules)',
      "skip       package.json (script dev is kept; recordflare's would be `wrangler dev`)",
      "skip       tsconfig.json (exists, left as it is)",
      "create     src/db/schema.ts",
      "skip       src/models/application-record.ts (exists, left as it is)",
      "skip       src/worker.ts (exists, left as it is)",
      "create     vitest.config.ts",
      "create     test/setup.ts",
      "create     test/env.d.ts",
      "create     test/database.test.ts",
      "create     .gitignore",
      "create     migrations/",
    ]);
    const text = read(folder, "wrangler.jsonc");
    expect(text).toContain("// The shop's Worker.");
    expect(text).toContain("// A placeholder, enough for local work (--local). To deploy, run `npx wrangler d1 create shop`");
    const settings = wranglerSettings(folder);
    expect(settings.main).toBe("src/worker.ts");
    expect(settings.compatibility_date).toBe("2025-01-15");
    expect(settings.compatibility_flags).toEqual(["global_fetch_strictly_public", "nodejs_compat"]);
    expect(settings.d1_databases).toEqual([
      { binding: "ANALYTICS", database_name: "analytics", database_id: "abc" },
      { binding: "DB", database_name: "shop", database_id: "00000000-0000-4000-8000-000000000000", migrations_dir: "migrations" },
    ]);
    const manifest = read(folder, "package.json");
    expect(manifest).toMatch(/^\{\n {4}"name": "shop",\n {4}"scripts": \{\n {8}"dev": "wrangler dev --port 9000",/);
    expect(JSON.parse(manifest)).toEqual({
      name: "shop",
      type: "module",
      scripts: { dev: "wrangler dev --port 9000", build: "tsc", "db:migrate": "wrangler d1 migrations apply DB --local", typecheck: "tsc", test: "vitest run" },
      dependencies: { hono: "^4.0.0", recordflare: expect.stringMatching(/^\^0\./) },
      devDependencies: {
        wrangler: "^4.1.0",
        typescript: expect.any(String),
        "@cloudflare/workers-types": expect.any(String),
        vitest: expect.any(String),
        "@cloudflare/vitest-plugin": expect.any(String),
      },
      allowScripts: { esbuild: true, workerd: true },
    });
    expect(read(folder, "src/worker.ts")).toBe("export default { fetch: () => new Response('shop') };\n");
    expect(read(folder, "tsconfig.json")).toBe(`{ "compilerOptions": { "strict": true } }\n`);
    expect(read(folder, "src/models/application-record.ts")).toBe("// the shop's own base class\n");
  });

  it("adds migrations_dir to a DB binding without one, and notes one elsewhere", () => {
    const folder = app();
    write(folder, "wrangler.json", `{ "main": "src/index.ts", "compatibility_date": "2025-01-15", "compatibility_flags": ["nodejs_compat"], "d1_databases": [{ "binding": "DB", "database_id": "real" }] }`);
    ok(folder, "init");
    expect(wranglerSettings(folder, "wrangler.json").d1_databases).toEqual([{ binding: "DB", database_id: "real", migrations_dir: "migrations" }]);
    expect(files(folder)["wrangler.jsonc"]).toBeUndefined();

    const other = app();
    const config = `{ "main": "src/index.ts", "compatibility_date": "2025-01-15", "compatibility_flags": ["nodejs_compat"], "d1_databases": [{ "binding": "DB", "migrations_dir": "db/migrations" }] }`;
    write(other, "wrangler.jsonc", config);
    expect(ok(other, "init")).toContain(`skip       wrangler.jsonc (DB's migrations_dir is "db/migrations"; recordflare's generators write migrations/)`);
    expect(read(other, "wrangler.jsonc")).toBe(config);
  });

  it("leaves a wrangler.toml as it is and says what to add", () => {
    const folder = app();
    write(folder, "wrangler.toml", `name = "shop"\nmain = "src/index.ts"\n`);
    expect(ok(folder, "init")).toContain("skip       wrangler.toml (init edits only wrangler.jsonc or wrangler.json: add nodejs_compat and a D1 binding DB");
    expect(read(folder, "wrangler.toml")).toBe(`name = "shop"\nmain = "src/index.ts"\n`);
    expect(files(folder)["wrangler.jsonc"]).toBeUndefined();
  });

  it("leaves a package.json or wrangler.jsonc it cannot read as it is, and says so", () => {
    const folder = app();
    write(folder, "package.json", "{ not json");
    write(folder, "wrangler.jsonc", "[1, 2]");
    const output = ok(folder, "init");
    expect(output).toContain("skip       package.json (not a JSON object npm can read; left as it is)");
    expect(output).toContain("skip       wrangler.jsonc (not a JSON object wrangler can read; left as it is)");
    expect(read(folder, "package.json")).toBe("{ not json");
    expect(read(folder, "wrangler.jsonc")).toBe("[1, 2]");
  });
});

describe("recordflare init: a project that runs", () => {
  it("sets \"type\": \"module\" in place of npm init's commonjs, and says so", () => {
    const folder = app();
    write(folder, "package.json", `{\n  "name": "shop",\n  "version": "1.0.0",\n  "type": "commonjs"\n}\n`);
    const output = ok(folder, "init");
    expect(output).toContain(`update     package.json ("type" is now "module", was "commonjs": the Worker and its tests are ES modules)\n`);
    const manifest = JSON.parse(read(folder, "package.json"));
    expect(manifest.type).toBe("module");
    expect(Object.keys(manifest).slice(0, 3)).toEqual(["name", "version", "type"]);
    expect(ok(folder, "init")).toContain("identical  package.json\n");
  });

  it("adds the Workers types in the range the installed wrangler takes, and says why", () => {
    const folder = app();
    write(folder, "package.json", `{ "name": "shop", "type": "module", "devDependencies": { "wrangler": "^4.20.0" } }`);
    write(
      folder,
      "node_modules/wrangler/package.json",
      JSON.stringify({ name: "wrangler", version: "4.20.0", peerDependencies: { "@cloudflare/workers-types": "^4.20250604.0" } }),
    );
    const output = ok(folder, "init");
    expect(output).toContain("update     package.json (@cloudflare/workers-types ^4.20250604.0, the range the installed wrangler 4.20.0 takes)\n");
    expect(JSON.parse(read(folder, "package.json")).devDependencies).toEqual({
      wrangler: "^4.20.0",
      typescript: expect.any(String),
      "@cloudflare/workers-types": "^4.20250604.0",
      vitest: expect.any(String),
      "@cloudflare/vitest-plugin": expect.any(String),
    });
  });

  it("declares an installed wrangler it finds undeclared at its version, and says to upgrade one older than 4", () => {
    const folder = app();
    write(folder, "node_modules/wrangler/package.json", JSON.stringify({ name: "wrangler", version: "3.114.0" }));
    const output = ok(folder, "init");
    expect(output).toMatch(/^create {5}package\.json \(wrangler \^3\.114\.0, the version installed\)$/m);
    expect(output).toMatch(/^upgrade {4}wrangler \(3\.114\.0 is installed; recordflare needs wrangler 4: npm install --save-dev wrangler@\^4\.\d+\.\d+ @cloudflare\/workers-types@\^5\.\d+\.\d+\)$/m);
    expect(JSON.parse(read(folder, "package.json")).devDependencies.wrangler).toBe("^3.114.0");
  });

  it("writes the Worker template at the entry a wrangler.toml names, or adds main to what it says to add", () => {
    const folder = app();
    write(folder, "wrangler.toml", `name = "shop"\nmain = 'src/worker.ts' # the entry\n[vars]\nmain = "not/this.ts"\n`);
    const output = ok(folder, "init");
    expect(output).toContain("create     src/worker.ts\n");
    expect(read(folder, "src/worker.ts")).toContain("withDatabase(connect(env.DB)");
    expect(files(folder)["src/index.ts"]).toBeUndefined();
    expect(output).toContain("skip       wrangler.toml (init edits only wrangler.jsonc or wrangler.json: add nodejs_compat and a D1 binding DB");

    const other = app();
    write(other, "wrangler.toml", `name = "shop"\n[vars]\nmain = "not/this.ts"\n`);
    const added = ok(other, "init");
    expect(added).toContain(`skip       wrangler.toml (init edits only wrangler.jsonc or wrangler.json: add main = "src/index.ts", nodejs_compat`);
    expect(added).toContain("create     src/index.ts\n");
  });

  it("writes no Worker entry outside the app's folder", () => {
    const folder = app();
    write(folder, "wrangler.jsonc", `{ "name": "x", "main": "../elsewhere/index.ts" }`);
    const output = ok(folder, "init");
    expect(output).not.toContain("index.ts");
    expect(existsSync(path.join(folder, "../elsewhere/index.ts"))).toBe(false);
  });
});

describe("recordflare init refuses", () => {
  it("an unknown option, writing nothing", () => {
    const folder = app();
    const result = run(folder, "init", "--force");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("Error: Unknown option --force; see --help for the options.\n");
    expect(files(folder)).toEqual({});
  });

  it("a --cwd that is not a folder", () => {
    const result = run(app(), "init", "--cwd", "nowhere");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Error: .*nowhere is not a folder\.\n$/);
  });
});
