/**
 * The date and date-time texts recordflare reads as a `datetime` (SPEC "Casting of assigned values"): one parser
 * for the kernel's casting and the CLI's column defaults, so that both accept exactly the same texts.
 */

/** `YYYY-MM-DD`, alone or followed by `THH:MM[:SS[.fff]]` and `Z` or `±HH:MM`: the forms of ISO 8601 that Date reads. */
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** A UTC instant; unlike `Date.UTC`, years 0 to 99 stay themselves rather than becoming 1900 to 1999. */
export function utcDate(year: number, monthIndex: number, day: number, hours = 0, minutes = 0, seconds = 0, ms = 0): Date {
  if (year >= 100) return new Date(Date.UTC(year, monthIndex, day, hours, minutes, seconds, ms));
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date;
}

// The instants toISOString writes with a four-digit year: it writes others with a sign and six digits
// (+010000-01-01T...), text that does not sort among the rest, so conditions and orders on the column would be wrong.
const EARLIEST = -62167219200000; // 0000-01-01T00:00:00.000Z
const LATEST = 253402300799999; // 9999-12-31T23:59:59.999Z

/** The date, if it is one recordflare can store as text that sorts as the instants do (years 0 to 9999). */
export function storableDate(date: Date): Date | undefined {
  const time = date.getTime();
  return time >= EARLIEST && time <= LATEST ? date : undefined;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = utcDate(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The instant a date or date-time text names, or undefined when recordflare does not read the text as one.
 * Accepted: `YYYY-MM-DD` (midnight UTC), and `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM`, with a
 * day that exists, an hour below 24, minutes and seconds below 60, and an offset below 24:00, naming an instant of
 * the years 0 to 9999.
 */
export function parseDateText(text: string): Date | undefined {
  const parts = DATE_TEXT.exec(text);
  if (!parts) return undefined;
  // A part the text leaves out (the time, the seconds, the offset of Z) reads as 0.
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = parts.slice(1).map((part = "0") => Number(part)) as number[];
  const valid = isCalendarDay(year!, month!, day!) && hour! < 24 && minute! < 60 && second! < 60 && offsetHour! < 24 && offsetMinute! < 60;
  // Date reads a date alone as midnight UTC, as the form says.
  return valid ? storableDate(new Date(text)) : undefined;
}
