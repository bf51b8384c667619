/**
 * D1's limits on bound values, at their exact boundaries: the UTF-8 length counted without encoding, the JSON that
 * binds a list's values, the split of a long list into JSON arrays of at most a million bytes each, and the
 * parameters a statement binds (at most 100, a value past the first 90 read from a JSON array), with where each
 * value came from.
 */
import { describe, expect, it } from "vitest";
import { CastError } from "../../src/index.js";
import { ParamWriter, utf8Length, assertValueWithinD1Limit, MAX_VALUE_BYTES } from "../../src/plugin.js";
import { jsonArraysWithinD1Limit, jsonOfBound } from "../../src/kernel/sql/bound-json.js";
import { distinctListValues, matchesEachRowOnce } from "../../src/kernel/sql/list-values.js";
import { User } from "../models/fixtures.js";

const encoder = new TextEncoder();
const owner = { name: "User", model: User };
const nameAttribute = { name: "name" } as Parameters<typeof assertValueWithinD1Limit>[1];

describe("utf8Length", () => {
  const boundaries = [0x00, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff];
  it.each(boundaries)("counts U+%s as TextEncoder encodes it", (code) => {
    const text = `a${String.fromCharCode(code)}b`;
    expect(utf8Length(text)).toBe(encoder.encode(text).length);
  });

  it("counts a surrogate pair as the four bytes of its character", () => {
    for (const character of ["\u{10000}", "\u{1F600}", "\u{10FFFF}"]) expect(utf8Length(character)).toBe(4);
  });

  it("counts each half of a pair as two bytes, lone or not (the low and high ends of both ranges)", () => {
    for (const half of [0xd800, 0xdbff, 0xdc00, 0xdfff]) expect(utf8Length(String.fromCharCode(half))).toBe(2);
  });
});

describe("assertValueWithinD1Limit", () => {
  it("accepts text of exactly the limit in bytes and refuses one byte more, naming the Model, attribute and size", () => {
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, "x".repeat(MAX_VALUE_BYTES))).not.toThrow();
    const over = () => assertValueWithinD1Limit(owner, nameAttribute, "x".repeat(MAX_VALUE_BYTES + 1));
    expect(over).toThrow(CastError);
    expect(over).toThrow(`User.name: a value of ${MAX_VALUE_BYTES + 1} bytes is over D1's limit of ${MAX_VALUE_BYTES} bytes`);
  });

  it("counts bytes, not characters: 400,000 three-byte characters are over, 500,000 two-byte ones are at the limit", () => {
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, "\u00e9".repeat(MAX_VALUE_BYTES / 2))).not.toThrow();
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, "\u20ac".repeat(400_000))).toThrow("a value of 1200000 bytes");
  });

  it("measures a blob by its byte length, as an ArrayBuffer or a view", () => {
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, new Uint8Array(MAX_VALUE_BYTES))).not.toThrow();
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, new ArrayBuffer(MAX_VALUE_BYTES + 2))).toThrow(`a value of ${MAX_VALUE_BYTES + 2} bytes`);
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, new Uint8Array(MAX_VALUE_BYTES + 3))).toThrow(`a value of ${MAX_VALUE_BYTES + 3} bytes`);
  });

  it("lets other values through (numbers, null)", () => {
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, 1e300)).not.toThrow();
    expect(() => assertValueWithinD1Limit(owner, nameAttribute, null)).not.toThrow();
  });
});

describe("jsonOfBound: the JSON SQLite reads back as the value D1 binds", () => {
  it.each([
    ["a string", "é\"", '"é\\""'],
    ["an integer, as a real", 1, "1.0"],
    ["a fraction", 1.5, "1.5"],
    ["a large number in exponent form", 1e21, "1e+21"],
    ["true, as D1 binds it", true, "1.0"],
    ["false, as D1 binds it", false, "0.0"],
    ["a BigInt, as the integer it is", 12n, "12"],
    ["null", null, "null"],
  ])("writes %s", (_name, value, json) => {
    expect(jsonOfBound(value)).toBe(json);
  });

  it.each([["NaN", Number.NaN], ["Infinity", Number.POSITIVE_INFINITY], ["undefined", undefined], ["a blob", new Uint8Array(1)], ["an object", {}]])(
    "has no JSON for %s",
    (_name, value) => {
      expect(jsonOfBound(value)).toBeUndefined();
    },
  );
});

describe("jsonArraysWithinD1Limit", () => {
  /** A JSON string text of exactly `bytes` bytes. */
  const jsonText = (bytes: number) => JSON.stringify("x".repeat(bytes - 2));

  it("keeps a list whose array is exactly the limit as one array", () => {
    const texts = [jsonText(MAX_VALUE_BYTES / 2 - 2), jsonText(MAX_VALUE_BYTES / 2 - 1)];
    const arrays = jsonArraysWithinD1Limit(texts, "User.name");
    expect(arrays).toHaveLength(1);
    expect(utf8Length(arrays[0]!)).toBe(MAX_VALUE_BYTES);
  });

  it("splits a longer list into full arrays, each within the limit, never an empty one", () => {
    const texts = Array.from({ length: 5 }, () => jsonText(300_000));
    const arrays = jsonArraysWithinD1Limit(texts, "User.name");
    expect(arrays.map((array) => JSON.parse(array).length)).toEqual([3, 2]);
    for (const array of arrays) expect(utf8Length(array)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
  });

  it("starts a new array only when the next element would pass the limit", () => {
    // Two elements fill the first array to exactly the limit; the third starts the second.
    const first = jsonText(MAX_VALUE_BYTES - 2 - 1 - 10);
    const arrays = jsonArraysWithinD1Limit([first, jsonText(10), jsonText(10)], "User.name");
    expect(arrays.map((array) => utf8Length(array))).toEqual([MAX_VALUE_BYTES, 12]);
  });

  it("gives an element as large as an array can hold an array of its own, and refuses one byte more", () => {
    const largest = jsonText(MAX_VALUE_BYTES - 2);
    expect(jsonArraysWithinD1Limit([largest, "1.0"], "User.name")).toEqual([`[${largest}]`, "[1.0]"]);
    expect(() => jsonArraysWithinD1Limit([jsonText(MAX_VALUE_BYTES - 1), "1.0"], "User.name")).toThrow(
      `User.name: a list element of ${MAX_VALUE_BYTES - 1} bytes in JSON is over D1's limit`,
    );
  });
});

describe("list values", () => {
  it("keeps each value once by the JSON that binds it, the first of equal ones", () => {
    expect(distinctListValues([true, 1, "a", "a", 2])).toEqual({ values: [true, "a", 2], texts: ["1.0", '"a"', "2.0"] });
  });

  it.each([
    ["text that reads as the same number", ["1", "01"], false],
    ["a number and its text", [1, "1.0"], false],
    ["texts equal but for ASCII case or trailing spaces", ["Ada", "ada "], false],
    ["the empty text and zero", ["", "0"], true],
    ["blank text and zero", ["  ", "0"], true],
    ["distinct texts", ["Ada", "Bob"], true],
    ["texts that only a fold beyond ASCII would make equal", ["\u00df", "ss"], true],
  ])("tells whether a stored value may equal two of them: %s", (_name, values, once) => {
    expect(matchesEachRowOnce(values)).toBe(once);
  });
});

describe("ParamWriter within D1's limits", () => {
  const bindPlain = (writer: ParamWriter) => {
    for (let index = 0; index < 90; index++) writer.bind(index);
  };

  it("keeps where each plain value came from, in parameter order", () => {
    const writer = new ParamWriter();
    const source = { kind: "attribute", model: "User", attribute: "name" } as never;
    expect(writer.bind("Ada", source)).toBe("?1");
    writer.bind(2);
    expect(writer.sources).toEqual([source, undefined]);
  });

  it("binds a value past the first 90 in a JSON array, with where it came from", () => {
    const writer = new ParamWriter();
    bindPlain(writer);
    const source = { kind: "attribute", model: "User", attribute: "name" } as never;
    expect(writer.bind("Ada", source)).toBe("json_extract(?91, '$[0]')");
    expect(writer.params[90]).toBe('["Ada"]');
    expect(writer.sources[90]).toEqual({ kind: "spilled", values: ["Ada"], sources: [source] });
  });

  it("spills a value whose array fits the limit, and gives a larger one a parameter of its own", () => {
    const fits = "x".repeat(MAX_VALUE_BYTES - 4);
    const writer = new ParamWriter();
    bindPlain(writer);
    expect(writer.bind(fits)).toBe("json_extract(?91, '$[0]')");
    expect(utf8Length(writer.params[90] as string)).toBe(MAX_VALUE_BYTES);
    const larger = "x".repeat(MAX_VALUE_BYTES - 3);
    expect(writer.bind(larger)).toBe("?92");
  });

  it("starts another array when the next value would pass the limit, each array within it", () => {
    const writer = new ParamWriter();
    bindPlain(writer);
    const texts = Array.from({ length: 7 }, () => writer.bind("y".repeat(300_000)));
    expect(texts).toEqual([
      "json_extract(?91, '$[0]')",
      "json_extract(?91, '$[1]')",
      "json_extract(?91, '$[2]')",
      "json_extract(?92, '$[0]')",
      "json_extract(?92, '$[1]')",
      "json_extract(?92, '$[2]')",
      "json_extract(?93, '$[0]')",
    ]);
    for (const param of writer.params.slice(90)) expect(utf8Length(param as string)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
  });

  it("fills an array to the byte, no further", () => {
    const writer = new ParamWriter();
    bindPlain(writer);
    // With the brackets and the comma between them, these two fill the array exactly.
    writer.bind("z".repeat(MAX_VALUE_BYTES / 2 - 4));
    expect(writer.bind("z".repeat(MAX_VALUE_BYTES / 2 - 3))).toBe("json_extract(?91, '$[1]')");
    expect(utf8Length(writer.params[90] as string)).toBe(MAX_VALUE_BYTES);
    expect(writer.bind("1")).toBe("json_extract(?92, '$[0]')");
  });

  it("binds at most 100 parameters, refusing the 101st with a clear error", () => {
    const writer = new ParamWriter();
    bindPlain(writer);
    for (let index = 0; index < 10; index++) expect(writer.bind(new Uint8Array(1))).toBe(`?${91 + index}`);
    expect(writer.params).toHaveLength(100);
    expect(() => writer.bind(new Uint8Array(1))).toThrow("cannot bind its values within D1's limits of 100 parameters");
  });
});
