#!/usr/bin/env node
import { defineCommand, runMain } from "citty";

const main = defineCommand({
  meta: { name: "recordflare", description: "Generates migrations, Models and the typed schema file for recordflare" },
  subCommands: {},
});

runMain(main);
