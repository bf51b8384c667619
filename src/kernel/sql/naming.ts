/**
 * camelCase to snake_case, where a run of capitals is one word:
 * `createdAt` gives `created_at`, `htmlURL` gives `html_url`, `sha256Hash` gives `sha256_hash`.
 */
export function underscore(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** snake_case to camelCase: `created_at` gives `createdAt`. */
export function camelize(name: string): string {
  return name.replace(/_([a-z\d])/g, (_, letter: string) => letter.toUpperCase());
}

/** Quotes an SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
