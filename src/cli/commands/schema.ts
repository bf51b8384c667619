/** `recordflare schema`: regenerates `src/db/schema.ts` from the migrations, e.g. after a hand-written one. */
import { defineCommand } from "citty";
import { PATHS, Project } from "../project.js";
import { renderSchema } from "../schema-writer.js";
import { cwdArg } from "./shared-args.js";

/** The `schema` command. */
export const schemaCommand = defineCommand({
  meta: { name: "schema", description: "Regenerate src/db/schema.ts from the migrations (run it after writing a migration by hand)" },
  args: { cwd: cwdArg },
  async run({ args }) {
    const project = new Project(args.cwd);
    const database = await project.migratedDatabase(project.migrations());
    try {
      console.log(project.write([{ path: PATHS.schema, text: renderSchema(database.tables()) }]).join("\n"));
    } finally {
      database.close();
    }
  },
});
