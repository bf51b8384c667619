/**
 * The names a Model generator derives from `<Name>`: `BlogPost` (or `blog_post`, `blog-post`, `blogPost`) gives
 * the class `BlogPost`, the table `blog_posts` and the file `src/models/blog-post.ts`.
 */
import { camelize, underscore } from "../kernel/index.js";
import { tableize } from "../plugins/table-naming.js";
import { CliError } from "./errors.js";
import { refuseLongName } from "./name-length.js";
import { isWordsName } from "./name-words.js";
import { refuseReservedTable } from "./reserved-table-names.js";

/** The class, table and file names of a Model. */
export interface ModelNames {
  readonly className: string;
  readonly table: string;
  /** The file name in `src/models`, kebab-case: `blog-post.ts`. */
  readonly fileName: string;
}

// Names the base class file already uses.
const RESERVED = new Set(["ApplicationRecord", "ApplicationBase"]);

/**
 * The names of a Model from the `<Name>` argument; throws `CliError` for a name that is not one (see `isWordsName`),
 * one too long for its file names, or one whose table D1, Wrangler or SQLite reserve.
 */
export function modelNames(input: string | undefined): ModelNames {
  if (input === undefined || input === "") throw new CliError("Give the Model's name: recordflare g model <Name> [column...]");
  refuseLongName("Model", input);
  if (!isWordsName(input, "_-")) {
    throw new CliError(`"${input}" is not a Model name: use letters and digits, starting with a letter, with one _ or - between words and none at the end (BlogPost, blog_post).`);
  }
  // `blog_post` and `blog-post` are camelized; a name without separators keeps its capitals (`HTMLPage`).
  const camel = /[_-]/.test(input) ? camelize(underscore(input.replaceAll("-", "_"))) : input;
  const className = camel[0]!.toUpperCase() + camel.slice(1);
  if (RESERVED.has(className)) throw new CliError(`${className} is the app's base class; choose another Model name.`);
  const table = tableize(className);
  refuseReservedTable(table, `Model ${className}`, "choose another Model name");
  return { className, table, fileName: `${underscore(className).replaceAll("_", "-")}.ts` };
}

/** How one Model file imports another of `src/models`: `./blog-post.js` for `blog-post.ts`. */
export function modelImportPath(fileName: string): string {
  return `./${fileName.replace(/\.ts$/, ".js")}`;
}
