/**
 * The one parser of date and date-time texts (SPEC.md "Casting of assigned values", `datetime` row), shared by
 * the kernel's casting and the CLI's column defaults: every text it accepts or refuses, and casting agreeing.
 */
import { describe, expect, it } from "vitest";
import { parseDateText } from "../../src/kernel/records/date-text.js";
import { castAs } from "../../src/plugin.js";

// The instant each accepted text names, as ISO text (years 0 to 99 included, which Date.UTC alone would shift).
const accepted: Array<[string, string]> = [
  ["2024-03-15", "2024-03-15T00:00:00.000Z"],
  ["2024-02-29", "2024-02-29T00:00:00.000Z"],
  ["2000-02-29", "2000-02-29T00:00:00.000Z"],
  ["0050-02-28", "0050-02-28T00:00:00.000Z"],
  ["0004-02-29", "0004-02-29T00:00:00.000Z"],
  ["0000-01-01", "0000-01-01T00:00:00.000Z"],
  ["0099-12-31", "0099-12-31T00:00:00.000Z"],
  ["9999-12-31", "9999-12-31T00:00:00.000Z"],
  ["2024-03-15T10:20Z", "2024-03-15T10:20:00.000Z"],
  ["2024-03-15T10:20:30Z", "2024-03-15T10:20:30.000Z"],
  ["2024-03-15T10:20:30.1Z", "2024-03-15T10:20:30.100Z"],
  ["2024-03-15T10:20:30.123Z", "2024-03-15T10:20:30.123Z"],
  ["2024-03-15T10:20:30.123456Z", "2024-03-15T10:20:30.123Z"],
  ["2024-03-15T10:20:30+02:00", "2024-03-15T08:20:30.000Z"],
  ["2024-03-15T10:20:30-05:30", "2024-03-15T15:50:30.000Z"],
  ["2024-03-15T10:20+00:00", "2024-03-15T10:20:00.000Z"],
  ["2024-03-15T00:30:00+01:00", "2024-03-14T23:30:00.000Z"],
  ["2024-03-15T23:59:59Z", "2024-03-15T23:59:59.000Z"],
  ["2024-03-15T10:20:30+23:59", "2024-03-14T10:21:30.000Z"],
  ["2024-03-15T10:20:30-23:59", "2024-03-16T10:19:30.000Z"],
  ["0050-02-28T10:00:00Z", "0050-02-28T10:00:00.000Z"],
  ["0050-06-01T01:00+02:00", "0050-05-31T23:00:00.000Z"],
];

const refused: string[] = [
  "",
  // Days, months, hours, minutes, seconds and offsets that do not exist.
  "2023-02-29",
  "0050-02-29",
  "0100-02-29",
  "2023-02-30",
  "2024-04-31",
  "2024-13-01",
  "2024-00-10",
  "2024-01-00",
  "2024-01-32",
  "2023-02-30T10:00:00Z",
  "2024-03-15T24:00:00Z",
  "2024-03-15T10:60:00Z",
  "2024-03-15T10:20:60Z",
  "2024-03-15T10:20:30+24:00",
  "2024-03-15T10:20:30+02:60",
  // An offset that moves the instant out of the years 0 to 9999 (stored text would not sort among the others).
  "0000-01-01T00:30:00+01:00",
  "9999-12-31T23:30:00-01:00",
  // A time without an offset, letters in lower case, a space for T, and other shapes.
  "2024-03-15T10:20:30",
  "2024-03-15T10:20",
  "2024-03-15t10:20:30Z",
  "2024-03-15T10:20:30z",
  "2024-03-15 10:20:30Z",
  "2024-03-15T10:20:30+0200",
  "2024-03-15T10:20:30+02",
  "2024-03-15T10Z",
  "2024-03-15T10:20:30.Z",
  "2024-03-15T10:20.5Z",
  "2024-3-15",
  "20240315",
  "+002024-03-15",
  "12024-03-15",
  "03/15/2024",
  "15.03.2024",
  "March 15, 2024",
  "Fri, 15 Mar 2024 10:20:30 GMT",
  // Text before or after an accepted text.
  " 2024-01-01",
  "2024-01-01 ",
  "2024-01-01Z",
  "'2024-01-01'",
  "2024-03-15T10:20:30Zx",
  "x2024-03-15T10:20:30Z",
  "2024-03-15T10:20:30+02:00\n",
];

describe("parseDateText", () => {
  it.each(accepted)("reads %s as %s, as casting does", (text, iso) => {
    expect(parseDateText(text)?.toISOString()).toBe(iso);
    expect(castAs("datetime", text)?.toISOString()).toBe(iso);
  });

  it.each(refused.map((text) => [text]))("refuses %j, as casting does", (text) => {
    expect(parseDateText(text)).toBeUndefined();
    expect(castAs("datetime", text)).toBeUndefined();
  });
});
