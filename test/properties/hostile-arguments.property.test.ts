/**
 * Property tests of arguments: whatever a public method is given (values of the wrong type, NaN, huge and negative
 * numbers, BigInts, symbols, functions, Maps and Sets, invalid Dates, objects without a prototype, objects that contain
 * themselves, nesting thousands deep, prototype keys), it works or throws an error of the library naming the Model or
 * the method: never a raw JavaScript error (`Cannot read properties`, `is not a function`, `Maximum call stack`,
 * `Invalid time value`) nor a database error for input the library should have refused; and an option it does not
 * take is refused, never read as not given.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { batch, between, gt, lt, RecordflareError, sql } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { Item, Owner, seedOwnedItems } from "../models/owners-and-items.js";
import { DATABASE_PROPERTY_TIMEOUT } from "./arbitraries.js";

/** Messages of raw JavaScript errors, and of D1 refusing what the library let through. */
const RAW_ERROR = /Cannot read propert|Cannot convert|is not a function|is not iterable|undefined is not|null is not|Maximum call stack|is not defined|Cannot (?:set|create|destructure)|Invalid time value|D1_|SQLITE/;

/** An object that contains itself, through association names `includes` would follow. */
function selfContaining(): Record<string, unknown> {
  const owner: Record<string, unknown> = {};
  owner["items"] = { owner };
  return owner;
}

/** An object nested `levels` associations deep: `{ items: { owner: { items: ... } } }`. */
const nested = (levels: number) => Array.from({ length: levels }).reduce<object>((below, _, level) => ({ [level % 2 ? "items" : "owner"]: below }), {});

/** Values no method takes, or takes only in some positions, by name (a counterexample shows the name). */
const SPECIAL: Record<string, () => unknown> = {
  undefined: () => undefined,
  null: () => null,
  NaN: () => Number.NaN,
  Infinity: () => Number.POSITIVE_INFINITY,
  "-1": () => -1,
  "1.5": () => 1.5,
  "2 ** 53": () => 2 ** 53,
  "1e300": () => 1e300,
  '""': () => "",
  '" 5"': () => " 5",
  '"1e3"': () => "1e3",
  ...Object.fromEntries(["id", "name", "rank", "items", "owner", "asc", "DESC", "sideways", "__proto__", "constructor", "toString"].map((text) => [`"${text}"`, () => text])),
  "10n": () => 10n,
  symbol: () => Symbol("s"),
  function: () => () => 1,
  "{}": () => ({}),
  "[]": () => [],
  "[[]]": () => [[]],
  Map: () => new Map([["a", 1]]),
  Set: () => new Set([1]),
  "invalid Date": () => new Date(Number.NaN),
  Date: () => new Date(0),
  "null-prototype object": () => Object.create(null),
  "{ toString: 1 }": () => ({ toString: 1 }),
  "{ name: { a: 1 } }": () => ({ name: { a: 1 } }),
  '["name", "nope"]': () => ["name", "nope"],
  '[1, "a", null]': () => [1, "a", null],
  "own __proto__ key": () => JSON.parse('{"__proto__": "items"}'),
  "object that contains itself": selfContaining,
  "nested 3000 deep": () => nested(3000),
  "gt(1)": () => gt(1),
  "sql fragment": () => sql`1 = 1`,
};

/** A hostile value: a named one of SPECIAL, or anything fast-check makes (`{ any }`); `resolve` gives the value. */
const hostile = fc.oneof(
  fc.constantFrom(...Object.keys(SPECIAL)),
  fc.anything({ maxDepth: 2, withBigInt: true, withMap: true, withSet: true, withNullPrototype: true, withDate: true, withSparseArray: true }).map((any) => ({ any })),
);
const resolve = (value: string | { any: unknown }): unknown => (typeof value === "string" ? SPECIAL[value]!() : value.any);

/** Each public method under test, given one or two hostile values. */
const CALLS: Record<string, (a: any, b: any) => unknown> = {
  order: (a) => Item.order(a).toArray(),
  orderDirection: (a) => Item.order({ name: a }).toArray(),
  select: (a, b) => Item.select(a, b).toArray(),
  limit: (a) => Item.limit(a).toArray(),
  offset: (a) => Item.order({ id: "asc" }).offset(a).toArray(),
  paginate: (a) => Item.order({ id: "asc" }).paginate(a),
  paginatePage: (a, b) => Item.order({ id: "asc" }).paginate({ page: a, perPage: b }),
  pluck: (a, b) => Item.pluck(a, b),
  pick: (a) => Item.pick(a),
  sum: (a) => Item.sum(a),
  minimum: (a) => Item.minimum(a),
  includes: (a) => Owner.includes(a).toArray(),
  includesBelow: (a) => Owner.includes({ items: a }).toArray(),
  withCount: (a) => Owner.withCount(a).toArray(),
  findEach: async (a) => {
    for await (const _ of Item.findEach(a));
  },
  updateCounters: (a, b) => Item.updateCounters(a, { rank: b }),
  increment: async (a, b) => (await Item.find("a")).increment(a, b),
  insertAllOptions: (a) => Item.insertAll([{ name: "inserted" }], a),
  insertAllRows: (a) => Item.insertAll(a),
  upsertAllOptions: (a) => Item.upsertAll([{ id: "a", name: "x" }], a),
  whereGt: (a) => Item.where({ rank: gt(a) }).toArray(),
  whereBetween: (a, b) => Item.where({ seenAt: between(a, b) }).toArray(),
  whereLt: (a) => Item.where({ name: lt(a) }).toArray(),
  whereIn: (a, b) => Item.where({ rank: [a, b, 1, "x"] }).toArray(),
  where: (a) => Item.where(a).toArray(),
  whereValue: (a) => Item.where({ data: a }).toArray(),
  exists: (a) => Item.exists(a),
  find: (a) => Item.find(a),
  findBy: (a) => Item.findBy(a),
  sqlValue: (a) => Item.where(sql`"name" = ${a}`).toArray(),
  updateAll: (a) => Item.where({ id: "none" }).updateAll(a),
  first: (a) => Item.first(a),
  findOrCreateBy: (a) => Item.findOrCreateBy(a),
  build: (a) => Item.build(a),
  construct: (a) => new (Item as unknown as new (given: unknown) => object)(a),
  buildAssociation: (a) => Item.build({ owner: a }),
  buildJson: (a) => JSON.stringify(Item.build({ data: a })),
  print: (a) => String(Item.build({ data: a })),
  assign: (a) => Owner.build({ name: "n" }).assign(a),
  assignAssociation: (a) => Owner.build({ name: "n" }).assign({ items: a } as never),
  permit: (a, b) => Item.permit(a, b),
  batch: (a) => batch(a),
  batchItems: (a, b) => batch([a, b]),
  asJson: async (a) => (await Owner.includes("items").find("o1")).asJson({ include: a }),
};

/** Runs a call and returns what it threw, if anything. */
async function thrownBy(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A documented error: a RecordflareError, or a TypeError of the library (naming the Model, or the function it is: `batch`, `sql`, a comparison helper). */
function expectDocumented(error: unknown, method: string): void {
  expect(error, method).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message, method).not.toMatch(RAW_ERROR);
  if (error instanceof RecordflareError) return;
  expect(error, `${method}: ${message}`).toBeInstanceOf(TypeError);
  expect(message, method).toMatch(/^(?:new )?(Item|Owner|batch|sql|gt|lt|between)\b/);
}

describe("whatever the arguments, a public method works or throws an error of the library naming the Model or method", () => {
  beforeAll(async () => {
    await resetDatabase();
    await seedOwnedItems();
  });

  it("for every method, with one or two hostile values", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(CALLS)), hostile, hostile, async (method, first, second) => {
        const error = await thrownBy(() => CALLS[method]!(resolve(first), resolve(second)));
        if (error !== undefined) expectDocumented(error, method);
      }),
      { numRuns: 1500, seed: 20261129 },
    );
  }, DATABASE_PROPERTY_TIMEOUT);

  it("an option a method does not take is a TypeError naming the method and the option, never read as not given", async () => {
    const OPTIONS: Record<string, (options: object) => unknown> = {
      findEach: async (options) => {
        for await (const _ of Item.findEach(options as never));
      },
      paginate: (options) => Item.order({ id: "asc" }).paginate(options as never),
      insertAll: (options) => Item.insertAll([{ name: "n" }], options as never),
      upsertAll: (options) => Item.upsertAll([{ id: "a" }], options as never),
      updateCounters: (options) => Item.updateCounters("a", { rank: 1 }, options as never),
      asJson: (options) => Item.build({}).asJson(options as never),
    };
    const taken = new Set(["batchSize", "order", "page", "perPage", "count", "onDuplicate", "uniqueBy", "touch", "include"]);
    const name = fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !taken.has(key) && key !== "__proto__");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(OPTIONS)), name, fc.anything({ maxDepth: 1 }), async (method, key, value) => {
        const error = await thrownBy(() => OPTIONS[method]!({ [key]: value }));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(new RegExp(`^Item[.#]${method}\\b`));
        expect((error as Error).message).toContain(JSON.stringify(key).slice(1, -1).slice(0, 4));
      }),
      { numRuns: 200, seed: 20261129 },
    );
  }, DATABASE_PROPERTY_TIMEOUT);
});
