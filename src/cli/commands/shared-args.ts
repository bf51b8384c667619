/** Options the commands share. */
import type { StringArgDef } from "citty";

/** `--cwd <folder>`: the app's folder, when it is not the current directory. */
export const cwdArg = {
  type: "string",
  description: "The app's folder (default: the current directory)",
  valueHint: "folder",
} as const satisfies StringArgDef;

/** `--id integer`: integer keys assigned by the database instead of UUID text generated in code. */
export const idArg = {
  type: "string",
  description: "Key type of new tables: uuid (text generated in code, the default) or integer (assigned by the database)",
  valueHint: "uuid|integer",
} as const satisfies StringArgDef;
