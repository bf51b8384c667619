/** `recordflare generate` (or `g`): the group of the Model and migration generators. */
import { defineCommand } from "citty";
import { generateMigration } from "./generate-migration.js";
import { generateModel } from "./generate-model.js";

/** The `generate` command group, also called `g`. */
export const generate = defineCommand({
  meta: {
    name: "generate",
    alias: "g",
    description: "Generate a Model (g model <Name> <column>...) or a migration (g migration <Name> <column>...)",
  },
  subCommands: { model: generateModel, migration: generateMigration },
});
