/** `recordflare g migration <Name> <column>...`: a migration making the change the name conveys, and the schema. */
import { defineCommand } from "citty";
import { parseIdType } from "../ddl.js";
import { writeMigration } from "../generation.js";
import { planMigration } from "../migration-plan.js";
import { Project } from "../project.js";
import { cwdArg, idArg } from "./shared-args.js";

/** The `migration` subcommand of `generate`. */
export const generateMigration = defineCommand({
  meta: {
    name: "migration",
    description:
      "Write a migration: AddEmailToUsers email:string adds columns, RemoveEmailFromUsers email drops them, CreateTags name:string makes a table; any other name gives an empty migration",
  },
  args: {
    name: { type: "positional", required: false, description: "The migration's name, e.g. AddEmailToUsers" },
    columns: {
      type: "positional",
      required: false,
      description: "Columns, each name[:type][:unique|:index][!][=default], and indexes of several columns, a+b:unique",
    },
    id: idArg,
    cwd: cwdArg,
  },
  async run({ args }) {
    const idType = parseIdType(args.id);
    const project = new Project(args.cwd);
    const migrations = project.migrations();
    const database = await project.migratedDatabase(migrations);
    try {
      const plan = planMigration(args._[0], args._.slice(1), idType, database);
      console.log(writeMigration(project, migrations, database, plan).join("\n"));
    } finally {
      database.close();
    }
  },
});
