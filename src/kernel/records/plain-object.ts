/**
 * Whether an object can be looked at: a revoked Proxy (or one whose traps throw) fails every look, even
 * `Array.isArray` and `instanceof`, so such a value is refused before anything else reads it.
 */
export function isInspectable(input: object): boolean {
  try {
    Object.getPrototypeOf(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the input is a plain object: one whose prototypes are plain objects too (`Object.create({...})`), up to
 * `Object.prototype` or null. A prototype with its own `constructor` belongs to a class (Array, Map, FormData,
 * Headers, a record, the app's own), whose instances are not attribute values by name.
 */
export function isPlainObject(input: unknown): input is Record<string, unknown> {
  if (typeof input !== "object" || input === null || !isInspectable(input)) return false;
  for (let prototype = Object.getPrototypeOf(input); prototype !== null; prototype = Object.getPrototypeOf(prototype)) {
    if (prototype === Object.prototype) return true;
    if (Object.hasOwn(prototype, "constructor")) return false;
  }
  return true;
}
