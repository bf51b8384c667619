// Running the built command-line tool (`dist/cli.mjs`, fresh since `npm test` builds first) in temporary app
// folders, through the Node.js running the tests (22.13 or later, for node:sqlite). Folders are removed after
// each test.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
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

/** Writes a file of an app folder, making its folders. */
export function write(folder: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
  writeFileSync(path.join(folder, file), text);
}

/** Every file under a folder with its text. */
export function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.relative(folder, path.join(entry.parentPath, entry.name));
    files[file] = read(folder, file);
  }
  return files;
}

/** Runs a command that must fail with a one-line error and change no file, and returns the error. */
export function refused(cwd: string, ...args: string[]): string {
  const before = snapshot(cwd);
  const result = run(cwd, ...args);
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/^Error: [^\n]+\n$/);
  expect(snapshot(cwd)).toEqual(before);
  return result.stderr.trim();
}

/** An in-memory SQLite database with the app's migrations applied in order, foreign keys enforced as on D1. */
export function migrated(folder: string): DatabaseSync {
  const database = new DatabaseSync(":memory:");
  database.exec("PRAGMA foreign_keys = ON");
  for (const file of readdirSync(path.join(folder, "migrations")).sort()) database.exec(read(folder, `migrations/${file}`));
  return database;
}
