/**
 * The check of stored values D1 cannot bind: an object, which D1 refuses with a raw type error naming no attribute,
 * and a bulk write would store as its JSON text. Only a plugin's attribute type (`toDatabase`) or a `write:plan` hook
 * can give one, never a built-in type, so `defineAttributeType` and `installWritePlans` install it: a Worker with
 * neither bundles none of it.
 */
import type { Attribute } from "../records/attributes.js";
import { previewText } from "../records/display.js";
import { isBlob } from "./blob-values.js";
import { bindableCheckSlot } from "./bound-json.js";

/** Refuses with `TypeError` naming the Model and attribute a stored value that is an object other than bytes. */
function assertBindable(model: { readonly name: string }, attribute: Attribute, stored: unknown): void {
  if (typeof stored !== "object" || stored === null || isBlob(stored)) return;
  throw new TypeError(`${model.name}.${attribute.name}: ${previewText(stored)} is no value D1 stores (text, a number, bytes or null); a type's toDatabase or a write:plan hook gave it`);
}

/** Puts the check in place; idempotent. */
export function installBindableCheck(): void {
  bindableCheckSlot.assert = assertBindable;
}
