import { optionsArgument, refuseUnfitValue } from "./arguments.js";
import { assertNotDestroyed, attributeNamed, loadedAttribute } from "./assign.js";
import { UNCASTABLE } from "./attribute-types.js";
import type { Attribute } from "./attributes.js";
import { sameStored } from "../sql/blob-values.js";
import { castConditionValue } from "../sql/conditions.js";
import { changedAttributes, currentValue, isChanged, originalValue, readStored, type RecordState, STATE, storedValue } from "./record-state.js";

// Change tracking read from a record's kernel state. The changeTracking plugin installs `changeTrackingMethods` on
// records; plugins that only ask whether a save changes an attribute (uniqueness, required parents) call
// `isAttributeChanged` and `attributeWas`, whether that plugin is registered or not.

function stateOf(record: object): RecordState {
  return (record as { [STATE]: RecordState })[STATE];
}

/** Whether a value given to `isAttributeChanged` is the attribute's value, cast as a condition is (`"1"` is 1). */
function namesValue(attribute: Attribute, given: unknown, actual: unknown): boolean {
  const stored = given === null ? null : castConditionValue(attribute, given);
  return stored !== UNCASTABLE && sameStored(stored, storedValue(attribute, actual));
}

/** A new record goes back to what `build()` gave it: its default or generated id, else unassigned. */
function restoreBuiltValue(state: RecordState, name: string): void {
  if (Object.hasOwn(state.builtValues, name)) {
    state.values[name] = state.builtValues[name];
    state.assigned.add(name);
  } else {
    state.values[name] = null;
    state.assigned.delete(name);
  }
}

/**
 * Whether the record's attribute has an unsaved change (from a given old value, to a given new one, when `from` or
 * `to` is given, each cast as a condition value is).
 */
export function isAttributeChanged(record: object, name: string, options?: { from?: unknown; to?: unknown }): boolean {
  const state = stateOf(record);
  const attribute = attributeNamed(state.model, name, "isAttributeChanged");
  const where = `${state.model.name}.isAttributeChanged`;
  const given = optionsArgument(where, options, ["from", "to"]);
  // Cast as conditions are, so `undefined` is refused as there, rather than quietly never matching.
  if (Object.values(given).includes(undefined)) throw new TypeError(`${state.model.name}.${attribute.name}: from or to is undefined; use null`);
  for (const value of Object.values(given)) refuseUnfitValue(`${where}: ${attribute.name}`, value, { model: state.model.model, attribute: attribute.name });
  if (!isChanged(state, attribute)) return false;
  if ("from" in given && !namesValue(attribute, given.from, originalValue(state, attribute))) return false;
  if ("to" in given && !namesValue(attribute, given.to, currentValue(state, attribute))) return false;
  return true;
}

/** The record's attribute as last loaded or saved (its value in the database), which `select` must have loaded. */
export function attributeWas(record: object, name: string): unknown {
  const state = stateOf(record);
  return originalValue(state, loadedAttribute(state, name, "attributeWas"));
}

/** A change the last save wrote, read as fresh values (see `RecordState.savedChanges`). */
function readChange(attribute: Attribute, [old, written]: readonly [unknown, unknown]): [unknown, unknown] {
  return [readStored(attribute, old), readStored(attribute, written)];
}

/** The `[old, new]` the last save wrote to the attribute, or undefined. */
function savedChangeTo(record: object, name: string, method: string): [unknown, unknown] | undefined {
  const state = stateOf(record);
  const attribute = attributeNamed(state.model, name, method);
  const change = state.savedChanges[name];
  return change && readChange(attribute, change);
}

/** The record methods of change tracking, which the changeTracking plugin installs: each reads its record's state. */
export const changeTrackingMethods = {
  /** Whether any attribute has an unsaved change. */
  isChanged(this: object): boolean {
    return changedAttributes(stateOf(this)).length > 0;
  },

  /** Names of the attributes with unsaved changes. */
  changed(this: object): string[] {
    return changedAttributes(stateOf(this)).map((attribute) => attribute.name);
  },

  /** The old values of the attributes with unsaved changes. */
  changedAttributes(this: object): Record<string, unknown> {
    const state = stateOf(this);
    return Object.fromEntries(changedAttributes(state).map((a) => [a.name, originalValue(state, a)]));
  },

  /** Each unsaved change as `[old, new]`. */
  changes(this: object): Record<string, [unknown, unknown]> {
    const state = stateOf(this);
    return Object.fromEntries(changedAttributes(state).map((a) => [a.name, [originalValue(state, a), currentValue(state, a)]]));
  },

  /** The attribute's value as last loaded or saved. */
  attributeWas(this: object, name: string): unknown {
    return attributeWas(this, name);
  },

  /** Whether the attribute has an unsaved change (from or to a given value, when `from` or `to` is given). */
  isAttributeChanged(this: object, name: string, options?: { from?: unknown; to?: unknown }): boolean {
    return isAttributeChanged(this, name, options);
  },

  /** Whether the next save will write this attribute. */
  willSaveChangeTo(this: object, name: string): boolean {
    return isAttributeChanged(this, name);
  },

  /** The changes the last save wrote, as `[old, new]`. */
  savedChanges(this: object): Record<string, [unknown, unknown]> {
    const { savedChanges, model } = stateOf(this);
    return Object.fromEntries(Object.entries(savedChanges).map(([name, change]) => [name, readChange(model.byName.get(name)!, change)]));
  },

  /** The `[old, new]` the last save wrote to the attribute, or undefined. */
  savedChangeTo(this: object, name: string): [unknown, unknown] | undefined {
    return savedChangeTo(this, name, "savedChangeTo");
  },

  /** Whether the last save changed the attribute. */
  hasSavedChangeTo(this: object, name: string): boolean {
    return savedChangeTo(this, name, "hasSavedChangeTo") !== undefined;
  },

  /** The attribute's value before the last save: the stored value when that save did not change it. */
  attributeBeforeLastSave(this: object, name: string): unknown {
    const change = savedChangeTo(this, name, "attributeBeforeLastSave");
    const state = stateOf(this);
    return change ? change[0] : originalValue(state, loadedAttribute(state, name, "attributeBeforeLastSave"));
  },

  /** Undoes unsaved changes to the named attributes, or to all. */
  restoreAttributes<R extends object>(this: R, ...names: string[]): R {
    const state = stateOf(this);
    assertNotDestroyed(state, "changed");
    const targets = names.length > 0 ? names.map((name) => loadedAttribute(state, name, "restoreAttributes")) : changedAttributes(state);
    for (const attribute of targets) {
      if (state.isNew) restoreBuiltValue(state, attribute.name);
      else state.values[attribute.name] = originalValue(state, attribute);
    }
    return this;
  },
};
