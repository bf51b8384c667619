import type { ModelHookName } from "./hooks.js";

/**
 * The hook points a plugin or `Model.hook` may name: the catalogue of the guide, every point the kernel calls (the
 * list fails to compile when it names a point `ModelHooks` has not, and `everyPointListed` when it leaves one out).
 * No other name is ever called, so a misspelt one (`record:initialise`) would register a hook that silently never runs.
 */
const POINTS = [
  "model:tableName", "model:finalize",
  "record:initialize", "record:assign", "attribute:input", "attribute:assign", "attribute:condition",
  "record:class", "record:hydrate", "records:load",
  "record:beforeValidate", "record:validate", "record:afterValidate", "record:beforeSave", "record:beforeWrite",
  "record:write", "write:prepare", "write:plan", "write:outcome", "record:afterSave",
  "record:beforeDestroy", "record:planDestroy", "record:beforeDelete", "record:afterDestroy",
  "record:serialize", "record:inspect",
  "relation:start", "relation:prepare", "relation:preparePlan", "relation:plan", "relation:preload",
  "relation:select", "relation:where", "relation:order", "relation:paging",
] as const satisfies readonly ModelHookName[];

/** The hook points of `ModelHooks` that `POINTS` leaves out: none, or the check below fails to compile. */
type Unlisted = Exclude<ModelHookName, (typeof POINTS)[number]>;
const everyPointListed: [Unlisted] extends [never] ? true : never = true;

const CATALOGUE: ReadonlySet<unknown> = new Set(POINTS);

/** Whether `name` is a hook point of the catalogue. */
export function isHookName(name: unknown): name is ModelHookName {
  return CATALOGUE.has(name);
}
