/**
 * The Node.js the command-line tool needs: 22.13 or later, for `node:sqlite`. On an older one each command
 * refuses, and says how to run it anyway: npm's `node` package puts a Node.js 22 first on the PATH of the command
 * npx runs, so recordflare's `#!/usr/bin/env node` starts on it (the project's own recordflare when it has one).
 */
import { escapeControlCharacters, hasControlCharacters } from "./control-characters.js";
import { CliError } from "./errors.js";

/** The refusal on a Node.js without `node:sqlite`; `withWayForward` adds the command to run instead. */
export class NodeTooOldError extends CliError {
  constructor() {
    super(`recordflare needs Node.js 22.13 or later for node:sqlite (this is ${process.version}).`);
  }

  /** The message with the command that runs the same arguments on Node.js 22 from npm. */
  withWayForward(rawArgs: readonly string[]): string {
    return `${this.message} Run it on Node.js 22 from npm: ${["npx -p node@22 -p recordflare recordflare", ...rawArgs.map(shellWord)].join(" ")}`;
  }
}

/**
 * An argument as typed in a POSIX shell: in single quotes unless it holds only characters no shell treats specially;
 * one with a control character in `$'...'`, its escapes read by the shell, so that the command stays one line.
 */
function shellWord(word: string): string {
  if (hasControlCharacters(word)) return `$'${escapeControlCharacters(word.replace(/[\\']/g, "\\$&"))}'`;
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
