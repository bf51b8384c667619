import { blobJson, isBlob } from "./blob-values.js";
import { jsonOfBound } from "./bound-json.js";

/** A list condition's values, each once (by the JSON text that binds it: a blob's by its bytes), with those texts. */
export function distinctListValues(values: readonly unknown[]): { values: unknown[]; texts: string[] } {
  const byText = new Map<string, unknown>();
  for (const value of values) {
    const text = isBlob(value) ? blobJson(value) : jsonOfBound(value)!;
    if (!byText.has(text)) byText.set(text, value);
  }
  return { values: [...byText.values()], texts: [...byText.keys()] };
}

/**
 * What a text may equal under SQLite's built-in collations (NOCASE folds ASCII case, RTRIM ignores trailing spaces)
 * or a numeric column's affinity (`"01"` stored as 1): folded further than SQLite does, so that two values with the
 * same key might match the same row and two with different keys never do.
 */
function matchKey(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const number = Number(value);
  return value.trim() !== "" && Number.isFinite(number) ? number : `'${value.toLowerCase().trimEnd()}`;
}

/**
 * Whether no stored value can equal two of these (distinct) values, so that a join on the list gives each row at
 * most once, as IN does.
 */
export function matchesEachRowOnce(values: readonly unknown[]): boolean {
  return new Set(values.map(matchKey)).size === values.length;
}
