/**
 * `g model Admin --parent User`: a subclass stored in its parent's table (single-table inheritance), as Rails'
 * `rails g model Admin --parent User` writes one and no migration.
 *
 * The class is declared in the parent's file, below the parent, and added to the types of the hierarchy's
 * `this.inheritance(() => ({ ... }))` (the parent gets that declaration when the file has none). A file of its own
 * would import the parent's file while the parent's file imports it for its types: whichever the app loaded first
 * would meet the other's class not yet defined. `src/models/<name>.ts` re-exports the class, so it is imported by its
 * own file name like any Model.
 */
import { camelize, underscore } from "../kernel/index.js";
import { attributeTypeOf } from "./column-types.js";
import { CliError } from "./errors.js";
import { modelsDeclaredIn } from "./declared-models.js";
import { modelImportPath, type ModelNames, modelNames } from "./model-names.js";
import { type FileToWrite, PATHS, type Project } from "./project.js";
import type { MigratedDatabase, TableInfo } from "./schema-reader.js";

/** What `g model <Name> --parent <Parent>` writes, and a hint to print when the table has no type column. */
export interface SubclassPlan {
  readonly files: readonly FileToWrite[];
  readonly hint: string | undefined;
}

// How deep a chain of re-export files is followed to the file that declares a class.
const MAX_REEXPORTS = 20;
const INHERITANCE_CALL = "this.inheritance(";
const INHERITANCE_TYPES = /this\.inheritance\(\s*\(\)\s*=>\s*\(\{/;

// The attribute `inheritance` stores each row's class in unless the declaration names another (`{ column: "kind" }`).
const DEFAULT_INHERITANCE_ATTRIBUTE = "type";
const INHERITANCE_COLUMN_OPTION = /this\.inheritance\([^;]*?\bcolumn:\s*"([A-Za-z_$][\w$]*)"/;

// Whether a Model file's text declares the class `className` (`export class Admin ...`).
function declaresClass(text: string, className: string): boolean {
  return new RegExp(`^export class ${className}\\b`, "m").test(text);
}

function reexportLine(className: string, fileName: string): string {
  return `export { ${className} } from "${modelImportPath(fileName)}";`;
}

/** The file that declares `className`: its own Model file, or the file a re-export in it leads to. */
function declaringFile(project: Project, names: ModelNames, option: string): { path: string; text: string } {
  let fileName = names.fileName;
  for (let step = 0; step < MAX_REEXPORTS; step += 1) {
    const path = `${PATHS.models}/${fileName}`;
    const text = project.read(path);
    if (text === undefined) throw new CliError(`${option}: there is no Model ${names.className} (${path} does not exist).`);
    if (declaresClass(text, names.className)) return { path, text };
    const reexport = new RegExp(`^export \\{ ${names.className} \\} from "\\./([A-Za-z0-9_-]+)\\.js";$`, "m").exec(text);
    if (!reexport) throw new CliError(`${option}: ${path} does not declare export class ${names.className}.`);
    fileName = `${reexport[1]}.ts`;
  }
  throw new CliError(`${option}: the re-exports of ${names.className} lead to no file that declares it.`);
}

/**
 * Where the body of `class <name> ... {` starts: the first `{` after `extends` outside brackets and strings, since
 * the parent expression may hold braces (`ApplicationRecord("users", { admin: "boolean" })`).
 */
function classBodyStart(text: string, className: string): number | undefined {
  const header = new RegExp(`^export class ${className}\\b`, "m").exec(text);
  if (!header) return undefined;
  let depth = 0;
  for (let at = header.index + header[0].length; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '"' || char === "'" || char === "`") {
      for (at += 1; at < text.length && text[at] !== char; at += 1) if (text[at] === "\\") at += 1;
    } else if (char === "(" || char === "[") depth += 1;
    else if (char === ")" || char === "]") depth -= 1;
    else if (char === "{") {
      if (depth === 0) return at + 1;
      depth += 1;
    } else if (char === "}") depth -= 1;
  }
  return undefined;
}

/** The hierarchy's file with the subclass added to its types (or the parent declaring them) and declared at the end. */
function withSubclass(file: { path: string; text: string }, child: string, parent: string): string {
  const calls = file.text.split(INHERITANCE_CALL).length - 1;
  let text: string;
  if (calls === 0) {
    const body = classBodyStart(file.text, parent);
    if (body === undefined) throw new CliError(`--parent ${parent}: ${file.path} has no class body of ${parent} to declare the inheritance in.`);
    text = `${file.text.slice(0, body)}\n  static {\n    this.inheritance(() => ({ ${child} }));\n  }\n${file.text.slice(body)}`;
  } else {
    const types = INHERITANCE_TYPES.exec(file.text);
    if (calls > 1 || !types) {
      throw new CliError(
        `--parent ${parent}: ${file.path} declares its inheritance types in a form the generator does not edit; declare export class ${child} extends ${parent} {} there and add ${child} to the types by hand.`,
      );
    }
    const after = types.index + types[0].length;
    text = `${file.text.slice(0, after)} ${child},${file.text.slice(after)}`;
  }
  return `${text.replace(/\n*$/, "\n")}\nexport class ${child} extends ${parent} {}\n`;
}

/**
 * The files of a subclass Model `names` of the Model `parentInput`, checked; throws `CliError` for an unknown parent
 * (naming it), a parent the subclass already is, a name a Model has already, or a file the generator cannot edit
 * safely.
 */
export function planSubclass(project: Project, database: MigratedDatabase, names: ModelNames, parentInput: string): SubclassPlan {
  const parent = modelNames(parentInput);
  if (parent.className === names.className) throw new CliError(`--parent ${parent.className}: a Model cannot be its own parent.`);
  refuseExistingModel(project, names);
  const file = declaringFile(project, parent, `--parent ${parent.className}`);
  const files: FileToWrite[] = [
    { path: file.path, text: withSubclass(file, names.className, parent.className), note: `declares ${names.className}, one of its inheritance types` },
    { path: `${PATHS.models}/${names.fileName}`, text: subclassFileText(names, file.path) },
  ];
  // The hierarchy's table, as its root's declaration in the file names it (the parent may be a subclass).
  const table = database.table(modelsDeclaredIn(file.text)[0]?.table ?? parent.table);
  return { files, hint: table && inheritanceColumnHint(file.text, table) };
}

// Throws `CliError` when the subclass's file exists or a Model file already declares a class of its name.
function refuseExistingModel(project: Project, names: ModelNames): void {
  const path = `${PATHS.models}/${names.fileName}`;
  if (project.exists(path)) throw new CliError(`${path} already exists: ${names.className} is a Model already; choose another name.`);
  for (const fileName of project.filesIn(PATHS.models).filter((name) => name.endsWith(".ts"))) {
    const other = `${PATHS.models}/${fileName}`;
    if (declaresClass(project.read(other) ?? "", names.className)) throw new CliError(`${other} already declares ${names.className}; choose another name.`);
  }
}

/**
 * What the table lacks for the hierarchy's declaration to work, if anything: the column that stores each row's
 * class (`type`, or the one the file's `this.inheritance(..., { column })` names), as a string column. Without it
 * the Model is refused at its first use.
 */
function inheritanceColumnHint(text: string, table: TableInfo): string | undefined {
  const attribute = INHERITANCE_COLUMN_OPTION.exec(text)?.[1] ?? DEFAULT_INHERITANCE_ATTRIBUTE;
  const name = underscore(attribute);
  const column = table.columns.find((candidate) => candidate.name === name);
  if (!column) {
    return `${table.name} has no ${name} column, which stores the class of each row: npx recordflare g migration Add${pascal(name)}To${pascal(table.name)} ${attribute}:string`;
  }
  if (attributeTypeOf(column.declaredType, column.jsonChecked) !== "string") {
    return `${table.name}.${name} is ${column.declaredType || "of no type"}, not a string column; it must hold each row's class name as text.`;
  }
  return undefined;
}

// `blog_posts` as a migration name's part: `BlogPosts`.
function pascal(snakeCase: string): string {
  const camel = camelize(snakeCase);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

function subclassFileText(names: ModelNames, declaredIn: string): string {
  const file = declaredIn.slice(PATHS.models.length + 1);
  return `// ${names.className} is declared in ${file}, beside the Model whose table it shares, which lists it among its types.\n${reexportLine(names.className, file)}\n`;
}
