import type { ModelHookName } from "./hooks.js";

/**
 * The hook points a plugin or `Model.hook` may name: the catalogue of the guide, every point the kernel calls (the
 * type below fails to compile when one of `ModelHooks` is left out or one is added that it has not). No other name is
 * ever called, so a misspelt one (`record:initialise`) would register a hook that silently never runs.
 */
const CATALOGUE = {
  "model:tableName": 1, "model:finalize": 1,
  "record:initialize": 1, "attribute:input": 1, "attribute:assign": 1, "attribute:condition": 1,
  "record:class": 1, "record:hydrate": 1, "records:load": 1,
  "record:beforeValidate": 1, "record:validate": 1, "record:afterValidate": 1, "record:beforeSave": 1, "record:beforeWrite": 1,
  "record:write": 1, "write:prepare": 1, "write:plan": 1, "write:outcome": 1, "record:afterSave": 1,
  "record:beforeDestroy": 1, "record:planDestroy": 1, "record:beforeDelete": 1, "record:afterDestroy": 1,
  "record:serialize": 1, "record:inspect": 1,
  "relation:start": 1, "relation:prepare": 1, "relation:preparePlan": 1, "relation:plan": 1, "relation:preload": 1,
  "relation:select": 1, "relation:where": 1, "relation:order": 1, "relation:paging": 1,
} satisfies Record<ModelHookName, 1>;

/** Whether `name` is a hook point of the catalogue. */
export function isHookName(name: unknown): name is ModelHookName {
  return typeof name === "string" && Object.hasOwn(CATALOGUE, name);
}
