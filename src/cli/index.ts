#!/usr/bin/env node
/**
 * The `recordflare` command: `g model`, `g migration` and `schema`, run in the app's folder.
 */
import { defineCommand } from "citty";
import { generate } from "./commands/generate.js";
import { schemaCommand } from "./commands/schema.js";
import { runCli } from "./run.js";

// The root command.
const main = defineCommand({
  meta: { name: "recordflare", description: "Generates migrations, Models and the typed schema file for recordflare" },
  subCommands: { generate, schema: schemaCommand },
});

process.exitCode = await runCli(main, process.argv.slice(2));
