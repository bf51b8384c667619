import type { Attribute } from "../records/attributes.js";
import { CastError } from "../errors.js";
import { isBlob } from "./blob-values.js";

/**
 * D1's limit on one bound value (a string, blob or row), in bytes: the lower of the two figures D1's limits page
 * has given (1,000,000 and 2,000,000).
 */
export const MAX_VALUE_BYTES = 1_000_000;

/** The UTF-8 length of text, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // One more byte from U+0080, two more from U+0800; a surrogate is half of a 4-byte character.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** Whether text is surely within `limit` bytes (no character takes more than 3) or counts within it. */
export function textFits(text: string, limit: number): boolean {
  return text.length * 3 <= limit || utf8Length(text) <= limit;
}

/** The check of a stored value D1 cannot bind, in place once something that can make one is (see bindable-values.ts). */
export const bindableCheckSlot: { assert?: (model: { readonly name: string }, attribute: Attribute, stored: unknown) => void } = {};

/**
 * Refuses, with `CastError` (a request can send a value that long) naming the Model, the attribute and the limit, a value in its database form that D1
 * would refuse as over its limit for one value; and, with `TypeError` naming them, one D1 cannot bind at all (an
 * object: a plugin type's `toDatabase` or a `write:plan` hook gave it). Every path that binds an attribute's value
 * calls it before the statement is sent (saves, conditions, bulk writes), so nothing is half-written.
 */
export function assertValueWithinD1Limit(model: { readonly name: string; readonly model: Function }, attribute: Attribute, stored: unknown): void {
  bindableCheckSlot.assert?.(model, attribute, stored);
  if (typeof stored === "string" ? textFits(stored, MAX_VALUE_BYTES) : !isBlob(stored) || stored.byteLength <= MAX_VALUE_BYTES) return;
  const bytes = typeof stored === "string" ? utf8Length(stored) : (stored as ArrayBuffer).byteLength;
  throw new CastError(
    `${model.name}.${attribute.name}: a value of ${bytes} bytes is over D1's limit of ${MAX_VALUE_BYTES} bytes for one value`,
    model.model,
    attribute.name,
    stored,
  );
}

/**
 * The JSON text that SQLite's JSON functions read back as the very value D1 binds for `value`, or undefined for a
 * value JSON cannot carry so (a blob, an object). D1 binds every number (and a boolean) as REAL, while SQLite reads
 * `1` or `9007199254740994` in JSON as INTEGER: numbers are written as reals (`1.0`), so a value read from JSON
 * compares exactly as the same value bound on its own. A BigInt is written as the integer it is.
 */
export function jsonOfBound(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number": {
      if (!Number.isFinite(value)) return undefined;
      const text = String(value);
      return text.includes(".") || text.includes("e") ? text : `${text}.0`;
    }
    case "boolean":
      return value ? "1.0" : "0.0";
    case "bigint":
      return String(value);
    default:
      return value === null ? "null" : undefined;
  }
}

/**
 * Joins JSON texts into as few JSON arrays as keep each within D1's limit for one value: one array for any list
 * that fits, several for a longer one. An element too large for an array of its own is refused before sending,
 * with `owner` (the Model and attribute) in the message.
 */
export function jsonArraysWithinD1Limit(texts: readonly string[], owner: string): string[] {
  const whole = `[${texts.join(",")}]`;
  if (textFits(whole, MAX_VALUE_BYTES)) return [whole];
  const arrays: string[] = [];
  let current: string[] = [];
  // An array's bytes: its brackets, and each element with the comma before it, less the first element's comma.
  let bytes = 1;
  for (const text of texts) {
    const size = utf8Length(text) + 1;
    if (size + 1 > MAX_VALUE_BYTES) throw new TypeError(`${owner}: a list element of ${size - 1} bytes in JSON is over D1's limit of ${MAX_VALUE_BYTES} bytes for one value`);
    if (bytes + size > MAX_VALUE_BYTES) {
      arrays.push(`[${current.join(",")}]`);
      current = [];
      bytes = 1;
    }
    current.push(text);
    bytes += size;
  }
  arrays.push(`[${current.join(",")}]`);
  return arrays;
}
