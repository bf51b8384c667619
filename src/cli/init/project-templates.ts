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
  "include": ["src"]
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
