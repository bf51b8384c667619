import { isPlainObject } from "./plain-object.js";

const PREVIEW_LENGTH = 60;

/** A Date as recordflare shows one: its ISO text, or "Invalid Date". */
export function dateText(date: Date): string {
  return Number.isNaN(date.getTime()) ? "Invalid Date" : date.toISOString();
}

/**
 * How many levels of arrays and plain objects a preview opens: the value's own, whose items or entries show, but as
 * `[…]` and `{…}` when they are arrays or objects themselves. A list of attribute objects given by mistake (to
 * `build`, `where`, `permit`) then never puts their values in a message, where a filtered one would be shown.
 */
const PREVIEW_DEPTH = 1;

function shownText(value: unknown, depth: number): string {
  if (typeof value === "string") return JSON.stringify(shortText(value));
  if (value instanceof Date) return dateText(value);
  if (Array.isArray(value)) return depth < PREVIEW_DEPTH ? `[${shownItems(value, depth)}]` : "[…]";
  if (isPlainObject(value)) return depth < PREVIEW_DEPTH ? `{${shownEntries(value, depth)}}` : "{…}";
  if (typeof value === "object" && value !== null) return kindText(value);
  return typeof value === "bigint" ? `${value}n` : String(value);
}

/** An array's items, as far as a preview shows them: the reading stops once the text is longer than shown. */
function shownItems(items: readonly unknown[], depth: number): string {
  let text = "";
  for (let index = 0; index < items.length; index++) {
    if (text.length > PREVIEW_LENGTH) return `${text}, …`;
    text += `${index > 0 ? ", " : ""}${shownText(items[index], depth + 1)}`;
  }
  return text;
}

/** A plain object's entries as `{ key: value }`, as far as a preview shows them. */
function shownEntries(object: Record<string, unknown>, depth: number): string {
  let text = "";
  for (const key in object) {
    if (text.length > PREVIEW_LENGTH) return ` ${text}, … `;
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(shortText(key));
    text += `${text === "" ? "" : ", "}${name}: ${shownText(object[key], depth + 1)}`;
  }
  return text === "" ? "" : ` ${text} `;
}

/** Any other object by its kind: a built-in's tag (`[object Map]`), else its class's name (`[object Post]`). */
function kindText(value: object): string {
  const tag = Object.prototype.toString.call(value);
  const name: unknown = tag === "[object Object]" ? value.constructor?.name : undefined;
  return typeof name === "string" && name !== "" ? `[object ${shortText(name)}]` : tag;
}

/**
 * Shows a value in an error message: at most 60 characters, text quoted, an array or a plain object by its first
 * items or entries (`[1, "a"]`, `{ id: 1, rows: […] }`: one level, see `PREVIEW_DEPTH`), other objects by their kind
 * (`[object Map]`, `[object Post]`), a BigInt with its `n`. No value, a circular one or a revoked Proxy included,
 * can make the message itself fail.
 */
export function previewText(value: unknown): string {
  let text: string;
  try {
    text = shownText(value, 0);
  } catch {
    // A Proxy may throw at any look (a revoked one always does), a getter too: show the value's kind alone.
    text = `[${typeof value}]`;
  }
  return typeof value === "string" ? text : shortText(text);
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
  return more > 0 ? `${shown} … and ${more.toLocaleString("en-US")} more` : shown;
}

/**
 * Shows an attribute's value in an error message as `previewText` does, and nothing of a filtered attribute's. (The
 * attribute is taken by the one field read, so that the attributes' own messages may show values too.)
 */
export function previewValue(attribute: { readonly filtered: boolean }, value: unknown): string {
  return attribute.filtered ? "[FILTERED]" : previewText(value);
}
