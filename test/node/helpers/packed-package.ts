// The library as npm would install it: `npm pack` of the built package (dist, fresh since `npm test` builds
// first), installed into an app folder. Only recordflare's own dependencies come from npm's cache or registry; tools
// the app needs (TypeScript, wrangler, types) are linked from the repository's node_modules.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { root } from "./cli-app.js";

/** The environment the packed-package tests run commands in: the Node.js running the tests first on PATH. */
export const packedEnv = {
  ...process.env,
  // The Node.js running the tests (22, the devDependency) first, for the bins' `#!/usr/bin/env node`.
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  CI: "true",
  NO_COLOR: "1",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** Runs a command in a folder, with `packedEnv`; its standard output. */
export function shIn(cwd: string, command: string, ...args: string[]): string {
  return execFileSync(command, args, { cwd, env: packedEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Packs the library into `folder` and installs the tarball into `appFolder` (which has a package.json or gets one). */
export function installPackedLibrary(folder: string, appFolder: string): void {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", folder], { cwd: root, env: packedEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as Array<{ filename: string }>;
  shIn(appFolder, "npm", "install", path.join(folder, packed!.filename), "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts");
}

/** Links a package of the repository's node_modules into the app, with its bin. */
export function linkFromRepository(appFolder: string, name: string, bin?: { name: string; file: string }): void {
  const target = path.join(appFolder, "node_modules", name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(root, "node_modules", name), target, "dir");
  if (bin) symlinkSync(path.join(target, bin.file), path.join(appFolder, "node_modules/.bin", bin.name));
}
