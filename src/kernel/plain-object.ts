/**
 * Whether the input is a plain object: one whose prototypes are plain objects too (`Object.create({...})`), up to
 * `Object.prototype` or null. A prototype with its own `constructor` belongs to a class (Array, Map, FormData,
 * Headers, a record, the app's own), whose instances are not attribute values by name.
 */
export function isPlainObject(input: unknown): input is Record<string, unknown> {
  if (typeof input !== "object" || input === null) return false;
  for (let prototype = Object.getPrototypeOf(input); prototype !== null; prototype = Object.getPrototypeOf(prototype)) {
    if (prototype === Object.prototype) return true;
    if (Object.hasOwn(prototype, "constructor")) return false;
  }
  return true;
}
