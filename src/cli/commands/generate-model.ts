/** `recordflare g model <Name> <column>...`: the table's migration, the Model, the base class if missing, the schema. */
import { defineCommand } from "citty";
import { parseArguments } from "../columns.js";
import { createTableStatements, parseIdType, referencedKeys } from "../ddl.js";
import { CliError } from "../errors.js";
import { writeMigration } from "../generation.js";
import { modelNames } from "../model-names.js";
import { PATHS, Project, type FileToWrite } from "../project.js";
import { APPLICATION_RECORD_TEMPLATE, modelTemplate } from "../templates.js";
import { cwdArg, idArg } from "./shared-args.js";

/** The `model` subcommand of `generate`. */
export const generateModel = defineCommand({
  meta: {
    name: "model",
    description: "Write a migration creating the Model's table, the Model file, the base class if missing, and the schema file",
  },
  args: {
    name: { type: "positional", required: false, description: "The Model's name, e.g. BlogPost" },
    columns: {
      type: "positional",
      required: false,
      description: "Columns, each name[:type][:unique][!][=default]; types string, integer, real, boolean, datetime, json, references, references{polymorphic}",
    },
    id: idArg,
    cwd: cwdArg,
  },
  async run({ args }) {
    const names = modelNames(args._[0]);
    const parsed = parseArguments(args._.slice(1));
    const idType = parseIdType(args.id);
    const project = new Project(args.cwd);
    const modelPath = `${PATHS.models}/${names.fileName}`;
    if (project.exists(modelPath)) throw new CliError(`${modelPath} already exists.`);
    const migrations = project.migrations();
    const database = await project.migratedDatabase(migrations);
    try {
      if (database.table(names.table)) throw new CliError(`The migrations already make a table ${names.table}.`);
      const statements = createTableStatements(names.table, parsed, idType, referencedKeys(database, names.table, idType));
      const files: FileToWrite[] = [{ path: modelPath, text: modelTemplate(names) }];
      if (!project.exists(PATHS.applicationRecord)) files.push({ path: PATHS.applicationRecord, text: APPLICATION_RECORD_TEMPLATE });
      const lines = writeMigration(project, migrations, database, { slug: `create_${names.table}`, statements }, files);
      console.log(lines.join("\n"));
    } finally {
      database.close();
    }
  },
});
