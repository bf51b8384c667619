/**
 * The Models the app's Model files declare on a table, `export class User extends ApplicationRecord("users")`, read
 * from their text in the form the generator writes: so that a generated Model imports the Model of a table it
 * references, and a subclass finds its hierarchy's table.
 */
import { PATHS, type Project } from "./project.js";

/** A Model declared on a table, and the file of `src/models` that declares it (`user.ts`). */
export interface DeclaredModel {
  readonly className: string;
  readonly table: string;
  readonly fileName: string;
}

// The table is a string literal, as the generator writes it; overrides may follow it.
const DECLARATION = /^export class ([A-Za-z_$][\w$]*) extends ApplicationRecord\(\s*("(?:[^"\\]|\\.)*")/gm;

/** The Models a Model file's text declares on a table, in the order declared. */
export function modelsDeclaredIn(text: string): Array<Omit<DeclaredModel, "fileName">> {
  return [...text.matchAll(DECLARATION)].map(([, className, literal]) => ({ className: className!, table: JSON.parse(literal!) as string }));
}

/** The Model a file of `src/models` declares on `table` (compared in any case, as SQLite compares table names), if any. */
export function modelOfTable(project: Project, table: string): DeclaredModel | undefined {
  const wanted = table.toLowerCase();
  for (const fileName of project.filesIn(PATHS.models).filter((name) => name.endsWith(".ts"))) {
    const model = modelsDeclaredIn(project.read(`${PATHS.models}/${fileName}`) ?? "").find((candidate) => candidate.table.toLowerCase() === wanted);
    if (model) return { ...model, fileName };
  }
  return undefined;
}
