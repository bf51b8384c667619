import {
  type AnyModel,
  argumentError,
  definePlugin,
  installRelationChecks,
  differencesBesidesConditions,
  IncompatibleRelation,
  type RecordOfModel,
  refuseUninspectable,
  Relation,
  type RelationOf,
  type TypedRelation,
} from "../kernel/index.js";

const RELATION = "a Relation of the same Model";

/** Refuses what is not a Relation (a Model class, a condition object, null) before anything reads it. */
function assertRelation(relation: Relation, other: unknown, method: string): void {
  const where = `${relation.model.name}.${method}`;
  // Before instanceof looks at it: a revoked Proxy fails even that.
  refuseUninspectable(where, RELATION, other);
  if (!(other instanceof Relation)) throw argumentError(where, RELATION, other);
}

/**
 * Rows matching this Relation's conditions or the other's; the Relations may differ only in conditions. They are
 * compared as written (their descriptions), never compiled: a plugin's compile hooks run once, when the query runs.
 * A `none()` Relation stays empty whatever is chained on it, while `r.or(none())` matches what `r` matches.
 */
function or<R extends Relation>(this: R, other: Relation): R {
  assertRelation(this, other, "or");
  const message = `${this.model.name}.or: the Relation must be of the same Model and differ only in conditions`;
  if (other.model !== this.model) throw new IncompatibleRelation(message);
  const ours = this.description;
  const theirs = other.description;
  const differences = differencesBesidesConditions(ours, theirs, this.model);
  if (differences.length > 0) throw new IncompatibleRelation(`${message}; they differ in ${differences.join(", ")}`);
  if (ours.none || theirs.none) return this;
  return this.with({ conditions: [{ kind: "or", branches: [ours.conditions, theirs.conditions] }] });
}

/** Joins the other Relation's conditions with AND; what it sets (order, limit, select...) replaces this one's. */
function merge<R extends Relation>(this: R, other: Relation): R {
  assertRelation(this, other, "merge");
  if (other.model !== this.model) throw new IncompatibleRelation(`${this.model.name}.merge takes a Relation of the same Model`);
  const ours = this.description;
  const theirs = other.description;
  return this.with({
    conditions: [...ours.conditions, ...theirs.conditions],
    order: theirs.order.length > 0 ? theirs.order : ours.order,
    limit: theirs.limit ?? ours.limit,
    offset: theirs.offset ?? ours.offset,
    select: theirs.select ?? ours.select,
    distinct: ours.distinct || theirs.distinct,
    none: ours.none || theirs.none,
    includes: [...new Set([...ours.includes, ...theirs.includes])],
    columns: [...ours.columns.filter((column) => !theirs.columns.some((their) => their.name === column.name)), ...theirs.columns],
    extensions: { ...ours.extensions, ...theirs.extensions },
  });
}

/**
 * Combining Relations of one Model: `or` (either's conditions) and `merge` (both's conditions, the other's order,
 * limit, offset and select). Each is also a static: `User.where(...).or(User.where(...))`, `User.merge(scope)`.
 */
export const combining = definePlugin({
  name: "combining",
  setup: installRelationChecks,
  relationMethods: { or, merge },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** Rows matching this Relation's conditions or the other's; the Relations may differ only in conditions. */
    or(other: TypedRelation<R>): this;
    /** This Relation with the other's conditions added and its order, paging, select and includes taking over. */
    merge(other: TypedRelation<R>): this;
  }

  interface PluginStatics<A> {
    /** `all().or(other)`. */
    or<M extends AnyModel>(this: M, other: TypedRelation<RecordOfModel<M>>): RelationOf<M>;
    /** `all().merge(other)`. */
    merge<M extends AnyModel>(this: M, other: TypedRelation<RecordOfModel<M>>): RelationOf<M>;
  }
}
