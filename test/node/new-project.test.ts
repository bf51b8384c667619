// A new user's first steps, against the package as npm would install it: `npm pack` of the built library,
// installed into an empty folder; then `npx recordflare init`, two Models (one referencing the other), the
// migrations applied by wrangler, a typecheck of the project with its own tsconfig, its first test (`npm test`,
// the Workers Vitest integration with recordflare/testing), and a request to its Worker on local D1. wrangler, TypeScript and the Workers types are the repository's own (linked into the app, as npm would
// install them), so that nothing but recordflare's two dependencies comes from npm's cache or registry.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_startWorker } from "wrangler";
import { read } from "./helpers/cli-app.js";
import { installPackedLibrary, linkFromRepository, shIn } from "./helpers/packed-package.js";

let folder: string;
let appFolder: string;

function sh(command: string, ...args: string[]): string {
  return shIn(appFolder, command, ...args);
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), "recordflare-new-project-"));
  appFolder = path.join(folder, "blog");
  mkdirSync(appFolder);
  installPackedLibrary(folder, appFolder);
  linkFromRepository(appFolder, "wrangler", { name: "wrangler", file: "bin/wrangler.js" });
  linkFromRepository(appFolder, "typescript", { name: "tsc", file: "bin/tsc" });
  linkFromRepository(appFolder, "@cloudflare/workers-types");
  linkFromRepository(appFolder, "vitest", { name: "vitest", file: "vitest.mjs" });
  linkFromRepository(appFolder, "@cloudflare/vitest-plugin");
}, 120_000);

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

// What a user writes next in src/index.ts: routes using the generated Models. `titel` proves the packed types
// reach the app: the typecheck fails if the misspelt attribute compiles.
const WORKER_WITH_ROUTES = `import { connect, withDatabase } from "recordflare";
import { Post } from "./models/post.js";
import { User } from "./models/user.js";

export interface Env {
  DB: D1Database;
}

export default {
  fetch(request, env): Promise<Response> {
    return withDatabase(connect(env.DB), async () => {
      const user = await User.create({ name: "Ada" });
      await Post.create({ title: "Hello, D1", userId: user.id });
      const posts = await Post.where({ userId: user.id }).toArray();
      const titles: string[] = posts.map((post) => post.title);
      return Response.json({ user: user.name, titles, users: await User.count(), path: new URL(request.url).pathname });
    });
  },
} satisfies ExportedHandler<Env>;

// Never called: it only has to fail to compile.
function misspelt() {
  // @ts-expect-error a misspelt attribute does not compile
  return Post.where({ titel: "x" });
}

// Never called: plugins type their methods by declaration merging, which must survive the build of the package's
// types (count() above and these are typed only there); a lost merge fails the typecheck.
async function pluginMethods(): Promise<number> {
  const page = await Post.where({ userId: 1 }).paginate({ page: 2 });
  // @ts-expect-error validates takes the Model's attribute names only
  Post.validates("titel", { presence: true });
  const titles: (string | null)[] = await Post.pluck("title");
  return page.totalPages + titles.length;
}
`;

describe("a new project, from npx recordflare init to a request on local D1", () => {
  it("init, g model twice, migrations applied by wrangler, a typecheck and a request", async () => {
    const init = sh("npx", "--no", "recordflare", "init");
    expect(init).toContain("create     wrangler.jsonc");
    expect(init).toContain("update     package.json");
    expect(sh("npx", "--no", "recordflare", "g", "model", "User", "name:string!")).toContain("create     src/models/user.ts");
    expect(sh("npx", "--no", "recordflare", "g", "model", "Post", "title:string!", "user:references")).toContain("create     migrations/0002_create_posts.sql");

    // CommonJS code of the app can require the package (Node 22.12+ loads the ESM build).
    expect(sh(process.execPath, "-e", `console.log(typeof require("recordflare").Model)`)).toBe("function\n");

    const migrated = sh("npm", "run", "db:migrate");
    expect(migrated).toContain("0001_create_users.sql");
    expect(migrated).toContain("0002_create_posts.sql");

    // The project as generated (its first test passing on local D1 with both migrations), then with the user's routes.
    sh("npm", "run", "typecheck");
    expect(sh("npm", "test")).toMatch(/Tests\s+1 passed/);
    writeFileSync(path.join(appFolder, "src/index.ts"), WORKER_WITH_ROUTES);
    sh("npm", "run", "typecheck");

    const worker = await unstable_startWorker({
      config: path.join(appFolder, "wrangler.jsonc"),
      dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, logLevel: "warn" },
    });
    try {
      await worker.ready;
      const response = await worker.fetch("http://localhost/posts");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ user: "Ada", titles: ["Hello, D1"], users: 1, path: "/posts" });
    } finally {
      await worker.dispose();
    }
    expect(read(appFolder, "wrangler.jsonc")).toContain('"migrations_dir": "migrations"');
  }, 150_000);
});
