/**
 * The end of every generator: the new migration is applied on top of the existing ones in the in-memory
 * database (so one that SQLite refuses is never written), the schema file is rendered from the result, and
 * only then are the files written.
 */
import { CliError } from "./errors.js";
import { migrationFileName, migrationText, nextMigrationNumber, type MigrationFile } from "./migrations.js";
import type { MigrationPlan } from "./migration-plan.js";
import { PATHS, type FileToWrite, type Project } from "./project.js";
import type { MigratedDatabase } from "./schema-reader.js";
import { renderSchema } from "./schema-writer.js";

/**
 * Checks the new migration, then writes it, the other `files` of the generator and the schema file, and returns
 * a line of output for each. Throws `CliError`, having written nothing, when the migration does not apply.
 */
export function writeMigration(
  project: Project,
  migrations: readonly MigrationFile[],
  database: MigratedDatabase,
  plan: MigrationPlan,
  files: readonly FileToWrite[] = [],
): string[] {
  const number = nextMigrationNumber(migrations);
  const migration: FileToWrite = {
    path: `${PATHS.migrations}/${migrationFileName(number, plan.slug)}`,
    text: migrationText(number, plan.slug, plan.statements),
  };
  try {
    database.apply({ file: migration.path, sql: migration.text });
  } catch (error) {
    throw new CliError(`The new migration ${(error as Error).message}; nothing was written.`);
  }
  const schema: FileToWrite = { path: PATHS.schema, text: renderSchema(database.tables()) };
  return project.write([migration, ...files, schema]);
}
