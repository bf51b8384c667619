import type { Condition } from "../sql/conditions.js";
import { SqlFragment, type Subquery } from "../sql/sql.js";
import type { ComputedColumn, OrderTerm, RelationData } from "./relation-data.js";
import { RelationSubquery } from "./relation-subquery.js";

/**
 * The Relation subqueries of a fragment, at any depth of the fragments spliced in it: walked with a stack, not by
 * recursion, as a fragment folded from thousands of others nests as deep as it is long (see `compileFragment`).
 */
function collectFrom(fragment: SqlFragment, found: RelationSubquery[]): void {
  // Values still to look at, the next one last: each fragment's values in their order, before the fragment's after it.
  const pending = [...fragment.values].reverse();
  while (pending.length > 0) {
    const value = pending.pop();
    if (value instanceof RelationSubquery) found.push(value);
    else if (value instanceof SqlFragment) pending.push(...[...value.values].reverse());
  }
}

/** The Relation subqueries of conditions, inside `not` and `or` too. */
function collectFromConditions(conditions: readonly Condition[], found: RelationSubquery[]): void {
  for (const condition of conditions) {
    if (condition.kind === "sql") collectFrom(condition.fragment, found);
    else if (condition.kind === "not") collectFromConditions(condition.conditions, found);
    else if (condition.kind === "or") for (const branch of condition.branches) collectFromConditions(branch, found);
  }
}

/** Whether a description holds any fragment (where a subquery could be): most loads hold none, and make nothing. */
function holdsFragments(data: RelationData): boolean {
  return (
    data.columns.length > 0 ||
    data.conditions.some((condition) => condition.kind === "sql" || condition.kind === "not" || condition.kind === "or") ||
    data.order.some((term) => term.kind === "sql")
  );
}

const NONE: readonly RelationSubquery[] = [];

/**
 * The Relation subqueries a description's fragments hold (in its conditions, computed columns and order), to be
 * prepared before it compiles; none, with nothing made, for a description without fragments.
 */
export function subqueriesOf(data: RelationData): readonly RelationSubquery[] {
  if (!holdsFragments(data)) return NONE;
  const found: RelationSubquery[] = [];
  collectFromConditions(data.conditions, found);
  for (const { fragment } of data.columns) collectFrom(fragment, found);
  for (const term of data.order) if (term.kind === "sql") collectFrom(term.fragment, found);
  return found;
}

/** The fragment with each subquery in `replaced` swapped for its replacement; the same fragment when none is in it. */
function replacedIn(fragment: SqlFragment, replaced: ReadonlyMap<Subquery, Subquery>): SqlFragment {
  const values = fragment.values.map((value) => (value instanceof SqlFragment ? replacedIn(value, replaced) : (replaced.get(value as Subquery) ?? value)));
  return values.every((value, index) => value === fragment.values[index]) ? fragment : new SqlFragment(fragment.strings, values);
}

function conditionsReplaced(conditions: readonly Condition[], replaced: ReadonlyMap<Subquery, Subquery>): Condition[] {
  return conditions.map((condition): Condition => {
    if (condition.kind === "sql") return { kind: "sql", fragment: replacedIn(condition.fragment, replaced) };
    if (condition.kind === "not") return { kind: "not", conditions: conditionsReplaced(condition.conditions, replaced) };
    if (condition.kind === "or") return { kind: "or", branches: condition.branches.map((branch) => conditionsReplaced(branch, replaced)) };
    return condition;
  });
}

/** The conditions, computed columns and order of a description with each subquery in `replaced` swapped for its replacement. */
export function subqueriesReplaced(data: RelationData, replaced: ReadonlyMap<Subquery, Subquery>): Pick<RelationData, "conditions" | "columns" | "order"> {
  const columns = data.columns.map((column): ComputedColumn => ({ ...column, fragment: replacedIn(column.fragment, replaced) }));
  const order = data.order.map((term): OrderTerm => {
    if (term.kind !== "sql") return term;
    // The reversed order holds the same subqueries (last() compiles it in the term's place).
    return { kind: "sql", fragment: replacedIn(term.fragment, replaced), ...(term.reversed && { reversed: replacedIn(term.reversed, replaced) }) };
  });
  return { conditions: conditionsReplaced(data.conditions, replaced), columns, order };
}
