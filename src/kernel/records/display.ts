import type { Attribute } from "./attributes.js";

const PREVIEW_LENGTH = 60;

/** A Date as recordflare shows one: its ISO text, or "Invalid Date". */
export function dateText(date: Date): string {
  return Number.isNaN(date.getTime()) ? "Invalid Date" : date.toISOString();
}

function shownText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Date) return dateText(value);
  if (typeof value === "object" && value !== null) return Object.prototype.toString.call(value);
  return typeof value === "bigint" ? `${value}n` : String(value);
}

/**
 * Shows a value in an error message: at most 60 characters, text quoted, objects by their kind (so that no value,
 * a circular one or a revoked Proxy included, can make the message itself fail), a BigInt with its `n`.
 */
export function previewText(value: unknown): string {
  let text: string;
  try {
    text = shownText(value);
  } catch {
    // A Proxy may throw at any look (a revoked one always does): show its kind alone.
    text = `[${typeof value}]`;
  }
  return typeof value === "string" ? JSON.stringify(shortText(text)) : shortText(text);
}

/** A text cut to 60 characters, the cut marked: for names the caller gave, which may be of any length. */
export function shortText(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}

const LISTED = 5;

/**
 * Names the first five items of a list in a message, each shown by `show`, then how many more ("… and 4,993
 * more"): a message stays short however long the list.
 */
export function previewList<Item>(items: readonly Item[], show: (item: Item) => string = String): string {
  const shown = items.slice(0, LISTED).map(show).join(", ");
  const more = items.length - LISTED;
  return more > 0 ? `${shown} … and ${String(more).replace(/\B(?=(\d{3})+$)/g, ",")} more` : shown;
}

/** Shows an attribute's value in an error message as `previewText` does, and nothing of a filtered attribute's. */
export function previewValue(attribute: Attribute, value: unknown): string {
  return attribute.filtered ? "[FILTERED]" : previewText(value);
}
