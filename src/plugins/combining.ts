import { compileSelect, definePlugin, IncompatibleRelation, type Relation } from "../kernel/index.js";

/** What a Relation sends besides its conditions, and what it preloads: the two sides of `or` must agree on it. */
function shapeBesidesConditions(relation: Relation): string {
  const { sql, params } = compileSelect({ ...relation.data, conditions: [], none: false }, relation.model);
  return JSON.stringify([sql, params, relation.data.includes]);
}

/**
 * Rows matching this Relation's conditions or the other's; the Relations may differ only in conditions. A
 * `none()` Relation stays empty whatever is chained on it, while `r.or(none())` matches what `r` matches.
 */
function or<R extends Relation>(this: R, other: Relation): R {
  if (other.model !== this.model || shapeBesidesConditions(this) !== shapeBesidesConditions(other)) {
    throw new IncompatibleRelation(`${this.model.name}.or: the Relation must be of the same Model and differ only in conditions`);
  }
  if (this.data.none || other.data.none) return this;
  return this.with({
    conditions: [{ kind: "or", branches: [this.data.conditions, other.data.conditions] }],
    extensions: { ...other.data.extensions, ...this.data.extensions },
  });
}

/** Joins the other Relation's conditions with AND; what it sets (order, limit, select...) replaces this one's. */
function merge<R extends Relation>(this: R, other: Relation): R {
  if (other.model !== this.model) throw new IncompatibleRelation(`${this.model.name}.merge takes a Relation of the same Model`);
  const ours = this.data;
  const theirs = other.data;
  return this.with({
    conditions: [...ours.conditions, ...theirs.conditions],
    order: theirs.order.length > 0 ? theirs.order : ours.order,
    limit: theirs.limit ?? ours.limit,
    offset: theirs.offset ?? ours.offset,
    select: theirs.select ?? ours.select,
    distinct: ours.distinct || theirs.distinct,
    none: ours.none || theirs.none,
    includes: [...new Set([...ours.includes, ...theirs.includes])],
    extensions: { ...ours.extensions, ...theirs.extensions },
  });
}

/**
 * Combining Relations of one Model: `or` (either's conditions) and `merge` (both's conditions, the other's order,
 * limit, offset and select). Each is also a static: `User.where(...).or(User.where(...))`, `User.merge(scope)`.
 */
export const combining = definePlugin({
  name: "combining",
  relationMethods: { or, merge },
});
