#!/usr/bin/env node
/**
 * The `recordflare` command: `init`, `g model`, `g migration`, `schema` and `seed`, run in the app's folder.
 */
import { defineCommand } from "citty";
import { generate } from "./commands/generate.js";
import { schemaCommand } from "./commands/schema.js";
import { initCommand } from "./commands/init.js";
import { seedCommand } from "./commands/seed.js";
import { ownPackage } from "./own-package.js";
import { runCli } from "./run.js";

// The root command.
const main = defineCommand({
  // `--version` names the installed package's version, the one the shipped guide matches.
  meta: {
    name: "recordflare",
    version: ownPackage.version,
    description: "Sets up a Worker project and generates migrations, Models and the typed schema file for recordflare",
  },
  subCommands: { init: initCommand, generate, schema: schemaCommand, seed: seedCommand },
});

process.exitCode = await runCli(main, process.argv.slice(2));
