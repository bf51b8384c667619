import { selectParts } from "../sql/compiler.js";
import { Subquery } from "../sql/sql.js";
import type { QueryPurpose, SelectParts } from "./relation-data.js";
import type { Preparable } from "./relation-prepare.js";

/**
 * A subquery of the rows of a Relation, made by `relationSubquery`: compiled, when the statement holding it is, with
 * the compile hooks of the Relation's Model for `purpose`. Before an async method compiles a Relation whose
 * conditions, computed columns or order hold one, the prepare stage prepares its Relation too (`relation:prepare`,
 * as for a Relation of that Model) and compiles the prepared one in its place (the same one, when no hook changed it).
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
