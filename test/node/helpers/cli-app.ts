// Running the built command-line tool (`dist/cli.mjs`, fresh since `npm test` builds first) in temporary app
// folders, through the Node.js running the tests (22.13 or later, for node:sqlite). Folders are removed after
// each test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect } from "vitest";

/** The project's root folder. */
export const root = fileURLToPath(new URL("../../..", import.meta.url));
const cli = path.join(root, "dist/cli.mjs");
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An empty app folder, removed after the test. */
export function app(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "recordflare-cli-"));
  folders.push(folder);
  return folder;
}

/** Runs `recordflare <args>` in a folder. */
export function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a command that must succeed, and returns its output. */
export function ok(cwd: string, ...args: string[]): string {
  const result = run(cwd, ...args);
  expect(result.stderr, `stderr of recordflare ${args.join(" ")}`).toBe("");
  expect(result.status).toBe(0);
  return result.stdout;
}

/** A file of an app folder, as text. */
export function read(folder: string, file: string): string {
  return readFileSync(path.join(folder, file), "utf8");
}
