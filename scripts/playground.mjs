// `npm run playground [-- --port <port>]`: builds the package, applies the playground's migrations to its local D1
// database and runs `wrangler dev` on 127.0.0.1. The port is --port, else the PORT variable, else 8787; anything
// else on the command line is refused before the build, with the usage. For tests, PLAYGROUND_PERSIST_TO puts the
// local D1 state in another folder (wrangler's --persist-to) and PLAYGROUND_SKIP_BUILD=1 uses the dist/ already built.
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const USAGE = "Usage: npm run playground [-- --port <port>]   (or PORT=<port> npm run playground; default 8787)";

/** The playground's port from its arguments and environment; throws an Error naming what is wrong. */
export function playgroundPort(args, env) {
  let text = env.PORT === undefined || env.PORT === "" ? "8787" : env.PORT;
  let source = env.PORT ? "PORT" : "the default";
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === "--port" && index + 1 < args.length) text = args[++index];
    else if (arg.startsWith("--port=")) text = arg.slice("--port=".length);
    else throw new Error(arg === "--port" ? "--port needs a value." : `Unknown argument ${arg}.`);
    source = "--port";
  }
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new Error(`${source} must be a port number from 1 to 65535, not ${JSON.stringify(text)}.`);
  return port;
}

function run(command, args, cwd) {
  const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  const { status } = spawnSync(command, args, { cwd, stdio: "inherit", env });
  if (status !== 0) process.exit(status ?? 1);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let port;
  try {
    port = playgroundPort(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`Error: ${error.message}\n${USAGE}`);
    process.exit(1);
  }
  const root = fileURLToPath(new URL("..", import.meta.url));
  const playground = fileURLToPath(new URL("../playground", import.meta.url));
  const state = process.env.PLAYGROUND_PERSIST_TO ? ["--persist-to", process.env.PLAYGROUND_PERSIST_TO] : [];
  if (process.env.PLAYGROUND_SKIP_BUILD !== "1") run("npm", ["run", "build"], root);
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...state], playground);
  run("wrangler", ["dev", "--ip", "127.0.0.1", "--port", String(port), ...state], playground);
}
