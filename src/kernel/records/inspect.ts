import { blobHex, isBlob } from "../sql/blob-values.js";
import { dateText } from "./display.js";
import type { InspectEntry } from "../plugin-api/hooks.js";
import { currentValue, isChanged, originalValue, type RecordState, STATE } from "./record-state.js";

function show(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return dateText(value);
  // Bytes as SQLite writes a blob: JSON would show an object of their indices.
  if (isBlob(value)) return `x'${blobHex(value)}'`;
  if (typeof value === "string" || typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Prints a record: class, then each attribute. Filtered attributes print as `[FILTERED]`; an unsaved change
 * prints `(was <old>)`, or `(changed)` for a filtered attribute or an unloaded column. A new record flags nothing.
 */
export function inspectRecord(record: object): string {
  const state = (record as { [STATE]: RecordState })[STATE];
  const model = state.model;
  const entries: InspectEntry[] = model.attributes.map((attribute) => {
    const loaded = !state.loaded || state.loaded.has(attribute.name);
    if (!loaded) return { attribute, shown: "(changed)", note: "" };
    const value = currentValue(state, attribute);
    const changed = !state.isNew && isChanged(state, attribute);
    if (attribute.filtered) return { attribute, shown: "[FILTERED]", note: changed ? "(changed)" : "" };
    return { attribute, shown: show(value), note: changed ? `(was ${show(originalValue(state, attribute))})` : "" };
  });
  if (model.hooks.has("record:inspect")) model.hooks.callSync("record:inspect", { record, entries });
  const body = entries.map(({ attribute, shown, note }) => `${attribute.name}: ${shown}${note ? ` ${note}` : ""}`).join(", ");
  const flag = state.destroyed ? " (destroyed)" : "";
  return `#<${record.constructor.name || model.name}${flag} ${body}>`;
}
