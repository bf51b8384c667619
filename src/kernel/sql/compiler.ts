import { argumentError } from "../records/arguments.js";
import { attributeNamed } from "../records/assign.js";
import type { Attribute } from "../records/attributes.js";
import { attributeTypes } from "../records/attribute-types.js";
import { blobAwareJson, isBlob } from "./blob-values.js";
import { jsonArraysWithinD1Limit } from "./bound-json.js";
import type { Condition } from "./conditions.js";
import { distinctListValues, matchesEachRowOnce } from "./list-values.js";
import { quoteIdentifier, underscore } from "./naming.js";
import { ParamWriter } from "./param-writer.js";
import { injectedName } from "./reserved-names.js";
import type { ComputedColumn, ListJoin, OrderTerm, QueryPurpose, RelationData, SelectParts } from "../relations/relation-data.js";
import { frozenDescription } from "../relations/relation-description.js";
import type { ResolvedModel } from "../records/resolve.js";
import { ColumnReference, SqlFragment, Subquery } from "./sql.js";

export type { ComputedColumn, OrderTerm, QueryPurpose, RelationData, SelectParts };

function columnOf(attribute: Attribute): string {
  return quoteIdentifier(attribute.column);
}

/**
 * Binds a value interpolated in a fragment (checked when the fragment was made) as D1 takes it: Dates and booleans
 * as their attribute types store them, and a BigInt, which D1 does not bind, as its digits cast to SQLite's integer.
 */
function bindFragmentParam(value: unknown, params: ParamWriter): string {
  if (typeof value === "bigint") return `CAST(${params.bind(String(value))} AS INTEGER)`;
  if (value instanceof Date) return params.bind(attributeTypes.datetime.toDatabase(value));
  return params.bind(typeof value === "boolean" ? attributeTypes.boolean.toDatabase(value) : value);
}

/** The SQL of a value of a fragment other than a fragment: a `column()`'s name, a subquery, or a bound value. */
function fragmentValueText(value: unknown, model: ResolvedModel | undefined, params: ParamWriter): string {
  if (value instanceof ColumnReference) return quoteIdentifier(model ? attributeNamed(model, value.attribute).column : underscore(value.attribute));
  if (value instanceof Subquery) return `(${value.compile(params)})`;
  return bindFragmentParam(value, params);
}

/**
 * Splices an `sql` fragment, binding its values, naming the columns of `column()` references, compiling subqueries.
 * The fragments spliced in it are walked with a stack of its own, not by recursion: one folded from thousands of
 * others (sql`${list}, ${value}`) nests as deep as it is long, past the JavaScript stack, and its SQL is then held
 * to D1's limit on length like any other.
 */
export function compileFragment(fragment: SqlFragment, model: ResolvedModel | undefined, params: ParamWriter): string {
  params.fragments = true;
  let text = fragment.strings[0]!;
  const open = [{ fragment, next: 0 }];
  while (open.length > 0) {
    const current = open.at(-1)!;
    const { strings, values } = current.fragment;
    if (current.next === values.length) {
      open.pop();
      // The text after the fragment just closed, in the one that holds it.
      const outer = open.at(-1);
      if (outer) text += outer.fragment.strings[outer.next]!;
      continue;
    }
    const value = values[current.next++];
    if (value instanceof SqlFragment) {
      text += value.strings[0]!;
      open.push({ fragment: value, next: 0 });
    } else {
      text += fragmentValueText(value, model, params) + strings[current.next]!;
    }
  }
  return text;
}

/**
 * `column IN (SELECT value FROM json_each(?))`: the list, each value once (a blob as its bytes' hex, read back with
 * `unhex`), bound as one JSON value whatever its length, or, past D1's limit for one value, as several JSON values
 * each in its own IN, joined with OR (each still searches an index; D1 refuses a compound SELECT of as many terms, so
 * not UNION ALL). `joinable` receives a list bound as one value, which `joinSelect` may read as a join instead.
 */
function compileIn(
  condition: Extract<Condition, { kind: "in" }>,
  model: ResolvedModel,
  params: ParamWriter,
  joinable?: (join: ListJoin) => void,
): string {
  const { attribute } = condition;
  const column = columnOf(attribute);
  const { values, texts } = distinctListValues(condition.values);
  const bound = jsonArraysWithinD1Limit(texts, `${model.name}.${attribute.name}`).map((json) => params.bind(json, { kind: "list", attribute }));
  const blobs = values.some(isBlob);
  const element = blobs ? blobAwareJson("type", "value", "json_extract(value, '$[0]')") : "value";
  const lists = bound.map((list) => `${column} IN (SELECT ${element} FROM json_each(${list}))`);
  // The join reads the list's values as they are: a list holding blobs stays IN.
  if (joinable && !blobs && bound.length === 1 && !condition.orNull && matchesEachRowOnce(values)) joinable({ term: lists[0]!, column, list: bound[0]! });
  if (condition.orNull) lists.push(`${column} IS NULL`);
  return lists.length === 1 ? lists[0]! : `(${joinBalanced(lists, " OR ")})`;
}

/** Chains of up to this many terms are joined flat; SQLite nests each further term one level deeper. */
const FLAT_TERMS = 8;

/**
 * Joins terms with AND or OR as a balanced tree of parenthesised halves, so that any number of conditions stays
 * far within D1's limit of 100 on the depth of an expression (1,000 terms nest 15 deep, not 1,000).
 */
function joinBalanced(terms: readonly string[], operator: " AND " | " OR "): string {
  if (terms.length <= FLAT_TERMS) return terms.join(operator);
  const middle = terms.length >> 1;
  return `(${joinBalanced(terms.slice(0, middle), operator)})${operator}(${joinBalanced(terms.slice(middle), operator)})`;
}

/** How many AND or OR operators `joinBalanced` puts above a term of `count`, at most. */
function joinHeight(count: number): number {
  return count <= FLAT_TERMS ? Math.max(count - 1, 0) : 1 + joinHeight(count - (count >> 1));
}

/** D1's limit on the depth of an expression (SQLite's expression tree height). */
const MAX_EXPRESSION_DEPTH = 100;

/** The deepest term conditions join: `"name" = json_extract(?91, '$[0]') COLLATE NOCASE` is 4 deep. */
const DEEPEST_TERM = 4;

/** The levels of a statement around its conditions: a subquery, the IN or count that holds it. */
const LEVELS_AROUND = 4;

/**
 * Refuses, before anything is sent, conditions that would nest past D1's expression depth. A balanced join keeps any
 * number of conditions shallow, but an `or` of Relations that each hold an `or` beside other conditions (or a
 * `whereNot` of such) nests one level for real each time, and no rewriting of it stays as cheap. SQLite counts the
 * conditions of a subquery inside an expression twice (once in the expression, once in the subquery), so conditions
 * are held to half the limit wherever they are: a Relation that runs alone also runs as a `withCount` scope, a paged
 * `updateAll` or an `sql` subquery.
 */
function assertDepthWithinD1Limit(depth: number, model: ResolvedModel): void {
  if (2 * (depth + DEEPEST_TERM) + LEVELS_AROUND <= MAX_EXPRESSION_DEPTH) return;
  throw new TypeError(
    `${model.name}: or() and whereNot() nest its conditions past D1's limit of ${MAX_EXPRESSION_DEPTH} on an expression's depth (an or() of Relations that each hold an or() beside other conditions, chained); it was not sent`,
  );
}

/** Joins compiled conditions with AND, as a balanced tree (see `joinBalanced`); for plugins that build a WHERE. */
export function joinWithAnd(terms: readonly string[]): string {
  return joinBalanced(terms, " AND ");
}

/** The branches of an OR, with nested ORs (`a.or(b).or(c)`) lifted into one list, so that chaining never nests. */
function orBranches(branches: ReadonlyArray<readonly Condition[]>): ReadonlyArray<readonly Condition[]> {
  return branches.flatMap((branch) => (branch.length === 1 && branch[0]!.kind === "or" ? orBranches(branch[0]!.branches) : [branch]));
}

function compileComparison(condition: Extract<Condition, { kind: "compare" }>, params: ParamWriter): string {
  const column = columnOf(condition.attribute);
  const value = params.bind(condition.value, { kind: "value", attribute: condition.attribute });
  return condition.operator === "ignoringCase" ? `${column} = ${value} COLLATE NOCASE` : `${column} ${condition.operator} ${value}`;
}

/** Compiles one condition to SQL; `depth` is how many operators will stand above it (see `assertDepthWithinD1Limit`). */
function compileCondition(condition: Condition, model: ResolvedModel, params: ParamWriter, depth: number): string {
  switch (condition.kind) {
    case "equal":
      return `${columnOf(condition.attribute)} = ${params.bind(condition.value, { kind: "value", attribute: condition.attribute })}`;
    case "null":
      return `${columnOf(condition.attribute)} IS NULL`;
    case "in":
      return compileIn(condition, model, params);
    case "compare":
      return compileComparison(condition, params);
    case "never":
      return "1 = 0";
    case "sql":
      return `(${compileFragment(condition.fragment, model, params)})`;
    case "not":
      return compileNot(condition.conditions, model, params, depth);
    case "or":
      return compileOr(orBranches(condition.branches), model, params, depth);
  }
}

function compileOr(branches: ReadonlyArray<readonly Condition[]>, model: ResolvedModel, params: ParamWriter, depth: number): string {
  const below = depth + joinHeight(branches.length);
  return `(${joinBalanced(
    branches.map((branch) => compileConditions(branch, model, params, below)),
    " OR ",
  )})`;
}

/** NOT of conditions; of one IS NULL, the plainer `IS NOT NULL` (`whereNot({ deletedAt: null })`), which reads an index alike. */
function compileNot(conditions: readonly Condition[], model: ResolvedModel, params: ParamWriter, depth: number): string {
  const [only] = conditions;
  if (conditions.length === 1 && only?.kind === "null") return `${columnOf(only.attribute)} IS NOT NULL`;
  return `NOT (${compileConditions(conditions, model, params, depth + 1)})`;
}

/** Compiles conditions joined with AND; `depth` is how many operators will stand above them. */
export function compileConditions(conditions: readonly Condition[], model: ResolvedModel, params: ParamWriter, depth = 0): string {
  if (conditions.length === 0) return "1 = 1";
  const below = depth + joinHeight(conditions.length);
  assertDepthWithinD1Limit(below, model);
  return joinWithAnd(conditions.map((condition) => compileCondition(condition, model, params, below)));
}

function compileOrderTerm(term: OrderTerm, model: ResolvedModel, params: ParamWriter): string {
  if (term.kind === "sql") return compileFragment(term.fragment, model, params);
  const nulls = term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : "";
  return `${columnOf(term.attribute)} ${term.direction.toUpperCase()}${nulls}`;
}

/**
 * The ORDER BY terms, each attribute once: a later term on an attribute already ordered by could only sort rows that
 * tie on it, which it does not change (`order({ name: "asc" }).order({ name: "desc" })` is `"name" ASC`). So an order
 * of attributes always fits D1's limit on terms, as a table has at most 100 columns.
 */
function compileOrder(order: readonly OrderTerm[], model: ResolvedModel, params: ParamWriter): string[] {
  const ordered = new Set<Attribute>();
  const kept = order.filter((term) => {
    if (term.kind === "sql") return true;
    const first = !ordered.has(term.attribute);
    ordered.add(term.attribute);
    return first;
  });
  return kept.map((term) => compileOrderTerm(term, model, params));
}

/** D1's limit on the terms of an ORDER BY and on the columns of a result (SQLite's limit on columns). */
const MAX_COLUMNS = 100;

/** Refuses, before anything is sent, an ORDER BY of more terms than D1 takes (more than 100 `sql` fragments). */
function assertOrderWithinD1Limit(parts: SelectParts, model: ResolvedModel): void {
  if (parts.order.length <= MAX_COLUMNS) return;
  throw new TypeError(`${model.name}.order: ${parts.order.length} terms in an ORDER BY are over D1's limit of ${MAX_COLUMNS}; it was not sent`);
}

/**
 * Refuses, before anything is sent, a SELECT of more columns than D1 returns: the Model's (up to 100, a table's most)
 * with the computed ones (`withCount`'s).
 */
function assertColumnsWithinD1Limit(own: number, computed: number, model: ResolvedModel): void {
  if (own + computed <= MAX_COLUMNS) return;
  throw new TypeError(
    `${model.name}: a SELECT of ${own} attributes and ${computed} computed columns (withCount's) is over D1's limit of ${MAX_COLUMNS} columns; it was not sent`,
  );
}

/** The attributes a SELECT loads: all, or those of `select` with the primary key (unless `distinct`). */
function selectedAttributes(data: RelationData, model: ResolvedModel): readonly Attribute[] {
  if (!data.select) return model.attributes;
  return data.distinct || data.select.includes(model.primaryKey) ? data.select : [model.primaryKey, ...data.select];
}

function ownColumns(data: RelationData, model: ResolvedModel): string {
  return data.select ? selectedAttributes(data, model).map(columnOf).join(", ") : model.selectList;
}

/**
 * The purposes whose SELECT makes records, and so carries their computed columns. The others (a count, `pluck`, a
 * set-based write) select what they answer in place of the columns: computed ones would bind values for no placeholder.
 */
const LOADS_RECORDS: ReadonlySet<QueryPurpose> = new Set<QueryPurpose>(["load", "reload", "preload"]);

/**
 * The columns of the SELECT: the Model's own, then the computed ones (`RelationData.columns`), each named; `*` is
 * then the table's, so that a joined list's column never comes with them.
 */
function selectColumns(data: RelationData, model: ResolvedModel, params: ParamWriter, purpose: QueryPurpose): string {
  const own = ownColumns(data, model);
  if (data.columns.length === 0 || !LOADS_RECORDS.has(purpose)) return own;
  assertColumnsWithinD1Limit(selectedAttributes(data, model).length, data.columns.length, model);
  const computed = data.columns.map(({ name, fragment }) => `(${compileFragment(fragment, model, params)}) AS ${quoteIdentifier(name)}`);
  return [own === "*" ? `${model.quotedTable}.*` : own, ...computed].join(", ");
}

/** The terms of a WHERE, which `joinSelect` joins with AND: a list of primary keys `joinable` as a join. */
function compileWhere(conditions: readonly Condition[], model: ResolvedModel, params: ParamWriter, joinable: (join: ListJoin) => void): string[] {
  const depth = joinHeight(conditions.length);
  return conditions.map((condition) =>
    condition.kind === "in" && condition.attribute === model.primaryKey ? compileIn(condition, model, params, joinable) : compileCondition(condition, model, params, depth),
  );
}

/** The hooks that compile a SELECT, in the order they run. */
const COMPILE_HOOKS = ["relation:select", "relation:where", "relation:order", "relation:paging"] as const;

/** Whether plugins change how this Model's queries compile (then nothing compiled may be reused). */
export function hasCompileHooks(model: ResolvedModel): boolean {
  return model.hooks.hasAnyOf(COMPILE_HOOKS);
}

/** The parts of the SELECT a Relation sends for `purpose`, after the `relation:*` hooks. */
export function selectParts(data: RelationData, model: ResolvedModel, params = new ParamWriter(), purpose: QueryPurpose = "load"): SelectParts {
  const hooks = model.hooks;
  let listJoin: ListJoin | undefined;
  const joinable = (join: ListJoin) => (listJoin ??= join);
  const parts: SelectParts = {
    distinct: data.distinct,
    columns: selectColumns(data, model, params, purpose),
    from: model.quotedTable,
    where: data.none ? ["1 = 0"] : compileWhere(data.conditions, model, params, joinable),
    order: compileOrder(data.order, model, params),
    limit: data.limit,
    offset: data.offset,
    params,
    listJoin,
  };
  if (hasCompileHooks(model)) {
    // The hooks see the description read-only, as plugins see a Relation's: a Model without them makes no view.
    const context = { data: frozenDescription(data), parts, model, purpose };
    for (const name of COMPILE_HOOKS) hooks.callSync(name, context);
  }
  assertOrderWithinD1Limit(parts, model);
  return parts;
}

/** Whether a value may be a LIMIT or OFFSET: a whole number from 0 within SQLite's 64-bit integers. */
export function isSqlCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < 2 ** 63;
}

/** A LIMIT or OFFSET as SQL text: only a whole number is ever spliced (a `relation:paging` hook may set anything). */
function countText(clause: string, value: number): string {
  if (!isSqlCount(value)) throw argumentError(clause, "a whole number from 0", value);
  return String(value);
}

/** The joined list's rows, and the one column they have: names of recordflare's own (see `injectedName`). */
const LIST = injectedName("list");
const LIST_VALUE = injectedName("list_value");

/**
 * The list condition to send as a join, if any: one whose term is still in the WHERE, in a SELECT without ORDER BY
 * (a sort after a join reads every row again; IN walks the list in order and stops at the LIMIT). Where the term
 * stands does not matter: every placeholder is numbered, so moving it to the FROM keeps each value in its place.
 */
function joinedList(parts: SelectParts): ListJoin | undefined {
  const join = parts.listJoin;
  return join && parts.where.includes(join.term) && parts.order.length === 0 ? join : undefined;
}

/** The WHERE terms left once the joined list's term is read as the join: all but that one. */
function termsBesideJoin(where: readonly string[], join: ListJoin): string[] {
  const rest = [...where];
  rest.splice(rest.indexOf(join.term), 1);
  return rest;
}

/**
 * The FROM of a SELECT: the table, or, for a list of primary keys, the list's values CROSS JOIN the table on its
 * key. D1 bills the join one row per value and one per key search (the IN it replaces, three per value); CROSS JOIN
 * keeps the list the outer loop, which SQLite, not knowing the list's length, might otherwise scan once per row of
 * another index's search. Only the primary key is surely indexed: on another column the join could search the whole
 * table once per value, so other lists stay IN. The values are distinct and no row matches two of them (see
 * `matchesEachRowOnce`), so each row comes once, as with IN. The list's column is reserved, so the table's own
 * columns stay unambiguous, and read qualified, so that even a column of that name the Model does not declare is.
 */
function fromClause(parts: SelectParts, join: ListJoin | undefined): string {
  if (!join) return parts.from;
  return `(SELECT value AS ${LIST_VALUE} FROM json_each(${join.list})) AS ${LIST} CROSS JOIN ${parts.from} ON ${join.column} = ${LIST}.${LIST_VALUE}`;
}

/** Joins SELECT parts into SQL text. */
export function joinSelect(parts: SelectParts): string {
  const join = joinedList(parts);
  const columns = join && parts.columns === "*" ? `${parts.from}.*` : parts.columns;
  const where = join ? termsBesideJoin(parts.where, join) : parts.where;
  let text = `SELECT ${parts.distinct ? "DISTINCT " : ""}${columns} FROM ${fromClause(parts, join)}`;
  if (where.length > 0) text += ` WHERE ${joinWithAnd(where)}`;
  if (parts.order.length > 0) text += ` ORDER BY ${parts.order.join(", ")}`;
  if (parts.limit !== undefined) text += ` LIMIT ${countText("LIMIT", parts.limit)}`;
  if (parts.offset !== undefined) text += `${parts.limit === undefined ? " LIMIT -1" : ""} OFFSET ${countText("OFFSET", parts.offset)}`;
  return text;
}

/** The query of compiled parts: its SQL, bound values and where each value came from (for a Statement). */
export function queryOfParts(parts: SelectParts) {
  return { sql: joinSelect(parts), params: parts.params.params, sources: parts.params.sources };
}

/** Compiles a Relation's SELECT for `purpose`. */
export function compileSelect(data: RelationData, model: ResolvedModel, purpose: QueryPurpose = "load") {
  return queryOfParts(selectParts(data, model, undefined, purpose));
}
