/**
 * The one setting `init` reads from a wrangler.toml: the Worker's entry, `main`. `init` never edits a
 * wrangler.toml, so it reads this one top-level key by hand rather than give every app a TOML parser to install:
 * a `main` (bare or quoted key) set to a basic ("...") or literal ('...') string, before the first table.
 */

import { CliError } from "../errors.js";

// `main = "src/worker.ts"` or `main = 'src/worker.ts'`, with an optional comment after it.
const MAIN = /^(?:main|"main"|'main')\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/;

// A basic string's text: TOML's escapes are JSON's, less the rare \U and \e, which no entry path needs.
function basicString(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    throw new CliError(`wrangler.toml: main = "${body}" has an escape init cannot read; write the path without backslashes.`);
  }
}

/** The `main` of a wrangler.toml's text, or undefined when it sets none before its first table. */
export function tomlMain(text: string): string | undefined {
  for (const line of text.split(/\r?\n/).map((raw) => raw.trim())) {
    if (line.startsWith("[")) return undefined;
    const match = MAIN.exec(line);
    if (match) return match[2] ?? basicString(match[1]!);
  }
  return undefined;
}
