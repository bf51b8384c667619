import { readAsCondition } from "../../kernel/index.js";

type Keyed = Record<string, any>;

/**
 * A key as the record's attribute `name` takes it when copied from another Model: read as a condition on that
 * attribute would read it, so an integer key fits a text foreign key. What cannot be read so stays as it is,
 * for the assignment to refuse with a TypeError naming the Model and attribute.
 */
export function keyFor(model: Function, name: string, key: unknown): unknown {
  const read = readAsCondition(model, name, key);
  return read === undefined ? key : read;
}

/** Copies a key into the record's attribute `name`, unless it already holds it. */
export function copyKey(record: Keyed, name: string, key: unknown): void {
  const value = keyFor(record.constructor as Function, name, key);
  if (record.readAttribute(name) !== value) record.writeAttribute(name, value);
}
