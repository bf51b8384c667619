#!/usr/bin/env node
/**
 * The `recordflare` command: `g model`, `g migration` and `schema`, run in the app's folder.
 */
import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { generate } from "./commands/generate.js";
import { schemaCommand } from "./commands/schema.js";
import { runCli } from "./run.js";

// The installed package's version (this file is built to dist/cli.mjs, beside the package's package.json folder), so
// that `--version` names the version the shipped guide matches.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

// The root command.
const main = defineCommand({
  meta: { name: "recordflare", version, description: "Generates migrations, Models and the typed schema file for recordflare" },
  subCommands: { generate, schema: schemaCommand },
});

process.exitCode = await runCli(main, process.argv.slice(2));
