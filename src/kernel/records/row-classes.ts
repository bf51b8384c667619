/**
 * The classes whose records a Model's rows may be, besides the Model itself: what a plugin that makes rows records
 * of subclasses (single-table inheritance's `record:class` hook) shares with plugins that act on rows without
 * reading them (a destroy's set-based writes of dependents), so that those can do what the subclasses' records would:
 * their dependents, their counter caches, or reading the records where they have callbacks.
 */
import { declareModelState, modelState } from "./declaration.js";
import { defineModelState } from "../plugin-api/plugin.js";

const DECLARED = defineModelState<{ classes?: () => Iterable<Function> }>("rowClasses", () => ({}), (holder) => ({ ...holder }));

/** Declares the classes a Model's rows (and its subclasses') may be records of; plugin API, for a `record:class` hook's plugin. */
export function declareRowClasses(model: Function, classes: () => Iterable<Function>): void {
  declareModelState(model, DECLARED).classes = classes;
}

/** The subclasses of a Model whose records its rows may be (none unless a plugin declared them), each once. */
export function rowSubclassesOf(model: Function): Function[] {
  const classes = modelState(model, DECLARED).classes?.() ?? [];
  return [...new Set(classes)].filter((each) => each.prototype instanceof model);
}
