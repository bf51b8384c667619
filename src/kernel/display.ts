import type { Attribute } from "./attributes.js";

const PREVIEW_LENGTH = 60;

/** A Date as recordflare shows one: its ISO text, or "Invalid Date". */
export function dateText(date: Date): string {
  return Number.isNaN(date.getTime()) ? "Invalid Date" : date.toISOString();
}

/** Shows a value in an error message: at most 60 characters, and nothing of a filtered attribute's value. */
export function previewValue(attribute: Attribute, value: unknown): string {
  if (attribute.filtered) return "[FILTERED]";
  let text: string;
  if (typeof value === "string") text = value;
  else if (value instanceof Date) text = dateText(value);
  else if (typeof value === "object" && value !== null) text = Object.prototype.toString.call(value);
  else text = String(value);
  const cut = text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
  return typeof value === "string" ? JSON.stringify(cut) : cut;
}
