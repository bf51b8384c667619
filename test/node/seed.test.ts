// `recordflare seed`: the app's seeds file run with its Models against the local D1 that wrangler uses, through
// wrangler's platform proxy. Runs the built `dist/cli.mjs` in a temporary app folder, with the repository's wrangler.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { app, ok, root, run } from "./helpers/cli-app.js";

const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");

function write(folder: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
  writeFileSync(path.join(folder, file), text);
}

/** A project from init with a User Model, its packages linked as after npm install, and its migration applied. */
function seededApp(): string {
  const folder = app();
  ok(folder, "init");
  ok(folder, "g", "model", "User", "name:string!", "email:string:unique");
  mkdirSync(path.join(folder, "node_modules"), { recursive: true });
  for (const name of ["recordflare", "wrangler", "esbuild"]) {
    symlinkSync(name === "recordflare" ? root : path.join(root, "node_modules", name), path.join(folder, "node_modules", name), "dir");
  }
  const migrated = spawnSync(process.execPath, [wrangler, "d1", "migrations", "apply", "DB", "--local"], { cwd: folder, encoding: "utf8", env: { ...process.env, CI: "1" } });
  expect(migrated.status, migrated.stderr).toBe(0);
  return folder;
}

/** The rows of a table of the app's local D1, read with wrangler. */
function count(folder: string): number {
  const result = spawnSync(process.execPath, [wrangler, "d1", "execute", "DB", "--local", "--json", "--command", "SELECT COUNT(*) AS n FROM users"], { cwd: folder, encoding: "utf8" });
  return (JSON.parse(result.stdout) as { results: { n: number }[] }[])[0]!.results[0]!.n;
}

// 10,000 users in bulk, idempotent by key: D1's limits hold (insertAll binds rows as JSON values within them).
const SEEDS = `import { User } from "../models/user.js";

export default async function seed({ db }) {
  const users = Array.from({ length: 10_000 }, (_, n) => ({
    id: \`00000000-0000-4000-8000-\${String(n).padStart(12, "0")}\`,
    name: \`User \${n}\`,
    email: \`user\${n}@example.com\`,
  }));
  await User.upsertAll(users);
  console.log(\`users: \${await User.count()}, same database: \${db === (await import("recordflare")).currentDatabase()}\`);
}
`;

describe("recordflare seed", () => {
  it("runs src/db/seeds.ts with the app's Models on the local D1; run twice, upserts leave 10,000 rows", () => {
    const folder = seededApp();
    write(folder, "src/db/seeds.ts", SEEDS);
    for (let time = 0; time < 2; time++) {
      const output = ok(folder, "seed");
      expect(output).toBe("users: 10000, same database: true\nseeded     DB (local) from src/db/seeds.ts\n");
    }
    expect(count(folder)).toBe(10_000);
  }, 240_000);

  it("keeps the Models' class names, which name their rows (a polymorphic type, an inferred foreign key), when a class refers to itself", () => {
    const folder = seededApp();
    // A static that names its own class is what makes a bundler rename the class (var User = class _User).
    write(folder, "src/models/user.ts", `import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users") {
  static named = this.scope((q, name: string) => q.where({ name }).merge(User.all()));
}
`);
    write(folder, "src/db/seeds.ts", `import { User } from "../models/user.js";

export default async function seed() {
  console.log(User.name);
}
`);
    expect(ok(folder, "seed")).toBe("User\nseeded     DB (local) from src/db/seeds.ts\n");
  }, 240_000);

  it("gives the Models the Worker's env, so that encrypts reads its key from .dev.vars as wrangler dev does", () => {
    const folder = seededApp();
    write(folder, ".dev.vars", `RECORDS_KEY=${Buffer.alloc(32, 7).toString("base64")}\n`);
    write(folder, "src/models/user.ts", `import { encrypts } from "recordflare";
import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users") {
  static {
    this.use(encrypts({ key: "RECORDS_KEY" }));
    this.encrypts("email", { deterministic: true });
  }
}
`);
    write(folder, "src/db/seeds.ts", `import { User } from "../models/user.js";

export default async function seed() {
  await User.create({ name: "Ada", email: "ada@example.com" });
  console.log((await User.findByOrThrow({ email: "ada@example.com" })).name);
}
`);
    expect(ok(folder, "seed")).toContain("Ada\nseeded     DB (local) from src/db/seeds.ts\n");
    const stored = spawnSync(process.execPath, [wrangler, "d1", "execute", "DB", "--local", "--json", "--command", "SELECT email FROM users"], { cwd: folder, encoding: "utf8" });
    expect((JSON.parse(stored.stdout) as { results: { email: string }[] }[])[0]!.results[0]!.email).toMatch(/^enc1\./);
  }, 240_000);

  it("a missing seeds file, or a binding the configuration lacks, is refused with what to do", () => {
    const folder = seededApp();
    const missing = run(folder, "seed");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("seed: no seeds file at src/db/seeds.ts; write one that exports default async function seed({ db, env })");
    write(folder, "src/db/seeds.ts", "export default async function seed() {}\n");
    const unknown = run(folder, "seed", "--binding", "ANALYTICS");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(`seed: the wrangler configuration has no binding "ANALYTICS"`);
  }, 240_000);

  it("--remote is refused, seeding nothing, unless the configuration marks the binding remote (wrangler's proxy would give the local database)", () => {
    const folder = seededApp();
    write(folder, "src/db/seeds.ts", SEEDS);
    const unmarked = run(folder, "seed", "--remote");
    expect(unmarked.status).toBe(1);
    expect(unmarked.stderr).toContain(`seed --remote: the D1 binding "DB" in wrangler.jsonc is not marked remote; add "remote": true to its d1_databases entry (and its real database_id), then run again`);
    const unknown = run(folder, "seed", "--remote", "--binding", "ANALYTICS");
    expect(unknown.stderr).toContain(`seed --remote: wrangler.jsonc has no D1 binding "ANALYTICS" in d1_databases`);
    expect(count(folder)).toBe(0);
  }, 240_000);
});
