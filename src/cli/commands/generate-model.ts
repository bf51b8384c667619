/**
 * `recordflare g model <Name> <column>...`: the table's migration, the Model (with a `belongsTo` for each reference),
 * the base class if missing, the schema;
 * with `--parent <Model>`, a subclass stored in the parent's table and no migration.
 */
import { defineCommand } from "citty";
import { belongsToDeclarations } from "../belongs-to-declarations.js";
import { parseArguments } from "../columns.js";
import { createTableStatements, parseIdType, referencedKeys } from "../ddl.js";
import { CliError } from "../errors.js";
import { writeMigration } from "../generation.js";
import { type ModelNames, modelNames } from "../model-names.js";
import { planSubclass } from "../subclass-model.js";
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
      description:
        "Columns, each name[:type][:unique|:index][!][=default], and indexes of several columns, a+b:unique; types string, integer, real, boolean, datetime, json, references (references? optional, references{table}, references{polymorphic})",
    },
    id: idArg,
    parent: {
      type: "string",
      description: "Write a subclass stored in the parent Model's table (single-table inheritance), and no migration",
      valueHint: "Model",
    },
    cwd: cwdArg,
  },
  async run({ args }) {
    const names = modelNames(args._[0]);
    if (args.parent !== undefined) return await generateSubclass(names, args._.slice(1), args);
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
      const body = belongsToDeclarations(project, names, parsed.columns);
      const files: FileToWrite[] = [{ path: modelPath, text: modelTemplate(names, body) }];
      if (!project.exists(PATHS.applicationRecord)) files.push({ path: PATHS.applicationRecord, text: APPLICATION_RECORD_TEMPLATE });
      const lines = writeMigration(project, migrations, database, { slug: `create_${names.table}`, statements }, files);
      console.log([...lines, ...body.notes.map((note) => `note: ${note}`)].join("\n"));
    } finally {
      database.close();
    }
  },
});

// `g model <Name> --parent <Model>`: the subclass in the parent's file, its own file re-exporting it, no migration.
async function generateSubclass(names: ModelNames, columns: readonly string[], args: { parent?: string; id?: string; cwd?: string }): Promise<void> {
  if (args.parent === "" || typeof args.parent !== "string") throw new CliError("--parent takes the name of the Model whose table the subclass shares: --parent User");
  const parent = modelNames(args.parent).className;
  if (columns.length > 0) {
    throw new CliError(`${names.className} shares the table of ${parent}, so it takes no columns; add them with g migration Add<Columns>To<Table>.`);
  }
  if (args.id !== undefined) throw new CliError(`${names.className} shares the table and the keys of ${parent}, so it takes no --id.`);
  const project = new Project(args.cwd);
  const database = await project.migratedDatabase(project.migrations());
  try {
    const plan = planSubclass(project, database, names, parent);
    const lines = project.write(plan.files);
    console.log([...lines, ...(plan.hint === undefined ? [] : [`note: ${plan.hint}`])].join("\n"));
  } finally {
    database.close();
  }
}
