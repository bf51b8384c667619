import type { Attribute } from "./attributes.js";

/**
 * D1's limit, in bytes, for one bound value (a string or blob) and for one row: the lower of the two figures its
 * limits page has given (1,000,000 and 2,000,000).
 */
export const MAX_VALUE_BYTES = 1_000_000;

/** The bytes of a text in UTF-8, as D1 stores it, counted without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two bytes below U+0800, three above; each half of a surrogate pair adds one to make the pair's four.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/**
 * Refuses a stored value over D1's limit for one value before anything is sent, naming the Model, the attribute
 * and the limit (D1 itself would fail the whole statement with "string or blob too big").
 */
export function checkValueSize(model: { readonly name: string }, attribute: Attribute, stored: unknown): void {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most texts are known to fit without counting.
  if (typeof stored !== "string" || stored.length * 3 <= MAX_VALUE_BYTES) return;
  const bytes = utf8Bytes(stored);
  if (bytes > MAX_VALUE_BYTES) {
    throw new TypeError(`${model.name}.${attribute.name}: the value is ${bytes} bytes, over D1's limit of ${MAX_VALUE_BYTES} bytes for one value`);
  }
}
