import { argumentError } from "../records/arguments.js";
import type { ResolvedModel } from "../records/resolve.js";
import { selectParts } from "../sql/compiler.js";
import { Subquery } from "../sql/sql.js";
import type { QueryPurpose, RelationData, SelectParts } from "./relation-data.js";

/** What the prepare stage needs of a Relation: its Model, its description, and a way to make one with another. */
export interface Preparable<Rel> {
  readonly model: ResolvedModel;
  readonly data: RelationData;
  with(changes: Partial<RelationData>): Rel;
  /** @internal The kernel's own change of its description (well-formed by construction): unchecked. */
  withPrepared(changes: Partial<RelationData>): Rel;
}

/**
 * A subquery of the rows of a Relation, made by `relationSubquery`: compiled, when the statement holding it is, with
 * the compile hooks of the Relation's Model for `purpose`. Before an async method compiles a Relation whose
 * conditions, computed columns or order hold one, the prepare stage prepares its Relation too (`relation:prepare`,
 * as for a Relation of that Model) and compiles the prepared one in its place.
 */
export class RelationSubquery<Rel extends Preparable<Rel> = any> extends Subquery {
  /** @internal Use `relationSubquery()`. */
  constructor(
    readonly relation: Rel,
    readonly purpose: QueryPurpose,
    readonly shape: (parts: SelectParts) => string,
  ) {
    super((params) => shape(selectParts(relation.data, relation.model, params, purpose)));
  }

  /** The same subquery of the Relation the prepare stage made of its own: a plain one, never prepared again. */
  preparedAs(relation: Rel): Subquery {
    const { purpose, shape } = this;
    return new Subquery((params) => shape(selectParts(relation.data, relation.model, params, purpose)));
  }
}

const PURPOSES: ReadonlySet<unknown> = new Set<QueryPurpose>(["load", "reload", "count", "exists", "pluck", "preload", "updateAll", "deleteAll"]);

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
  return new RelationSubquery(relation, purpose, shape);
}
