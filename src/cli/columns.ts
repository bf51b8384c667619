/**
 * Column syntax of the generators: `name[:type][:unique|:unique_nocase|:index][!][=<literal>]`.
 *
 * - `type` is one of string (the default; `text` is the same), integer, real, boolean, datetime, json, references;
 * - a `!` at the end of the name, the type or a modifier marks the column NOT NULL, and so does a `!` ending the
 *   whole argument after a default (`count:integer=0!`);
 * - `=<literal>` sets the DEFAULT (everything after the first `=`, so a string default may hold `:`; one that
 *   ends with `!` is written in quotes: `greeting:string='Hi!'`);
 * - `:unique` adds a unique index, `:index` a plain one; `:unique_nocase` a unique index that compares with SQLite's
 *   NOCASE (ASCII letters folded), which `uniqueness: { caseSensitive: false }` searches instead of reading the table;
 * - a camelCase name gives a snake_case column (`firstName` gives `first_name`);
 * - `user:references` gives the column `user_id`, referencing the table `users`, with an index;
 * - `commentable:references{polymorphic}` (Rails' syntax) gives `commentable_type` (the parent's Model name) and
 *   `commentable_id`, which references no one table, with one index on the pair.
 */
import { ActiveRecord } from "../active-record.js";
import { camelize, underscore } from "../kernel/index.js";
import { tableize } from "../plugins/table-naming.js";
import { type AttributeTypeName, GENERATOR_TYPES, type GeneratorType, isGeneratorType } from "./column-types.js";
import { CliError } from "./errors.js";
import { refuseReservedTable } from "./reserved-table-names.js";
import { defaultToSql } from "./sql-literals.js";

/** One column argument of `g model` or `g migration`, understood. */
export interface ColumnSpec {
  /** The argument as typed, for error messages. */
  readonly source: string;
  /** The generator type: an attribute type, or `references`. */
  readonly type: GeneratorType;
  /** The column's name in the table (`user_id` for `user:references`). */
  readonly column: string;
  /** Marked with `!`. */
  readonly required: boolean;
  /** The SQL literal of the DEFAULT, when `=<literal>` was given. */
  readonly defaultSql: string | undefined;
  /** Index to create on the column: from `:unique`, `:unique_nocase`, `:index`, or (plain) for a reference. */
  readonly index: "unique" | "uniqueNocase" | "plain" | undefined;
  /** For a reference, the parent table (`users` for `user:references`); none for a polymorphic one. */
  readonly parentTable: string | undefined;
  /** For a polymorphic reference, the column holding the parent's Model name (`commentable_type`). */
  readonly typeColumn: string | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MODIFIERS = ["unique", "unique_nocase", "index"] as const;
/** Rails' `text`, a long string: SQLite's TEXT holds strings of any length, so it is `string`. */
const TYPE_ALIASES: Readonly<Record<string, GeneratorType>> = { text: "string" };
/** The type of a polymorphic reference, in Rails' syntax: `commentable:references{polymorphic}`. */
const POLYMORPHIC_REFERENCE = "references{polymorphic}";

// A problem with one argument; `syntax` adds a reminder of the column syntax.
function fail(source: string, problem: string, syntax = true): never {
  const reminder = syntax ? ` Syntax: name[:type][:unique|:unique_nocase|:index][!][=default], type one of ${GENERATOR_TYPES.join(", ")}.` : "";
  throw new CliError(`Column "${source}": ${problem}.${reminder}`);
}

/** Parses one column argument; throws `CliError` naming the argument and the problem. */
export function parseColumn(source: string): ColumnSpec {
  const equals = source.indexOf("=");
  const declaration = equals === -1 ? source : source.slice(0, equals);
  const defaultText = equals === -1 ? undefined : source.slice(equals + 1);
  let required = false;
  const segments = declaration.split(":").map((segment) => {
    if (segment.endsWith("!")) {
      required = true;
      return segment.slice(0, -1);
    }
    return segment;
  });
  const [name = "", ...rest] = segments;
  if (name === "") fail(source, "the name is missing");
  if (!NAME.test(name)) fail(source, `"${name}" is not a valid column name (letters, digits and _, not starting with a digit)`);
  let type: GeneratorType = "string";
  let polymorphic = false;
  if (rest[0] !== undefined && !(MODIFIERS as readonly string[]).includes(rest[0])) {
    const word = rest.shift()!;
    if (word === "") fail(source, "the type is empty");
    polymorphic = word === POLYMORPHIC_REFERENCE;
    if (!polymorphic && word.startsWith("references{")) fail(source, `references takes {polymorphic} only, not "${word.slice("references".length)}"`, false);
    const named = polymorphic ? "references" : (TYPE_ALIASES[word] ?? word);
    if (!isGeneratorType(named)) fail(source, `unknown type "${word}"`);
    type = named;
  }
  let index: ColumnSpec["index"];
  for (const modifier of rest) {
    if (modifier === "unique") index = "unique";
    else if (modifier === "unique_nocase") index = "uniqueNocase";
    else if (modifier === "index") index ??= "plain";
    else fail(source, `unknown modifier "${modifier}" (modifiers: ${MODIFIERS.join(", ")})`);
  }
  // NOCASE folds letters of text: on any other type it would only make a plain unique index look case-insensitive.
  if (index === "uniqueNocase" && type !== "string") fail(source, `:unique_nocase is for string columns, not ${type}`, false);
  const base = underscore(name);
  if (type === "references") {
    if (defaultText !== undefined) fail(source, "a reference takes no default", false);
    const reference = { source, type, column: `${base}_id`, required: true, defaultSql: undefined, index: index ?? "plain" } as const;
    if (polymorphic) return { ...reference, parentTable: undefined, typeColumn: `${base}_type` };
    const parentTable = tableize(name);
    refuseReservedTable(parentTable, `Column "${source}"`, "a reference points at a table of the app's");
    return { ...reference, parentTable, typeColumn: undefined };
  }
  // Such a Model would throw InvalidModel at its first use: refuse the column before anything is written.
  const attribute = camelize(base);
  if (attribute in ActiveRecord.prototype) fail(source, `its attribute ${attribute} would have the name of a record method; choose another name`, false);
  let defaultSql: string | undefined;
  if (defaultText !== undefined) {
    const literal = defaultText.endsWith("!") ? defaultText.slice(0, -1) : defaultText;
    if (literal !== defaultText) required = true;
    const result = defaultToSql(type as AttributeTypeName, literal);
    if ("error" in result) fail(source, `the default ${JSON.stringify(literal)} ${result.error}`, false);
    defaultSql = result.sql;
  }
  return { source, type, column: base, required, defaultSql, index, parentTable: undefined, typeColumn: undefined };
}

/** The table columns one argument makes: one, or for a polymorphic reference its type and key columns. */
export function columnsOf(spec: ColumnSpec): string[] {
  return spec.typeColumn === undefined ? [spec.column] : [spec.typeColumn, spec.column];
}

/** Parses column arguments; throws `CliError` for a bad one or for two arguments naming the same column. */
export function parseColumns(sources: readonly string[]): ColumnSpec[] {
  const columns = sources.map(parseColumn);
  const seen = new Map<string, string>();
  for (const column of columns) {
    for (const name of columnsOf(column)) {
      const earlier = seen.get(name);
      if (earlier !== undefined) throw new CliError(`Columns "${earlier}" and "${column.source}" both name the column ${name}.`);
      seen.set(name, column.source);
    }
  }
  return columns;
}
