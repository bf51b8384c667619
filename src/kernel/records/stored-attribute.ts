import { attributeNamed } from "./assign.js";
import { isChanged, type RecordState, STATE, storedValue } from "./record-state.js";

/**
 * Sets a persisted record's attribute to what its row now holds, without a change to save (Rails' write followed by
 * `clear_attribute_change`): for a plugin whose own statement changed the row, as a counter cache's `UPDATE` does.
 * An unsaved assignment of the attribute is kept, and still differs from the new stored value. `TypeError` for a
 * new or destroyed record, which has no row; `UnknownAttribute` for a name that is not an attribute.
 */
export function writeStoredAttribute(record: object, name: string, value: unknown): void {
  const state = (record as { [STATE]: RecordState })[STATE];
  const attribute = attributeNamed(state.model, name, "writeStoredAttribute");
  if (state.isNew || state.destroyed) {
    throw new TypeError(`${state.model.name}.${name}: writeStoredAttribute needs a persisted record (this one is ${state.isNew ? "new" : "destroyed"})`);
  }
  const assigned = isChanged(state, attribute);
  state.row = { ...state.row, [attribute.column]: storedValue(attribute, value) };
  if (!assigned) state.values[attribute.name] = value;
}
