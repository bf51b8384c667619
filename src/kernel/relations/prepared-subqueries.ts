/**
 * Subqueries whose Relation the prepare stage prepares: `relationSubquery` makes one, and installs the step that
 * prepares those a Relation holds before it compiles.
 */
import { argumentError } from "../records/arguments.js";
import type { Subquery } from "../sql/sql.js";
import type { QueryPurpose, SelectParts } from "./relation-data.js";
import { type Preparable, prepareRelation, subqueryPreparationSlot } from "./relation-prepare.js";
import { RelationSubquery } from "./relation-subquery.js";
import { subqueriesOf, subqueriesReplaced } from "./subqueries-of-relation.js";

/**
 * The Relation with the Relation of each subquery it holds prepared, and compiled as prepared: the same Relation when
 * it holds none, or when no hook changed any of them (nothing is then made).
 */
function prepareSubqueries<Rel extends Preparable<Rel>>(relation: Rel): Rel | Promise<Rel> {
  const subqueries = subqueriesOf(relation.data);
  if (subqueries.length === 0) return relation;
  const replaced = new Map<Subquery, Subquery>();
  const replace = (subquery: (typeof subqueries)[number], made: unknown) => {
    if (made !== subquery.relation) replaced.set(subquery, subquery.preparedAs(made));
  };
  const waiting: Promise<void>[] = [];
  for (const subquery of subqueries) {
    const made = prepareRelation(subquery.relation, subquery.purpose);
    if (made instanceof Promise) waiting.push(made.then((prepared) => replace(subquery, prepared)));
    else replace(subquery, made);
  }
  const rebuilt = () => (replaced.size === 0 ? relation : relation.withPrepared(subqueriesReplaced(relation.data, replaced)));
  return waiting.length === 0 ? rebuilt() : Promise.all(waiting).then(rebuilt);
}

const PURPOSES: ReadonlySet<unknown> = new Set<QueryPurpose>(["load", "reload", "count", "exists", "pluck", "calculate", "preload", "updateAll", "deleteAll"]);

/**
 * A subquery of a Relation's rows for an `sql` fragment: `shape` joins the parts of its SELECT (after the compile
 * hooks of its Model for `purpose`) into SQL text, usually with `joinSelect` and other `columns`:
 * `sql\`${column("id")} IN ${relationSubquery(taggings, "load", (parts) => joinSelect({ ...parts, columns: '"tag_id"' }))}\``.
 * Unlike `subquery`, the async methods prepare its Relation (`relation:prepare`) as they prepare their own, so that a
 * plugin that rewrites conditions with work it awaits (an encryption's) rewrites those of the subquery too.
 */
export function relationSubquery<Rel extends Preparable<Rel>>(relation: Rel, purpose: QueryPurpose, shape: (parts: SelectParts) => string): Subquery {
  const isRelation = typeof relation === "object" && relation !== null && "model" in relation && "data" in relation && typeof relation.withPrepared === "function";
  if (!isRelation) throw argumentError("relationSubquery", "a Relation", relation);
  if (!PURPOSES.has(purpose)) throw argumentError("relationSubquery", `a query purpose (${[...PURPOSES].join(", ")})`, purpose);
  if (typeof shape !== "function") throw argumentError("relationSubquery", "a function that joins the parts of a SELECT", shape);
  subqueryPreparationSlot.prepare ??= prepareSubqueries;
  return new RelationSubquery(relation, purpose, shape);
}
