/**
 * The app the commands work on: its folder (the current directory, or `--cwd`), the places of the generated
 * files, its migrations, and writing files with a line of output each.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "./errors.js";
import { type MigrationFile, readMigrations } from "./migrations.js";
import { MigratedDatabase } from "./schema-reader.js";

/** A file to write, by its path relative to the app's folder. */
export interface FileToWrite {
  readonly path: string;
  readonly text: string;
}

/** Where the generated files go, relative to the app's folder (SPEC "Generated files"). */
export const PATHS = {
  migrations: "migrations",
  schema: "src/db/schema.ts",
  models: "src/models",
  applicationRecord: "src/models/application-record.ts",
} as const;

/** A line of a command's output: the action (`create`, `update`, `identical`, `skip`), the path, and why if need be. */
export function outputLine(action: string, relative: string, note?: string): string {
  return `${action.padEnd(9)}  ${relative}${note === undefined ? "" : ` (${note})`}`;
}

/** An app's folder, with its migrations. */
export class Project {
  /** The app's folder, absolute. */
  readonly root: string;

  /** The app in `cwd` (relative to the process's directory); throws `CliError` when it is not a folder. */
  constructor(cwd: string | undefined) {
    this.root = path.resolve(cwd ?? ".");
    if (!existsSync(this.root) || !statSync(this.root).isDirectory()) throw new CliError(`${this.root} is not a folder.`);
  }

  /** Whether a file exists, by its path relative to the app's folder. */
  exists(relative: string): boolean {
    return existsSync(path.join(this.root, relative));
  }

  /** The migration files, in the order they apply. */
  migrations(): MigrationFile[] {
    return readMigrations(path.join(this.root, PATHS.migrations), PATHS.migrations);
  }

  /** An in-memory database with every migration applied; throws `CliError` naming a migration that does not apply. */
  async migratedDatabase(migrations: readonly MigrationFile[]): Promise<MigratedDatabase> {
    const database = await MigratedDatabase.open();
    try {
      return database.apply(...migrations);
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /**
   * Writes files (making folders as needed) and returns a line for each: `create`, `update`, or `identical` when
   * the file already held that text.
   */
  write(files: readonly FileToWrite[]): string[] {
    return files.map((file) => {
      const absolute = path.join(this.root, file.path);
      const existed = existsSync(absolute);
      const action = !existed ? "create" : readFileSync(absolute, "utf8") === file.text ? "identical" : "update";
      if (action !== "identical") {
        mkdirSync(path.dirname(absolute), { recursive: true });
        writeFileSync(absolute, file.text);
      }
      return outputLine(action, file.path);
    });
  }

  /** Makes a folder unless it exists, with a line of output: `create` or `identical`. */
  makeFolder(relative: string): string[] {
    const absolute = path.join(this.root, relative);
    const existed = existsSync(absolute);
    if (!existed) mkdirSync(absolute, { recursive: true });
    return [outputLine(existed ? "identical" : "create", `${relative}/`)];
  }

  /**
   * Writes the files that do not exist yet; a file that exists is the app's, and is left as it is: `identical`
   * when it already holds that text, else `skip` (the app may have edited it).
   */
  writeNew(files: readonly FileToWrite[]): string[] {
    return files.flatMap((file) => {
      if (!this.exists(file.path)) return this.write([file]);
      const same = readFileSync(path.join(this.root, file.path), "utf8") === file.text;
      return [outputLine(same ? "identical" : "skip", file.path, same ? undefined : "exists, left as it is")];
    });
  }
}
