import {
  column,
  type ComputedColumn,
  computedValueOf,
  fragmentOf,
  isPlainObject,
  joinSelect,
  MissingAttribute,
  previewText,
  quoteIdentifier,
  Relation,
  relationSubquery,
  reservedName,
  sql,
  type SqlFragment,
  type Subquery,
} from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import type { PluginWork } from "./installation.js";
import { countColumn, scopedCountColumn } from "./loaded-count.js";
import { associationsOf } from "./registry.js";
import { scopedTargetOf } from "./slot.js";
import { type Hop, hopOf, leadingTo, throughHops } from "./through-hops.js";

/** A scope `withCount` narrows the counted records by: a function of their Relation giving a Relation of them. */
type CountScope = (relation: Relation) => Relation;

/** The scopes of the counts a Relation carries, by association name (undefined: every record of the association). */
type CountScopes = Readonly<Record<string, CountScope | undefined>>;

/** The Relation's own entry (see `RelationData.extensions`): the counts it loads, so that where and order reuse them. */
const COUNTS = "withCount";

/** The record property a count is read from: the association's name plus `Count` (`comments` gives `commentsCount`). */
const countProperty = (name: string): string => `${name}Count`;

/**
 * The `hasMany` (direct, `as:` or through) a count names; `TypeError` naming the Model and method otherwise. Only
 * `withCount` loads the count as `<name>Count`, so only it is refused where an attribute (a counter cache) has that name.
 */
function countedAssociation(relation: Relation, method: string, name: unknown): ResolvedAssociation {
  const model = relation.model.name;
  if (typeof name !== "string") throw new TypeError(`${model}.${method}: an association is named by a string, not ${previewText(name)}`);
  const association = associationsOf(relation.model.model).get(name);
  if (!association) throw new TypeError(`${model}.${method}: ${name} is not an association of ${model}`);
  if (association.kind !== "hasMany") throw new TypeError(`${model}.${method}: ${name} is a ${association.kind}; only a hasMany's records are counted`);
  if (method === "withCount" && relation.model.byName.has(countProperty(name))) {
    throw new TypeError(`${model}.${method}: ${model} has an attribute ${countProperty(name)} (a counter cache?), which the count would hide; read it, or count with ${name}().count()`);
  }
  return association;
}

/**
 * The table of each level of a count, under a name of recordflare's own: so `owner.key` can only be the owner's row.
 * A count inside a count's scope (`nesting` 1 and on) names its levels apart from those of the counts around it.
 */
const levelAlias = (nesting: number, depth: number) => quoteIdentifier(reservedName(`counted_${nesting > 0 ? `${nesting}_` : ""}${depth}`));

/** The Relation's own entry while a count's scope narrows it: the name its table has in that count, and how deep. */
const COUNTED_LEVEL = "withCount:level";

/** Where a count's scope runs: the alias of the level its rows are, and that count's nesting (see `levelAlias`). */
interface CountedLevel {
  readonly alias: string;
  readonly nesting: number;
}

/**
 * One level of a count as a subquery: the rows of `relation` (with its Model's plugins: a tenant's, a soft delete's,
 * and, in an async method, its `relation:prepare` hooks) selecting `columns`, its table renamed. A scope's limit or
 * offset is refused: one COUNT cannot page each owner's rows.
 */
function levelSubquery(relation: Relation, columns: string, alias: string, where: string): Subquery {
  const { limit, offset } = relation.description;
  if (limit !== undefined || offset !== undefined) throw new TypeError(`${where}: a scope with a limit or offset cannot be counted (one COUNT does not page each owner's rows)`);
  // A count has no order: the scope's is dropped before it compiles (its terms would bind values for nothing).
  const unordered = relation.description.order.length === 0 ? relation : relation.with({ order: [] });
  return relationSubquery(unordered, "count", (parts) => joinSelect({ ...parts, columns, from: `${parts.from} AS ${alias}`, distinct: false, order: [], listJoin: undefined }));
}

/**
 * A level's rows: the hop's target, in the association's own scope, and the count's scope on the last one. The scope
 * learns its level (`COUNTED_LEVEL`): a count it makes in turn correlates to the level's rows by their alias.
 */
function levelRows(hop: Hop, scope: CountScope | undefined, level: CountedLevel | undefined, where: string): Relation {
  const rows = scopedTargetOf(hop.association, undefined);
  if (!level || !scope) return rows;
  const scoped = scope(rows.withExtension(COUNTED_LEVEL, level));
  if (!(scoped instanceof Relation) || scoped.model !== rows.model) throw new TypeError(`${where}: the scope must return a Relation of ${rows.model.name}, not ${previewText(scoped)}`);
  return scoped;
}

/**
 * `(SELECT COUNT(*) FROM "comments" AS c0 WHERE "link_id" = "links"."id" AND ...)`: the owner row's records of the
 * association, correlated to the owner's table. A through association counts its targets as `link.tags().count()`
 * does, each once: each hop's rows chosen by the keys of the hop before (`"id" IN (SELECT "tag_id" ...)`), every
 * level read by the index on its key.
 */
function countSubquery(ownerRows: Relation, association: ResolvedAssociation, scope: CountScope | undefined): SqlFragment {
  const owner = ownerRows.model;
  const where = `${owner.name}.withCount: ${association.name}`;
  const hops = association.through === undefined ? [hopOf(association)] : throughHops(owner.model, association);
  // Inside a count's scope, the owner's row is that count's level, under its alias.
  const around = ownerRows.extension(COUNTED_LEVEL) as CountedLevel | undefined;
  const nesting = around ? around.nesting + 1 : 0;
  const alias = (depth: number) => levelAlias(nesting, depth);
  const lastLevel = { alias: alias(hops.length - 1), nesting };
  const levelOf = (depth: number) => (depth === hops.length - 1 ? lastLevel : undefined);
  const ownerKey = `${around?.alias ?? owner.quotedTable}.${quoteIdentifier(owner.byName.get(hops[0]!.ownKey)!.column)}`;
  let rows = levelRows(hops[0]!, scope, levelOf(0), where).where(sql`${column(hops[0]!.theirKey)} = ${fragmentOf(ownerKey, [])}`);
  hops.slice(1).forEach((hop, index) => {
    const above = leadingTo(rows, hop);
    const keys = levelSubquery(above, quoteIdentifier(above.model.byName.get(hop.ownKey)!.column), alias(index), where);
    rows = levelRows(hop, scope, levelOf(index + 1), where).where(sql`${column(hop.theirKey)} IN ${keys}`);
  });
  return sql`${levelSubquery(rows, "COUNT(*)", lastLevel.alias, where)}`;
}

/** The count of a Relation's association as it loads it: with the scope `withCount` gave, if any. */
function countOf(relation: Relation, method: string, name: unknown): { name: string; fragment: SqlFragment } {
  const association = countedAssociation(relation, method, name);
  const scopes = (relation.extension(COUNTS) ?? {}) as CountScopes;
  return { name: association.name, fragment: countSubquery(relation, association, scopes[association.name]) };
}

/** The names and scopes `withCount` was given: names, and objects of names to scopes. */
function countsGiven(relation: Relation, specs: readonly unknown[]): Array<[string, CountScope | undefined]> {
  const where = `${relation.model.name}.withCount`;
  if (specs.length === 0) throw new TypeError(`${where} needs the name of a hasMany association`);
  return specs.flatMap((spec): Array<[string, CountScope | undefined]> => {
    if (typeof spec === "string") return [[spec, undefined]];
    if (!isPlainObject(spec)) throw new TypeError(`${where}: takes association names, or an object of names to scopes, not ${previewText(spec)}`);
    return Object.entries(spec).map(([name, scope]) => {
      if (typeof scope !== "function") throw new TypeError(`${where}: the scope of ${name} must be a function of the Relation, not ${previewText(scope)}`);
      return [name, scope as CountScope];
    });
  });
}

/**
 * `Link.withCount("comments")`: each record also carries `commentsCount`, the number of its comments, computed in the
 * main SELECT by a correlated subquery (one statement, each count read by the index on the foreign key). An object
 * narrows what is counted: `withCount({ comments: (q) => q.where({ approved: true }) })`. Relation a name again
 * replaces its count.
 */
function withCount<R extends Relation>(this: R, ...specs: unknown[]): R {
  // A name given twice is counted once, by its last scope: each count is a column, and D1 returns at most 100.
  const given = [...new Map(countsGiven(this, specs))];
  let scopes = (this.extension(COUNTS) ?? {}) as CountScopes;
  for (const [name, scope] of given) scopes = { ...scopes, [countedAssociation(this, "withCount", name).name]: scope };
  const counting = this.withExtension(COUNTS, scopes);
  // A scoped count is kept under a name of its own: `size()` answers only from a count of what the association reads.
  const counted: ComputedColumn[] = given.map(([name, scope]) => {
    const { fragment } = countOf(counting, "withCount", name);
    return { name: scope ? scopedCountColumn(name) : countColumn(name), fragment };
  });
  const replaced = new Set(given.flatMap(([name]) => [countColumn(name), scopedCountColumn(name)]));
  const kept = this.description.columns.filter((each) => !replaced.has(each.name));
  return counting.with({ columns: [...kept, ...counted] });
}

const OPERATORS = new Set(["=", "!=", ">", ">=", "<", "<="]);

/**
 * `whereCount("comments", ">", 5)`: the rows whose count of the association compares so with the number; the count
 * is the one `withCount` loads (its scope too) when it was called first.
 */
function whereCount<R extends Relation>(this: R, name: unknown, operator: unknown, value: unknown): R {
  const where = `${this.model.name}.whereCount`;
  if (typeof operator !== "string" || !OPERATORS.has(operator)) throw new TypeError(`${where}: the operator must be one of ${[...OPERATORS].join(", ")}, not ${previewText(operator)}`);
  if (!Number.isSafeInteger(value)) throw new TypeError(`${where}: the count is compared with a whole number, not ${previewText(value)}`);
  const { fragment } = countOf(this, "whereCount", name);
  return this.where(sql`${fragment} ${fragmentOf(operator, [])} ${value}`, "whereCount") as R;
}

/**
 * `orderByCount("comments", "desc")`: orders by the count of the association, after the order given before it; the
 * count is the one `withCount` loads (its scope too) when it was called first.
 */
function orderByCount<R extends Relation>(this: R, name: unknown, direction: unknown = "asc"): R {
  if (direction !== "asc" && direction !== "desc") throw new TypeError(`${this.model.name}.orderByCount: the direction must be "asc" or "desc", not ${previewText(direction)}`);
  const { fragment } = countOf(this, "orderByCount", name);
  const ordered = (way: string) => sql`${fragment} ${fragmentOf(way, [])}`;
  // With its reversed form, so that last() can read it from the other end: the app wrote no sql.
  const term = { kind: "sql" as const, fragment: ordered(direction.toUpperCase()), reversed: ordered(direction === "asc" ? "DESC" : "ASC") };
  return this.with({ order: [...this.description.order, term] });
}

/**
 * Gives each record of a Model with `hasMany` associations a `<name>Count` property per association, read from the
 * row `withCount` loaded; reading one not loaded throws `MissingAttribute` naming the method to load it, and assigning
 * one throws `TypeError` (the query computes it).
 */
function defineCountProperties(model: Function): void {
  const prototype = model.prototype as object;
  for (const association of associationsOf(model).values()) {
    const property = countProperty(association.name);
    if (association.kind !== "hasMany" || property in prototype) continue;
    const [whole, scoped] = [countColumn(association.name), scopedCountColumn(association.name)];
    Object.defineProperty(prototype, property, {
      configurable: true,
      get(this: object) {
        const value = computedValueOf(this, whole) ?? computedValueOf(this, scoped);
        if (value === undefined) throw new MissingAttribute(`${model.name}#${property} is not loaded; query with ${model.name}.withCount("${association.name}")`);
        return Number(value);
      },
      // Without it, an assignment fails as a raw "has only a getter" error.
      set() {
        throw new TypeError(`${model.name}#${property} is read-only: the query computes it (withCount("${association.name}")); change the ${association.name} themselves`);
      },
    });
  }
}

/** What the `associationCounts` plugin does (see association-counts-plugin.ts): its methods, and a count property per `hasMany`. */
export const associationCountWork: PluginWork = {
  methods: { withCount, whereCount, orderByCount },
  hooks: {
    "model:finalize": defineCountProperties,
  },
};
