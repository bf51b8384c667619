/**
 * The prepare stage: what every method that compiles a Relation runs first, so that a plugin can rewrite its
 * conditions (a default scope's move among its own; an encryption, with work that must be awaited, which the compile
 * hooks, being sync, cannot do); and, for a load, what prepares the Relations its plan will compile (a preload's).
 * The sync forms run it too, and refuse a Relation whose hooks must await. A Model with no hook for it pays nothing:
 * no call, no allocation, no await.
 */
import type { Condition } from "../sql/conditions.js";
import type { RelationPrepareContext, RelationPreparePlanContext } from "../plugin-api/hooks.js";
import type { QueryPurpose, RelationData } from "./relation-data.js";
import type { LoadPurpose } from "./read-plan.js";
import type { ResolvedModel } from "../records/resolve.js";

/** What the prepare stage needs of a Relation: its Model, its description, and a way to make one with another. */
export interface Preparable<Rel> {
  readonly model: ResolvedModel;
  readonly data: RelationData;
  with(changes: Partial<RelationData>): Rel;
  /** @internal The kernel's own change of its description (well-formed by construction): unchecked. */
  withPrepared(changes: Partial<RelationData>): Rel;
}

/**
 * Runs the `relation:prepare` hooks on a Relation about to be compiled for `purpose`, then on the Relation of each
 * subquery it holds (`relationSubquery`: a through association's hops), each for its own purpose and its own
 * subqueries in turn; gives back the Relation to compile: the one given, or, when a hook replaced its conditions or
 * its plugins' entries, one with those (checked as `Relation.with` checks a plugin's changes) and its subqueries'
 * prepared Relations. At once when no hook returned a promise. Plugin API, for a plugin's own async method that
 * compiles a Relation (`pluck`, `paginate`, `explain`); a sync one runs `prepareRelationNow`.
 */
export function prepareRelation<Rel extends Preparable<Rel>>(relation: Rel, purpose: QueryPurpose): Rel | Promise<Rel> {
  const own = prepareOwn(relation, purpose);
  const { prepare } = subqueryPreparationSlot;
  if (prepare === undefined) return own;
  return own instanceof Promise ? own.then(prepare) : prepare(own);
}

/**
 * The prepare stage for a sync form that compiles a Relation (`toSql()`, `toSelect()`, `toUpdateAll()`...): the
 * prepared Relation, when no `relation:prepare` hook returned a promise; else a `TypeError` naming the Model and
 * `method`, ending with `instead` (what to do: `use await toArray() instead`). The pending work is left to settle
 * unobserved: nobody awaits it, so its failure must not surface as an unhandled rejection. Plugin API, for a plugin's
 * own sync form.
 */
export function prepareRelationNow<Rel extends Preparable<Rel>>(relation: Rel, purpose: QueryPurpose, method: string, instead: string): Rel {
  const prepared = prepareRelation(relation, purpose);
  if (!(prepared instanceof Promise)) return prepared;
  prepared.catch(() => {});
  throw new TypeError(
    `${relation.model.name}.${method}: a plugin prepares this Relation's conditions with work that must be awaited (a relation:prepare hook: an encryption, say), which a sync form cannot wait for; ${instead}`,
  );
}

/**
 * @internal The step that prepares the Relation subqueries a Relation holds. A Relation holds one only when
 * `relationSubquery` made it, so that function installs the step: a Worker that never calls it bundles none of it.
 */
export const subqueryPreparationSlot: { prepare?: <Rel extends Preparable<Rel>>(relation: Rel) => Rel | Promise<Rel> } = {};

/** The `relation:prepare` hooks of the Relation's own Model, on its own conditions and entries. */
function prepareOwn<Rel extends Preparable<Rel>>(relation: Rel, purpose: QueryPurpose): Rel | Promise<Rel> {
  const { model, data } = relation;
  if (!model.hooks.has("relation:prepare")) return relation;
  const context: RelationPrepareContext = { model, purpose, relation, conditions: data.conditions, extensions: data.extensions };
  const done = model.hooks.callHook("relation:prepare", context);
  const prepared = () => {
    const { conditions, extensions } = context;
    if (conditions === data.conditions && extensions === data.extensions) return relation;
    return relation.with({ conditions: conditions as Condition[], extensions: extensions as RelationData["extensions"] });
  };
  return done instanceof Promise ? done.then(prepared) : prepared();
}

/**
 * Runs the `relation:preparePlan` hooks on a Relation whose records are about to be loaded with `includes`, once
 * `relation:prepare` has run: they prepare what their `relation:plan` hooks will compile (the Relations of its
 * preloads). Gives back the Relation to plan: the one given, or the one a hook made from it to carry what it
 * prepared; at once when no hook returned a promise.
 */
export function preparePlan<Rel extends Preparable<Rel>>(relation: Rel, purpose: LoadPurpose): Rel | Promise<Rel> {
  const { model, data } = relation;
  if (data.includes.length === 0 || !model.hooks.has("relation:preparePlan")) return relation;
  const context: RelationPreparePlanContext<Rel> = { purpose, relation };
  const prepared = () => {
    const made = context.relation as unknown;
    if (!(made instanceof (relation as object).constructor) || (made as Rel).model !== model) {
      throw new TypeError(`${model.name}: a relation:preparePlan hook set relation to something other than a Relation of ${model.name}`);
    }
    return made as Rel;
  };
  const done = model.hooks.callHook("relation:preparePlan", context);
  return done instanceof Promise ? done.then(prepared) : prepared();
}

/**
 * Prepares a Relation whose records are about to be loaded for `purpose`: `relation:prepare`, then
 * `relation:preparePlan`. Gives back the Relation to plan and load; at once when no hook returned a promise. Plugin
 * API, for a plugin's own async method that loads records with `plan` and `loadPlanned` (`paginate`).
 */
export function prepareLoad<Rel extends Preparable<Rel>>(relation: Rel, purpose: LoadPurpose): Rel | Promise<Rel> {
  const prepared = prepareRelation(relation, purpose);
  return prepared instanceof Promise ? prepared.then((made) => preparePlan(made, purpose)) : preparePlan(prepared, purpose);
}
