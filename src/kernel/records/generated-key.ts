import { currentValue, type RecordState, STATE, storedValue } from "./record-state.js";

/**
 * Marks a new record's current primary key as made in code for this record alone, as the id-generation plugin's
 * `generateId` makes one at `build()`: no other write can hold it, so a row found under it on a second try of the
 * record's INSERT is the one the first try wrote. That INSERT is then sent again after one of D1's transient errors
 * (which may come after D1 committed it), in a form that returns that row. A key the app assigns afterwards is not
 * the marked one, and its INSERT is sent once. `TypeError` naming the Model for a saved record or a NULL key.
 */
export function markGeneratedKey(record: object): void {
  const state = (record as { [STATE]: RecordState })[STATE];
  const { model } = state;
  if (!state.isNew) throw new TypeError(`${model.name}: markGeneratedKey marks the key of a new record; this one was saved`);
  const key = currentValue(state, model.primaryKey);
  if (key === null) throw new TypeError(`${model.name}: markGeneratedKey marks a generated ${model.primaryKey.name}; it is NULL`);
  state.generatedKey = storedValue(model.primaryKey, key);
}
