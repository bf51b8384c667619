import {
  attributeWas,
  column,
  databaseOfRelation,
  defineStatement,
  fragmentOf,
  injectedName,
  isAttributeLoaded,
  joinWithAnd,
  ParamWriter,
  prepareRelation,
  prepareRelationNow,
  previewText,
  primaryKeyOf,
  quoteIdentifier,
  refuseNonKeys,
  type Relation,
  relationOf,
  type ResolvedModel,
  rowSubclassesOf,
  selectParts,
  sql,
  type SqlFragment,
  withoutDefaultScope,
  type WriteOutcome,
  type WritePlan,
  type WrittenRows,
  writeStoredAttribute,
} from "../../kernel/index.js";
import { meetsConditions } from "./conditions-in-memory.js";
import { type CountedScope, countedScopeOf, mayChangeScope, scopeConditionsOf } from "./counted-scope.js";
import type { ResolvedAssociation } from "./definition.js";
import type { PluginWork } from "./installation.js";
import { rowKeyOf } from "./keys.js";
import { hasOwnScope } from "./polymorphic.js";
import { associationsOf, slotsOf } from "./registry.js";
import { ownerBuiltThrough } from "./required-parents.js";
import { scopedTargetOf } from "./slot.js";

type Counted = Record<string, any>;

/**
 * A `belongsTo` that keeps a counter on its parent (`counterCache` is the parent's attribute), with the Model that
 * declared it (`declaredOn`): a subclass inherits the counter as its parent counts it, within the parent's default
 * scopes, whatever the subclass adds (a parent's `hasMany` of the declaring Model reads that Model's rows). A
 * polymorphic `belongsTo` keeps one per listed Model (`target`), each counting the rows whose type is `typeName`.
 */
type Counter = ResolvedAssociation & { readonly counterCache: string; readonly declaredOn: Function; readonly typeName?: string };

const countersByModel = new WeakMap<Function, readonly Counter[]>();

/** The topmost class above `model` (itself included) that has the same counter: the one whose declaration it is. */
function declaringModel(model: Function, counter: ResolvedAssociation): Function {
  let declaring = model;
  for (let parent = Object.getPrototypeOf(model); typeof parent === "function" && parent !== Function.prototype; parent = Object.getPrototypeOf(parent)) {
    const same = associationsOf(parent).get(counter.name);
    if (!same || same.counterCache !== counter.counterCache || same.foreignKey !== counter.foreignKey) break;
    declaring = parent;
  }
  return declaring;
}

/** A `belongsTo`'s counters: its one, or for a polymorphic one a counter per listed Model, on that Model's table and key. */
function countersOfAssociation(association: ResolvedAssociation, declaredOn: Function): Counter[] {
  if (!association.polymorphic) return [{ ...association, declaredOn } as Counter];
  return [...association.polymorphic.models].map(([typeName, target]) => ({ ...association, target, primaryKey: primaryKeyOf(target).name, declaredOn, typeName }) as Counter);
}

/** The counters a child Model keeps: those of each `belongsTo` with `counterCache`. */
function countersOf(model: Function): readonly Counter[] {
  let counters = countersByModel.get(model);
  if (!counters) {
    counters = [...associationsOf(model).values()]
      .filter((association) => association.counterCache !== undefined)
      .flatMap((association) => countersOfAssociation(association, declaringModel(model, association)));
    countersByModel.set(model, counters);
  }
  return counters;
}

// The parents' counts, joined to the parents' rows: names of recordflare's own, which no table or column takes.
const COUNTED = injectedName("counted");
const PARENT = injectedName("parent");
const COUNT = injectedName("count");

const columnOf = (model: ResolvedModel, attribute: string) => quoteIdentifier(model.byName.get(attribute)!.column);

/**
 * The WHERE terms of the parent rows a counter statement may change, bound with `params`: those its plugins'
 * `relation:where` hooks allow (the current tenant's rows only), whatever the parent's default scopes, which the
 * Relation was given without (a counter is kept on an archived or soft-deleted parent too, as Rails' are).
 */
function parentTerms(parent: Relation, params: ParamWriter): string[] {
  return selectParts(parent.description, parent.model, params, "updateAll").where;
}

/**
 * The UPDATE that adds to (`+`) or takes from (`-`) each parent's counter the number of the child rows that `rows`
 * selects and that point at it: `UPDATE "posts" SET "comments_count" = COALESCE("comments_count", 0) + counted.count
 * FROM (SELECT "post_id", COUNT(*) ... GROUP BY "post_id") WHERE "id" = counted.parent`. One statement for any
 * number of rows and parents, reading the foreign keys as the rows hold them when it runs, never as loaded.
 */
function counterUpdate(child: ResolvedModel, counter: Counter, sign: "+" | "-", rows: SqlFragment): SqlFragment {
  // Planned in write:plan, which is sync: the parents' Relation is prepared as a sync form's is.
  const instead = `a counter cache of ${child.name} cannot be kept on ${counter.target.name}; count with await ${child.name}.count() instead`;
  const parent = prepareRelationNow(withoutDefaultScope(relationOf(counter.target)), "updateAll", counter.counterCache, instead);
  const params = new ParamWriter();
  const where = joinWithAnd([`${columnOf(parent.model, counter.primaryKey)} = ${COUNTED}.${PARENT}`, ...parentTerms(parent, params)]);
  const count = columnOf(parent.model, counter.counterCache);
  const foreignKey = columnOf(child, counter.foreignKey);
  const head = `UPDATE ${parent.model.quotedTable} SET ${count} = COALESCE(${count}, 0) ${sign} ${COUNTED}.${COUNT} FROM (SELECT ${foreignKey} AS ${PARENT}, COUNT(*) AS ${COUNT} FROM ${child.quotedTable} WHERE `;
  const tail = ` GROUP BY ${foreignKey}) AS ${COUNTED} WHERE ${where}`;
  return sql`${fragmentOf(head, [])}${rows}${fragmentOf(tail, params.params)}`;
}

/** The child rows a write wrote, by their keys (see `WrittenRows.keys`). */
const writtenRows = (plan: WritePlan, keys: SqlFragment) => sql`${column(plan.model.primaryKey.name)} IN (SELECT "key" FROM (${keys}))`;

/** A record's row, by its key as stored, where it meets the `where` terms given (a DELETE's, to take the row it deletes). */
function recordRow(plan: WritePlan, where: readonly SqlFragment[]): SqlFragment {
  const key = plan.model.primaryKey.name;
  const row = sql`${column(key)} = ${rowKeyOf(plan.record, key)}`;
  return where.reduce((rows, term) => sql`${rows} AND (${term})`, row);
}

/** Whether a write sets the counter's foreign key, or a polymorphic one's type (a move, or a nullify). */
const setsForeignKey = (plan: WritePlan, counter: Counter) => plan.values.has(counter.foreignKey) || (counter.typeName !== undefined && plan.values.has(counter.polymorphic!.foreignType));

/** Whether a row (its attributes as `read` gives them) points at a counter's Model: always, unless the counter is polymorphic. */
const namesTarget = (counter: Counter, read: (name: string) => unknown) => counter.typeName === undefined || read(counter.polymorphic!.foreignType) === counter.typeName;

/** The rows a counter's statements count of `rows`: for a polymorphic counter, those whose type names its Model. */
const ofType = (counter: Counter, rows: SqlFragment) => (counter.typeName === undefined ? rows : sql`${rows} AND ${column(counter.polymorphic!.foreignType)} = ${counter.typeName}`);

/**
 * Whether a record's update may change what a counter counts: it moves the row to another parent, or into or out of
 * the scope while it points at one (as for a destroy, the key as loaded says whether it does).
 */
function mayRecount(plan: WritePlan, counter: Counter, scope: CountedScope | undefined): boolean {
  if (setsForeignKey(plan, counter)) return true;
  return mayChangeScope(scope, plan.values) && attributeWas(plan.record, counter.foreignKey) !== null;
}

/** The operations that keep counters: a record's own writes and a destroy's set-based ones; bulk writes skip them. */
const COUNTED_OPERATIONS: ReadonlySet<string> = new Set(["create", "update", "destroy", "deleteDependents", "nullify"]);

/** The scope each counter of a planned write counted within, for its outcome to move the loaded parents alike. */
const scopesOfPlans = new WeakMap<object, Map<Counter, CountedScope | undefined>>();

/**
 * Adds each counter's statements to a child's write, in its batch, counting only the rows within the child's default
 * scopes (`scope`; every row when it has none, with the statements unchanged): a create adds to the new parent's
 * counter after the INSERT; a destroy (and a destroy's set-based DELETE or soft delete of dependents, and their
 * nullify) takes from the parent's just before the row goes, where the row still says which parent that is and
 * whether it was counted; an update that moves the row to another parent, or may move it into or out of the scope
 * (a restore), takes the row as it was before the UPDATE and adds it as it is after it. A polymorphic counter counts
 * only the rows of its type: a record's write adds to it or takes from it when the record's type (as written, and as
 * loaded) names its Model, and each statement still checks the type the row holds when it runs.
 */
function planCounter(plan: WritePlan, counter: Counter, scope: CountedScope | undefined): void {
  const child = plan.model;
  const counted = (rows: SqlFragment) => (scope ? sql`${rows} AND ${scope.sql}` : rows);
  const change = (sign: "+" | "-", rows: SqlFragment) => counterUpdate(child, counter, sign, counted(ofType(counter, rows)));
  const was = (name: string) => attributeWas(plan.record, name);
  const add = (written: WrittenRows) => change("+", writtenRows(plan, written.keys));
  // A set-based write's after-statements are placed just before it, where its keys still select the rows it changes.
  const takeWritten = (written: WrittenRows) => change("-", writtenRows(plan, written.keys));
  switch (plan.operation) {
    case "create":
      // A foreign key not written is the column's default: NULL for a reference.
      if ((plan.values.get(counter.foreignKey) ?? null) !== null && namesTarget(counter, (name) => plan.values.get(name))) plan.after(add);
      break;
    case "update":
      if (!mayRecount(plan, counter, scope)) break;
      // Whatever the UPDATE's conditions: should they refuse it, the after-statement adds back to the same parent.
      if (namesTarget(counter, was)) plan.before(() => change("-", recordRow(plan, [])));
      if (namesTarget(counter, (name) => (plan.record as Counted).readAttribute(name))) plan.after(add);
      break;
    case "destroy":
      // A soft delete's stamp takes the row out of the scope: it is taken off here, as a deleted row is.
      if (was(counter.foreignKey) !== null && namesTarget(counter, was)) plan.before(() => change("-", recordRow(plan, plan.where)));
      break;
    case "deleteDependents":
      plan.after(takeWritten);
      break;
    case "nullify":
      if (setsForeignKey(plan, counter)) plan.after(takeWritten);
      break;
  }
}

/**
 * The counters a set-based write of a Model's rows keeps besides the Model's own: those its rows' subclasses declare
 * (single-table inheritance), each counting only that subclass's rows, as its queries select them (its type).
 */
function subclassCounters(model: Function): Array<[Counter, CountedScope]> {
  return rowSubclassesOf(model).flatMap((subclass) => {
    const own = countersOf(subclass).filter((counter) => counter.declaredOn === subclass);
    if (own.length === 0) return [];
    const rows = prepareRelationNow(withoutDefaultScope(relationOf(subclass)), "count", "counterCache", `count with await ${subclass.name}.count() instead`);
    const params = new ParamWriter();
    const typed = fragmentOf(joinWithAnd(selectParts(rows.description, rows.model, params, "count").where), params.params);
    const scope = countedScopeOf(subclass);
    const narrowed: CountedScope = { conditions: scope?.conditions ?? [], sql: scope ? sql`${typed} AND ${scope.sql}` : typed, attributes: undefined };
    return own.map((counter): [Counter, CountedScope] => [counter, narrowed]);
  });
}

/** Plans the counters of a child's write (see `planCounter`); bulk writes skip them, as in Rails. */
function planCounters(plan: WritePlan): void {
  if (!COUNTED_OPERATIONS.has(plan.operation)) return;
  const scopes = new Map<Counter, CountedScope | undefined>();
  const byModel = new Map<Function, CountedScope | undefined>();
  for (const counter of countersOf(plan.model.model)) {
    const { declaredOn } = counter;
    if (!byModel.has(declaredOn)) byModel.set(declaredOn, countedScopeOf(declaredOn));
    scopes.set(counter, byModel.get(declaredOn));
    planCounter(plan, counter, scopes.get(counter));
  }
  scopesOfPlans.set(plan, scopes);
  // A record's write is of its own class; a set-based one reaches rows of every subclass.
  if (!plan.record) for (const [counter, scope] of subclassCounters(plan.model.model)) planCounter(plan, counter, scope);
}

/**
 * What a record's write did to each parent's count, by the parent's key: +1 for a parent it now counts in, -1 for
 * one it counted in before; undefined when the scope cannot be checked in memory (see `meetsConditions`).
 */
function countChanges(plan: WritePlan, counter: Counter): Map<string, number> | undefined {
  const { record, operation } = plan;
  const scope = scopesOfPlans.get(plan)?.get(counter);
  const conditions = scope?.conditions ?? [];
  const recounted = operation === "update" && mayRecount(plan, counter, scope);
  const before = operation === "destroy" || recounted ? (name: string) => attributeWas(record, name) : undefined;
  const after = operation === "create" || recounted ? (name: string) => record.readAttribute(name) : undefined;
  const changes = new Map<string, number>();
  for (const [read, by] of [[before, -1], [after, 1]] as const) {
    if (!read) continue;
    const within = meetsConditions(conditions, read);
    if (within === undefined) return undefined;
    const key = read(counter.foreignKey);
    if (within && key !== null && key !== undefined && namesTarget(counter, read)) changes.set(String(key), (changes.get(String(key)) ?? 0) + by);
  }
  return changes;
}

/** The parents of a child held in memory: the one its `belongsTo` loaded or was given, and the owner it was built through. */
function parentsInMemory(record: Counted, counter: Counter): Set<Counted> {
  const parents = new Set<Counted>();
  const slot = slotsOf(record).find(([association]) => association.name === counter.name)?.[1];
  // A polymorphic parent is counted by the counter of its own Model.
  if (slot?.loaded && slot.value instanceof counter.target) parents.add(slot.value);
  const owner = ownerBuiltThrough(record) as Counted | undefined;
  if (owner instanceof counter.target) parents.add(owner);
  return parents;
}

/**
 * After a child's write succeeded, the parents it holds in memory count it too (as Rails increments a loaded
 * parent's counter): their counter moves by what the write did to their row, as stored, so that it is no change a
 * save of the parent would write.
 */
function countInMemory({ plan, error, changes }: WriteOutcome): void {
  const record = plan.record as Counted | undefined;
  if (!record || error !== undefined || changes === 0) return;
  for (const counter of countersOf(plan.model.model)) {
    const moved = countChanges(plan, counter);
    if (!moved || moved.size === 0) continue;
    for (const parent of parentsInMemory(record, counter)) {
      if (parent.isNewRecord() || parent.isDestroyed() || !isAttributeLoaded(parent, counter.counterCache)) continue;
      const by = moved.get(String(rowKeyOf(parent, counter.primaryKey))) ?? 0;
      if (by !== 0) writeStoredAttribute(parent, counter.counterCache, Number(attributeWas(parent, counter.counterCache) ?? 0) + by);
    }
  }
}

const inverses = new WeakMap<ResolvedAssociation, string | null>();

/**
 * The counter attribute of a `hasMany` of `owner`: that of the child's `belongsTo` back to it, on the same key (and
 * for `as`, the polymorphic one's counter of the owner's type).
 */
function counterOfCollection(association: ResolvedAssociation, owner: Function): string | undefined {
  let counter = inverses.get(association);
  if (counter === undefined) {
    const typeName = association.polymorphic && [...association.polymorphic.models.keys()][0];
    const found =
      association.kind !== "hasMany" || hasOwnScope(association)
        ? undefined
        : countersOf(association.target).find(
            (each) =>
              each.declaredOn === association.target &&
              each.foreignKey === association.foreignKey &&
              each.typeName === typeName &&
              (each.target === owner || owner.prototype instanceof each.target),
          );
    inverses.set(association, (counter = found?.counterCache ?? null));
  }
  return counter ?? undefined;
}

/**
 * The number of children an owner's counter cache holds for its `hasMany`, read without a query (Rails' `size`);
 * undefined when the association keeps no counter (none declared, or a `scope`, which the counter does not follow),
 * the owner is new, or the owner was loaded without the counter's column. A null counter reads as 0, as in Rails.
 */
export function cachedCount(owner: Counted, association: ResolvedAssociation): number | undefined {
  const counter = counterOfCollection(association, owner.constructor as Function);
  if (counter === undefined || owner.isNewRecord() || !isAttributeLoaded(owner, counter)) return undefined;
  return Number(owner.readAttribute(counter) ?? 0);
}

/** How many of `children` the counter counts: those within the child Model's default scopes; undefined when memory cannot tell. */
function countedAmong(model: Function, children: readonly Counted[]): number | undefined {
  const conditions = scopeConditionsOf(model);
  let count = 0;
  for (const child of children) {
    const within = meetsConditions(conditions, (name) => child.readAttribute(name));
    if (within === undefined) return undefined;
    if (within) count += 1;
  }
  return count;
}

/**
 * Sets an owner's counter cache of its `hasMany` to the number of children it now has, as stored (no change a save
 * of the owner would write), after a write that left it exactly `children` (`set`, `setIds`), of which it counts
 * those within the children's default scopes; nothing when the association keeps no counter, the owner was loaded
 * without its column, or the scope cannot be checked in memory.
 */
export function holdCount(owner: Counted, association: ResolvedAssociation, children: readonly Counted[]): void {
  const counter = counterOfCollection(association, owner.constructor as Function);
  if (counter === undefined || owner.isNewRecord() || !isAttributeLoaded(owner, counter)) return;
  const count = countedAmong(association.target, children);
  if (count !== undefined) writeStoredAttribute(owner, counter, count);
}

/**
 * Moves an owner's counter cache of its `hasMany` from `before` (what `cachedCount` read before the write) by those of
 * `moved` it counts, children a write added (`by` 1) or took out (`by` -1) (`add`, `remove`): as stored, and set
 * rather than added to, so that a count a child's own write already moved in memory (see `countInMemory`) does not
 * move twice. Nothing when `before` is unknown or the scope cannot be checked in memory.
 */
export function holdCountMoved(owner: Counted, association: ResolvedAssociation, before: number | undefined, moved: readonly Counted[], by: 1 | -1): void {
  if (before === undefined) return;
  const count = countedAmong(association.target, moved);
  if (count !== undefined) writeStoredAttribute(owner, counterOfCollection(association, owner.constructor as Function)!, before + by * count);
}

type CountingModel = Function & { name: string; all(): Relation };

/** The `hasMany` a `resetCounters` name stands for (its own name, or its counter attribute's), with that counter. */
function resetTarget(model: CountingModel, name: unknown): { association: ResolvedAssociation; counter: string } {
  if (typeof name !== "string") throw new TypeError(`${model.name}.resetCounters: a counter is named by its hasMany association, not ${previewText(name)}`);
  for (const association of associationsOf(model).values()) {
    const counter = counterOfCollection(association, model);
    if (counter !== undefined && (association.name === name || counter === name)) return { association, counter };
  }
  const known = associationsOf(model).get(name);
  if (!known) throw new TypeError(`${model.name}.resetCounters: ${model.name} has no hasMany ${name} with a counter cache`);
  const declare = known.options.as ? `counterCache: true on ${known.target.name}.${known.options.as}` : `belongsTo(${model.name}, { counterCache: true }) on ${known.target.name}`;
  throw new TypeError(`${model.name}.resetCounters: ${name} keeps no counter cache (declare ${declare}, and no scope on ${name})`);
}

/** A counter `resetCounters` recounts, with the Relation of the children it counts, prepared. */
type Recount = ReturnType<typeof resetTarget> & { readonly children: Relation };

/**
 * The counter with the children it counts (what the association reads), after the prepare stage (`count`): within
 * the child's default scopes as declared, as writes count them, even where `Model.unscoped(fn)` lifted them.
 */
async function recountOf(target: ReturnType<typeof resetTarget>): Promise<Recount> {
  const read = withoutDefaultScope(scopedTargetOf(target.association, undefined));
  const children = read.with({ conditions: [...read.description.conditions, ...scopeConditionsOf(target.association.target)] });
  const pending = prepareRelation(children, "count");
  return { ...target, children: pending instanceof Promise ? await pending : pending };
}

/** `"comments_count" = (SELECT COUNT(*) FROM "comments" AS counted WHERE counted."post_id" = "posts"."id" AND ...)`. */
function recountTerm(parent: ResolvedModel, { association, counter, children }: Recount, params: ParamWriter): string {
  const parts = selectParts(children.description, children.model, params, "count");
  const joined = `${COUNTED}.${columnOf(children.model, association.foreignKey)} = ${parent.quotedTable}.${columnOf(parent, association.primaryKey)}`;
  return `${columnOf(parent, counter)} = (SELECT COUNT(*) FROM ${children.model.quotedTable} AS ${COUNTED} WHERE ${joinWithAnd([joined, ...parts.where])})`;
}

/**
 * `Post.resetCounters(id, "comments")`: recounts the children of the rows with the key or list of keys given and
 * writes the counts, in ONE statement whatever the number of keys (bound as one value) and counters; resolves to
 * the rows changed. A counter is named by its `hasMany` (or its attribute). Counts what the association reads (its
 * Model's plugins apply: a tenant's rows, soft-deleted ones left out), as the counter statements of writes do; the
 * parent rows are reached whatever their own default scopes, as those statements reach them.
 */
async function resetCounters(this: CountingModel, ids: unknown, ...names: unknown[]): Promise<number> {
  if (names.length === 0) throw new TypeError(`${this.name}.resetCounters needs the name of a hasMany with a counter cache after the ids`);
  refuseNonKeys(`${this.name}.resetCounters`, ids);
  // `this` may be a Model bound to a database (`db.model(Post)`): its associations are the Model's own.
  const all = this.all();
  const targets = await Promise.all(names.map((name) => recountOf(resetTarget(all.model.model as CountingModel, name))));
  const pending = prepareRelation(withoutDefaultScope(all).where({ [all.model.primaryKey.name]: ids }), "updateAll");
  const parent = pending instanceof Promise ? await pending : pending;
  const params = new ParamWriter();
  const set = targets.map((target) => recountTerm(parent.model, target, params)).join(", ");
  const where = parentTerms(parent, params);
  const statement = defineStatement({
    sql: `UPDATE ${parent.model.quotedTable} SET ${set} WHERE ${joinWithAnd(where)}`,
    params: params.params,
    sources: params.sources,
    model: parent.model,
    result: "meta",
    read: (_rows, meta) => Number(meta["changes"] ?? 0),
    database: databaseOfRelation(parent),
  });
  return parent.description.none ? 0 : await parent.run(statement);
}

/** What the `counterCaches` plugin does (see counter-caches-plugin.ts), for the Models whose `belongsTo` keeps a counter. */
export const counterCacheWork: PluginWork = {
  appliesTo: (model) => [model, ...rowSubclassesOf(model)].some((each) => countersOf(each).length > 0),
  methods: { resetCounters },
  hooks: {
    "write:plan": planCounters,
    "write:outcome": countInMemory,
  },
};
