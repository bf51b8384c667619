/**
 * The prepare stage: what every async method that compiles a Relation's conditions runs first, so that a plugin can
 * rewrite them with work that must be awaited (WebCrypto), which the compile hooks, being sync, cannot do. A Model
 * with no `relation:prepare` hook pays nothing for it: no call, no allocation, no await.
 */
import type { Condition } from "../sql/conditions.js";
import type { RelationPrepareContext, ResolvedModel } from "../plugin-api/hooks.js";
import type { QueryPurpose, RelationData } from "./relation-data.js";

/** What the stage needs of a Relation: its Model, its conditions, and a way to make one with other conditions. */
interface Preparable<Rel> {
  readonly model: ResolvedModel;
  readonly data: RelationData;
  with(changes: Partial<RelationData>): Rel;
}

/**
 * Runs the `relation:prepare` hooks on a Relation about to be compiled for `purpose`; gives back the Relation to
 * compile: the one given, or, when a hook replaced its conditions, one with those (checked as `Relation.with` checks
 * a plugin's changes). At once when no hook returned a promise. Plugin API, for a plugin's own async method that
 * compiles a Relation (`pluck`, `paginate`, `explain`).
 */
export function prepareRelation<Rel extends Preparable<Rel>>(relation: Rel, purpose: QueryPurpose): Rel | Promise<Rel> {
  const { model, data } = relation;
  if (!model.hooks.has("relation:prepare")) return relation;
  const context: RelationPrepareContext = { model, purpose, relation, conditions: data.conditions };
  const done = model.hooks.callHook("relation:prepare", context);
  const prepared = () => (context.conditions === data.conditions ? relation : relation.with({ conditions: context.conditions as Condition[] }));
  return done instanceof Promise ? done.then(prepared) : prepared();
}
