import type { AllowNilOrBlank } from "./validation-options.js";

/** Rails' `blank?`: nil, false, whitespace-only text, and an empty array or object (a `json` value). */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return Object.getPrototypeOf(value) === Object.prototype && Object.keys(value as object).length === 0;
}

/**
 * Whether a check leaves this value alone, as Rails' `EachValidator` skips a nil under `allow_nil` and a blank under
 * `allow_blank`. Without either, null is checked like any value.
 */
export function skipsValue(value: unknown, allow: AllowNilOrBlank): boolean {
  return (allow.allowNil === true && value === null) || (allow.allowBlank === true && isBlank(value));
}
