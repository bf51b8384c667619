/** The text of the files `init` writes besides the wrangler configuration and package.json. */

/**
 * `tsconfig.json`: Workers' global types from `@cloudflare/workers-types`, a package, so that the project
 * typechecks as soon as it is installed, without running `wrangler types` first.
 */
export const TSCONFIG_TEMPLATE = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "types": ["@cloudflare/workers-types"],
    "strict": true,
    "noEmit": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "forceConsistentCasingInFileNames": true
  },
  "include": ["src", "test"]
}
`;

/** `src/index.ts`: a Worker that opens the database for each request, ready for the app's routes. */
export const WORKER_TEMPLATE = `import { connect, withDatabase } from "recordflare";

/** The Worker's bindings, as wrangler.jsonc declares them. */
export interface Env {
  DB: D1Database;
}

export default {
  fetch(request, env): Promise<Response> {
    // One database per request: the Models' queries inside withDatabase use it.
    return withDatabase(connect(env.DB), () => route(request));
  },
} satisfies ExportedHandler<Env>;

// The app's routes. After \`npx recordflare g model User name:string!\`, for example:
//   if (pathname === "/users") return Response.json(await User.order({ createdAt: "desc" }).limit(20).toArray());
async function route(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  return new Response(\`recordflare is ready. No route for \${pathname} yet: add one in src/index.ts.\\n\`, { status: 404 });
}
`;

/**
 * `vitest.config.ts`: the tests run inside workerd with the Worker's bindings (the Workers Vitest integration), each
 * test file on a local D1 of its own, with the app's migrations read as wrangler reads them (`configFile`).
 */
export function vitestConfigTemplate(configFile: string): string {
  return `import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { readMigrations } from "recordflare/testing/config";
import { defineConfig } from "vitest/config";

// The tests run inside workerd with the bindings of ${configFile}, each test file on a local D1 of its own, to which
// test/setup.ts applies the app's migrations (read here as wrangler reads them).
export default defineConfig(async () => {
  const { migrations, table } = await readMigrations({ config: "./${configFile}" });
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./${configFile}" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, TEST_MIGRATIONS_TABLE: table } },
      }),
    ],
    test: { setupFiles: ["./test/setup.ts"] },
  };
});
`;
}

/** `test/setup.ts`: before each test file, the migrations its local D1 lacks. */
/**
 * The project's `.gitignore`: installed packages, wrangler's local state (the local D1 among it) and `.dev.vars`, the
 * local secrets (an `encrypts` key, a bookmark secret), which must never reach the repository.
 */
export const GITIGNORE_TEMPLATE = `node_modules/
.wrangler/
.dev.vars*
`;

export const TEST_SETUP_TEMPLATE = `import { env } from "cloudflare:workers";
import { applyMigrations } from "recordflare/testing";

// Before each test file: the app's migrations that its local D1 lacks.
await applyMigrations(env.DB, env.TEST_MIGRATIONS, { table: env.TEST_MIGRATIONS_TABLE });
`;

/** `test/env.d.ts`: the bindings the Vitest config adds for the tests. */
export const TEST_ENV_TEMPLATE = `// The bindings vitest.config.ts adds for the tests (\`env\` from "cloudflare:workers" is Cloudflare.Env).
declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    TEST_MIGRATIONS: import("recordflare/testing").Migration[];
    TEST_MIGRATIONS_TABLE: string;
  }
}
`;

/** `test/database.test.ts`: a first test, which passes as soon as the project is installed, and how to test a Model. */
export const FIRST_TEST_TEMPLATE = `import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

it("runs on a local D1 with every migration of the app applied", async () => {
  const applied = await env.DB.prepare(\`SELECT COUNT(*) AS count FROM "\${env.TEST_MIGRATIONS_TABLE}"\`).first<{ count: number }>();
  expect(applied?.count).toBe(env.TEST_MIGRATIONS.length);
});

// A Model's tests, after \`npx recordflare g model User name:string!\` (see the guide's "Testing your app"):
//
//   import { defineFactory, expectRoundTrips } from "recordflare/testing";
//   import { User } from "../src/models/user.js";
//
//   const users = defineFactory(User, (n) => ({ name: \`User \${n}\` }));
//
//   it("lists users in one round trip", async () => {
//     await users.createList(3);
//     expect(await expectRoundTrips(1, () => User.all().toArray())).toHaveLength(3);
//   });
`;
