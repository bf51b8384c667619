/**
 * The indexes generated migrations make. A column argument asks for one on its own column (`slug:unique`,
 * `position:index`, every reference); an index argument names several columns joined by `+` and the kind of index
 * (`'user_id+link_id:unique'`), for a pair that must be unique together or is searched together.
 */
import { underscore } from "../kernel/index.js";
import { CliError } from "./errors.js";
import { sqlIdentifier } from "./sql-identifiers.js";

/** Kind of index an argument asks for: `:unique` (or Rails' `:uniq`), `:unique_nocase`, `:index`. */
export type IndexKind = "unique" | "uniqueNocase" | "plain";

/** One index to create. */
export interface IndexSpec {
  /** The argument as typed, for error messages. */
  readonly source: string;
  /** The indexed columns, in order. */
  readonly columns: readonly string[];
  readonly kind: IndexKind;
  /** What the index is named after: `index_<table>_on_<label>`. */
  readonly label: string;
}

// The modifiers that ask for an index, and the kind each gives.
const INDEX_MODIFIERS: Readonly<Record<string, IndexKind>> = { unique: "unique", uniq: "unique", unique_nocase: "uniqueNocase", index: "plain" };

/** The modifiers, in the order error messages list them. */
export const INDEX_MODIFIER_NAMES: readonly string[] = Object.keys(INDEX_MODIFIERS);

/** The kind of index a modifier asks for, or undefined when the word is not one. */
export function indexKindOf(modifier: string): IndexKind | undefined {
  return Object.hasOwn(INDEX_MODIFIERS, modifier) ? INDEX_MODIFIERS[modifier] : undefined;
}

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether an argument is an index of several columns (`a+b:unique`) rather than a column: a `+` in its name, before
 * any `:` or `=` (a column's default may hold one: `note=a+b`).
 */
export function isIndexArgument(source: string): boolean {
  return source.split(/[:=]/)[0]!.includes("+");
}

/**
 * Parses an index argument, `column+column[+...]:unique|:uniq|:index` (camelCase names give snake_case columns, as
 * for columns; a reference's name stands for its key, see `resolveIndex`); throws `CliError` naming the argument and
 * the problem.
 */
export function parseIndex(source: string): IndexSpec {
  const [names = "", ...modifiers] = source.split(":");
  const syntax = `Syntax of an index of several columns: column+column:unique or column+column:index (modifiers: ${INDEX_MODIFIER_NAMES.join(", ")}).`;
  const columns = names.split("+").map((name) => {
    if (!COLUMN_NAME.test(name)) throw new CliError(`Index "${source}": "${name}" is not a column name. ${syntax}`);
    return underscore(name);
  });
  if (modifiers.length !== 1) throw new CliError(`Index "${source}": give one kind of index. ${syntax}`);
  const kind = indexKindOf(modifiers[0]!);
  if (kind === undefined) throw new CliError(`Index "${source}": unknown kind "${modifiers[0]}". ${syntax}`);
  // NOCASE belongs on the text columns a case-insensitive check compares, which a list of names does not say.
  if (kind === "uniqueNocase") throw new CliError(`Index "${source}": :unique_nocase is for an index of one string column; use :unique here.`);
  return { source, columns, kind, label: columns.join("_and_") };
}

/**
 * The index on the columns its names give among `available` (the table's columns): a column's own name, or a
 * reference's name (`user` in `user+link:unique`) its key column `user_id`, and a polymorphic one's (`commentable`,
 * with `commentable_type` beside `commentable_id`) its type and key columns. Throws `CliError` naming the index and
 * a name that gives no column, or a column named twice.
 */
export function resolveIndex(spec: IndexSpec, table: string, available: readonly string[]): IndexSpec {
  const columns = spec.columns.flatMap((name) => {
    if (available.includes(name)) return [name];
    if (!available.includes(`${name}_id`)) throw new CliError(`Index "${spec.source}": ${table} has no column ${name} (columns: ${available.join(", ")}).`);
    return available.includes(`${name}_type`) ? [`${name}_type`, `${name}_id`] : [`${name}_id`];
  });
  const repeated = columns.find((column, at) => columns.indexOf(column) !== at);
  if (repeated !== undefined) throw new CliError(`Index "${spec.source}": the column ${repeated} is named twice.`);
  return { ...spec, columns, label: columns.join("_and_") };
}

/** The name of an index: `index_users_on_email`, `index_votes_on_user_id_and_link_id`. */
export function indexName(table: string, label: string): string {
  return `index_${table}_on_${label}`;
}

/**
 * CREATE INDEX for one index. `:unique_nocase` indexes its column `COLLATE NOCASE`, which SQLite uses for
 * `column = ? COLLATE NOCASE`.
 */
export function indexStatement(table: string, spec: IndexSpec): string {
  const unique = spec.kind === "plain" ? "" : "UNIQUE ";
  const collation = spec.kind === "uniqueNocase" ? " COLLATE NOCASE" : "";
  const columns = spec.columns.map((column) => `${sqlIdentifier(column)}${collation}`).join(", ");
  return `CREATE ${unique}INDEX ${sqlIdentifier(indexName(table, spec.label))} ON ${sqlIdentifier(table)} (${columns});`;
}
