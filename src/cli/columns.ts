/**
 * Column syntax of the generators: `name[:type][:unique|:uniq|:unique_nocase|:index][!|?][=<literal>]`.
 *
 * - `type` is one of string (the default; `text` is the same), integer, real, boolean, datetime, json, references;
 * - a `!` at the end of the name, the type or a modifier marks the column NOT NULL, and so does a `!` ending the
 *   whole argument after a default (`count:integer=0!`);
 * - `=<literal>` sets the DEFAULT (everything after the first `=`, so a string default may hold `:`; one that
 *   ends with `!` is written in quotes: `greeting:string='Hi!'`);
 * - `:unique` (or Rails' `:uniq`) adds a unique index, `:index` a plain one; `:unique_nocase` a unique index that
 *   compares with SQLite's NOCASE (ASCII letters folded), which `uniqueness: { caseSensitive: false }` searches
 *   instead of reading the table;
 * - a camelCase name gives a snake_case column (`firstName` gives `first_name`);
 * - `user:references` gives the column `user_id`, referencing the table `users`, NOT NULL, with an index;
 *   `parent:references{comments}` references the table in braces (the Model's own table for a self reference), and
 *   a `?` after the type (`parent:references?{comments}`) makes the reference optional: a nullable column;
 * - `commentable:references{polymorphic}` (Rails' syntax) gives `commentable_type` (the parent's Model name) and
 *   `commentable_id`, which references no one table, with one index on the pair.
 */
import { ActiveRecord } from "../active-record.js";
import { camelize, underscore } from "../kernel/index.js";
import { tableize } from "../plugins/table-naming.js";
import { type AttributeTypeName, GENERATOR_TYPES, type GeneratorType, isGeneratorType } from "./column-types.js";
import { CliError } from "./errors.js";
import { INDEX_MODIFIER_NAMES, type IndexKind, indexKindOf, type IndexSpec, isIndexArgument, parseIndex } from "./index-specs.js";
import { refuseReservedColumns } from "./reserved-column-names.js";
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
  /** NOT NULL: marked with `!`, or a reference not marked optional with `?`. */
  readonly required: boolean;
  /** The SQL literal of the DEFAULT, when `=<literal>` was given. */
  readonly defaultSql: string | undefined;
  /** Index to create on the column: from `:unique`, `:unique_nocase`, `:index`, or (plain) for a reference. */
  readonly index: IndexKind | undefined;
  /**
   * Whether the argument is a name and an index modifier only (`url:index`): no type, `!` or default. Given to
   * `Add...To<Table>` for a column the table has, it adds the index alone.
   */
  readonly onlyIndexed: boolean;
  /** For a reference, the parent table (`users` for `user:references`, `comments` for `{comments}`); none for a polymorphic one. */
  readonly parentTable: string | undefined;
  /** For a polymorphic reference, the column holding the parent's Model name (`commentable_type`). */
  readonly typeColumn: string | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Rails' `text`, a long string: SQLite's TEXT holds strings of any length, so it is `string`. */
const TYPE_ALIASES: Readonly<Record<string, GeneratorType>> = { text: "string" };
/** A reference type: `references`, optional with `?`, with `{polymorphic}` (Rails' syntax) or `{<table>}`. */
const REFERENCE_TYPE = /^references(\?)?(?:\{(.*)\})?$/;
const POLYMORPHIC = "polymorphic";

// A problem with one argument; `syntax` adds a reminder of the column syntax.
function fail(source: string, problem: string, syntax = true): never {
  const reminder = syntax
    ? ` Syntax: name[:type][:${INDEX_MODIFIER_NAMES.join("|:")}][!][=default], type one of ${GENERATOR_TYPES.join(", ")}.`
    : "";
  throw new CliError(`Column "${source}": ${problem}.${reminder}`);
}

/** Parses one column argument; throws `CliError` naming the argument and the problem. */
export function parseColumn(source: string): ColumnSpec {
  const equals = source.indexOf("=");
  const declaration = equals === -1 ? source : source.slice(0, equals);
  const defaultText = equals === -1 ? undefined : source.slice(equals + 1);
  let required = false;
  let optional = false;
  const segments = declaration.split(":").map((segment) => {
    if (segment.endsWith("!") || segment.endsWith("?")) {
      if (segment.endsWith("!")) required = true;
      else optional = true;
      return segment.slice(0, -1);
    }
    return segment;
  });
  const [name = "", ...rest] = segments;
  if (name === "") fail(source, "the name is missing");
  if (!NAME.test(name)) fail(source, `"${name}" is not a valid column name (letters, digits and _, not starting with a digit)`);
  let type: GeneratorType = "string";
  let referenced: string | undefined;
  const typed = rest[0] !== undefined && indexKindOf(rest[0]) === undefined;
  if (typed) {
    const word = rest.shift()!;
    if (word === "") fail(source, "the type is empty");
    const reference = REFERENCE_TYPE.exec(word);
    if (reference) optional ||= reference[1] === "?";
    referenced = reference?.[2];
    const named = reference ? "references" : (TYPE_ALIASES[word] ?? word);
    if (!isGeneratorType(named)) fail(source, `unknown type "${word}"`);
    type = named;
  }
  let index: ColumnSpec["index"];
  for (const modifier of rest) {
    const kind = indexKindOf(modifier);
    if (kind === undefined) fail(source, `unknown modifier "${modifier}" (modifiers: ${INDEX_MODIFIER_NAMES.join(", ")})`);
    index = kind === "plain" ? (index ?? kind) : kind;
  }
  // NOCASE folds letters of text: on any other type it would only make a plain unique index look case-insensitive.
  if (index === "uniqueNocase" && type !== "string") fail(source, `:unique_nocase is for string columns, not ${type}`, false);
  if (optional && type !== "references") fail(source, "? makes a reference optional; other columns are nullable unless marked !", false);
  if (optional && required) fail(source, "a column is either required (!) or optional (?), not both", false);
  const base = underscore(name);
  if (type === "references") return referenceSpec(source, name, referenced, { required: !optional, index, defaultText });
  refuseRecordMemberName(source, "attribute", camelize(base));
  let defaultSql: string | undefined;
  if (defaultText !== undefined) {
    const literal = defaultText.endsWith("!") ? defaultText.slice(0, -1) : defaultText;
    if (literal !== defaultText) required = true;
    const result = defaultToSql(type as AttributeTypeName, literal);
    if ("error" in result) fail(source, `the default ${JSON.stringify(literal)} ${result.error}`, false);
    defaultSql = result.sql;
  }
  const onlyIndexed = !typed && !required && defaultText === undefined && index !== undefined;
  return { source, type, column: base, required, defaultSql, index, onlyIndexed, parentTable: undefined, typeColumn: undefined };
}

/**
 * Throws `CliError` naming the argument when the member of the record it gives (its attribute, or the `belongsTo` of
 * `g model`'s reference) would have the name of a record method, whose Model throws InvalidModel at its first use,
 * or be `then`, which makes every record a thenable (refused as the Model is declared): refused before anything is
 * written.
 */
export function refuseRecordMemberName(source: string, kind: "attribute" | "belongsTo", name: string): void {
  if (name in ActiveRecord.prototype) fail(source, `its ${kind} ${name} would have the name of a record method; choose another name`, false);
  if (name === "then") fail(source, `its ${kind} then would make every record a thenable, which await takes for a promise; choose another name`, false);
}

// A reference: `<name>_id` to the table named after it or given in braces, or a polymorphic pair of columns.
function referenceSpec(
  source: string,
  name: string,
  referenced: string | undefined,
  options: { required: boolean; index: IndexKind | undefined; defaultText: string | undefined },
): ColumnSpec {
  if (options.defaultText !== undefined) fail(source, "a reference takes no default", false);
  const base = underscore(name);
  const reference = { source, type: "references", column: `${base}_id`, required: options.required, defaultSql: undefined, index: options.index ?? "plain", onlyIndexed: false } as const;
  if (referenced === POLYMORPHIC) return { ...reference, parentTable: undefined, typeColumn: `${base}_type` };
  if (referenced !== undefined && !NAME.test(referenced)) {
    fail(source, `references takes {polymorphic} or the parent's table, such as {comments}, not "{${referenced}}"`, false);
  }
  const parentTable = referenced ?? tableize(name);
  refuseReservedTable(parentTable, `Column "${source}"`, "a reference points at a table of the app's");
  return { ...reference, parentTable, typeColumn: undefined };
}

/** The index a column argument asks for, if any: on its column, or on a polymorphic reference's type and key. */
export function indexOfColumn(spec: ColumnSpec): IndexSpec | undefined {
  if (spec.index === undefined) return undefined;
  // A polymorphic pair is named for the association, as Rails names it (`index_comments_on_commentable`).
  const label = spec.typeColumn === undefined ? spec.column : referenceName(spec);
  return { source: spec.source, columns: columnsOf(spec), kind: spec.index, label };
}

/** A reference's name in snake_case, its key column without `_id`: `blog_post` for `blogPost:references`. */
export function referenceName(spec: ColumnSpec): string {
  return spec.column.slice(0, -"_id".length);
}

/** The table columns one argument makes: one, or for a polymorphic reference its type and key columns. */
export function columnsOf(spec: ColumnSpec): string[] {
  return spec.typeColumn === undefined ? [spec.column] : [spec.typeColumn, spec.column];
}

/** The arguments of a generator: its columns, and its indexes of several columns. */
export interface GeneratorArguments {
  readonly columns: readonly ColumnSpec[];
  readonly indexes: readonly IndexSpec[];
}

/**
 * Parses the column and index arguments of a generator; throws `CliError` for a bad one, for a column of a reserved
 * name, for two arguments naming the same column, or for two indexes on the same columns.
 */
export function parseArguments(sources: readonly string[]): GeneratorArguments {
  const columns = sources.filter((source) => !isIndexArgument(source)).map(parseColumn);
  for (const column of columns) refuseReservedColumns(column.source, columnsOf(column));
  const indexes = sources.filter(isIndexArgument).map(parseIndex);
  refuseRepeats(columns.map((column) => ({ source: column.source, names: columnsOf(column) })), (earlier, later, name) => `Columns "${earlier}" and "${later}" both name the column ${name}.`);
  refuseRepeats(indexes.map((index) => ({ source: index.source, names: [index.label] })), (earlier, later) => `Indexes "${earlier}" and "${later}" are on the same columns.`);
  return { columns, indexes };
}

// Throws `CliError` with `message` when two arguments give the same name.
function refuseRepeats(named: ReadonlyArray<{ source: string; names: readonly string[] }>, message: (earlier: string, later: string, name: string) => string): void {
  const seen = new Map<string, string>();
  for (const { source, names } of named) {
    for (const name of names) {
      const earlier = seen.get(name);
      if (earlier !== undefined) throw new CliError(message(earlier, source, name));
      seen.set(name, source);
    }
  }
}
