/**
 * Column defaults in both directions: the `=<literal>` of column syntax becomes an SQL literal for the migration,
 * and a column's DEFAULT, read back from SQLite, becomes the JavaScript value of the schema file. Only literals
 * are carried; an expression such as `CURRENT_TIMESTAMP` stays the database's business.
 */
import { parseDateText } from "../kernel/records/date-text.js";
import type { AttributeTypeName } from "./column-types.js";

const INTEGER_TEXT = /^[+-]?\d+$/;
const REAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false, on: true, off: false, "1": true, "0": false };

/** A string as an SQL string literal: `it's` gives `'it''s'`. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Whether a text is a date or date-time that recordflare's `datetime` type accepts: casting's own parser decides. */
function isDatetimeText(text: string): boolean {
  return parseDateText(text) !== undefined;
}

function unquote(text: string): string {
  const quote = text[0];
  return text.length >= 2 && (quote === "'" || quote === '"') && text.endsWith(quote) ? text.slice(1, -1) : text;
}

/**
 * The SQL literal of a default given in column syntax, or an error message when the text is not a value of
 * the type. Booleans are written 1 or 0, numbers as they are, strings, dates and JSON as quoted text. A string
 * default may be wrapped in one pair of quotes (`=''` is the empty string).
 */
export function defaultToSql(type: AttributeTypeName, text: string): { sql: string } | { error: string } {
  switch (type) {
    case "string":
      return { sql: sqlString(unquote(text)) };
    case "integer": {
      const number = Number(text);
      return INTEGER_TEXT.test(text) && Number.isSafeInteger(number) ? { sql: String(number) } : { error: "is not a safe integer" };
    }
    case "real": {
      const number = Number(text);
      return REAL_TEXT.test(text) && Number.isFinite(number) ? { sql: String(number) } : { error: "is not a finite number" };
    }
    case "boolean": {
      const value = BOOLEAN_TEXT[text.toLowerCase()];
      return value === undefined ? { error: "is not a boolean (true or false)" } : { sql: value ? "1" : "0" };
    }
    case "datetime": {
      const value = unquote(text);
      return isDatetimeText(value)
        ? { sql: sqlString(value) }
        : { error: "is not a date (YYYY-MM-DD) or a date-time with Z or an offset (2024-01-31T12:00:00Z)" };
    }
    case "json": {
      try {
        JSON.parse(text);
        return { sql: sqlString(text) };
      } catch {
        return { error: "is not valid JSON" };
      }
    }
  }
}

/** A literal read from SQL: a number or a string, or undefined for NULL and for anything that is not a literal. */
function readLiteral(sql: string): number | string | undefined {
  let text = sql.trim();
  while (text.startsWith("(") && text.endsWith(")")) text = text.slice(1, -1).trim();
  const quoted = /^'((?:[^']|'')*)'$/.exec(text);
  if (quoted) return quoted[1]!.replaceAll("''", "'");
  if (REAL_TEXT.test(text)) return Number(text);
  const upper = text.toUpperCase();
  if (upper === "TRUE") return 1;
  if (upper === "FALSE") return 0;
  return undefined;
}

/**
 * The default of a schema attribute, from the DEFAULT of its column as `PRAGMA table_info` shows it
 * (`0`, `'member'`, `CURRENT_TIMESTAMP`), cast to the attribute type. Undefined when the column has no literal
 * default, or one recordflare could not cast (a record would then fail to build): the database's default
 * still applies on insert.
 */
export function defaultFromSql(type: AttributeTypeName, sql: string | null): unknown {
  if (sql === null) return undefined;
  const literal = readLiteral(sql);
  if (literal === undefined) return undefined;
  switch (type) {
    case "string":
      // A number stored in a TEXT column becomes text; only an integer's text is certain here.
      if (typeof literal === "string") return literal;
      return Number.isSafeInteger(literal) && !/[.e]/i.test(sql) ? String(literal) : undefined;
    case "integer": {
      const number = typeof literal === "number" ? literal : INTEGER_TEXT.test(literal.trim()) ? Number(literal) : Number.NaN;
      return Number.isSafeInteger(number) ? number : undefined;
    }
    case "real": {
      const number = typeof literal === "number" ? literal : REAL_TEXT.test(literal.trim()) ? Number(literal) : Number.NaN;
      return Number.isFinite(number) ? number : undefined;
    }
    case "boolean":
      if (literal === 1 || literal === 0) return literal === 1;
      return typeof literal === "string" ? BOOLEAN_TEXT[literal.toLowerCase()] : undefined;
    case "datetime":
      return typeof literal === "string" && isDatetimeText(literal) ? literal : undefined;
    case "json": {
      if (typeof literal !== "string") return literal;
      try {
        const value: unknown = JSON.parse(literal);
        return value === null ? undefined : value;
      } catch {
        return undefined;
      }
    }
  }
}
