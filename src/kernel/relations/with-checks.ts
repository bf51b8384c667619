import type { ResolvedModel } from "../records/resolve.js";
import type { RelationData } from "./relation-data.js";

/** Checks the changes a plugin gives `Relation.with()`, returning them; throws `TypeError` naming what is wrong. */
export type WithChecks = (model: ResolvedModel, changes: Partial<RelationData>) => Partial<RelationData>;

/**
 * @internal The installed checks of `Relation.with()`, if any. Only plugins change a Relation's description that way
 * (the kernel's own methods skip the checks), so the kernel keeps this slot and `installRelationChecks` (plugin API)
 * fills it: a Worker whose plugins never call `with()` bundles none of the checks.
 */
export const withChecksSlot: { check?: WithChecks } = {};

/** The changes given `Relation.with()`, checked; `TypeError` naming the Model when no checks are installed. */
export function checkedWith(model: ResolvedModel, changes: Partial<RelationData>): Partial<RelationData> {
  const { check } = withChecksSlot;
  if (check === undefined) {
    throw new TypeError(`${model.name}: Relation.with needs installRelationChecks() (plugin API), called in the setup of the plugin that calls it`);
  }
  return check(model, changes);
}
