/**
 * Property tests of casting (SPEC.md "Casting of assigned values"), for every attribute type: an accepted input
 * round-trips through every write path and a load as the value it is cast to; a refused input throws `TypeError`
 * naming the Model and attribute on every write path, sends nothing and changes nothing.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BuiltInAttributeTypeName } from "../../src/index.js";
import { thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { TYPED_ATTRIBUTE, TypedRow } from "../models/typed-row.js";
import { accepted, DATABASE_PROPERTY_TIMEOUT, refused, RUNS } from "./arbitraries.js";

const TYPES = Object.keys(TYPED_ATTRIBUTE) as BuiltInAttributeTypeName[];

/** Every row of `typed_rows`, read straight from D1. */
async function dumpRows(): Promise<unknown[]> {
  return (await env.DB.prepare("SELECT * FROM typed_rows ORDER BY id").all()).results;
}

type Row = InstanceType<typeof TypedRow> & Record<string, unknown>;
type Writer = (model: typeof TypedRow, attribute: string, input: unknown) => Promise<string>;

/** Each write path, writing `input` to `attribute` of a row; resolves to the row's id. */
const WRITE_PATHS: Record<string, Writer> = {
  async create(model, attribute, input) {
    const record = (await model.createOrThrow({ [attribute]: input })) as Row;
    return record.id as string;
  },
  async save(model, attribute, input) {
    const record = (await model.createOrThrow({})) as Row;
    record[attribute] = input;
    await record.saveOrThrow();
    return record.id as string;
  },
  async update(model, attribute, input) {
    const record = (await model.createOrThrow({})) as Row;
    await record.updateOrThrow({ [attribute]: input });
    return record.id as string;
  },
  async insert(model, attribute, input) {
    const id = crypto.randomUUID();
    await model.insert({ id, [attribute]: input });
    return id;
  },
  async insertAll(model, attribute, input) {
    const id = crypto.randomUUID();
    await model.insertAll([{ id, [attribute]: input }, { id: crypto.randomUUID(), [attribute]: input }]);
    return id;
  },
  async upsert(model, attribute, input) {
    const id = crypto.randomUUID();
    await model.insert({ id });
    await model.upsert({ id, [attribute]: input });
    return id;
  },
  async updateAll(model, attribute, input) {
    const id = crypto.randomUUID();
    await model.insert({ id });
    await model.where({ id }).updateAll({ [attribute]: input });
    return id;
  },
};

describe("casting, for every attribute type", () => {
  it("an accepted input round-trips through every write path and a load as the value it is cast to", async () => {
    const input = fc.constantFrom(...TYPES).chain((type) => fc.tuple(fc.constant(type), accepted[type], fc.constantFrom(...Object.keys(WRITE_PATHS))));
    await fc.assert(
      fc.asyncProperty(input, async ([type, [value, cast], path]) => {
        const attribute = TYPED_ATTRIBUTE[type];
        const id = await WRITE_PATHS[path]!(TypedRow, attribute, value);
        const loaded = (await TypedRow.find(id)) as Row;
        expect(loaded[attribute]).toEqual(cast);
        expect(loaded.isChanged()).toBe(false);
      }),
      { numRuns: RUNS * 2 },
    );
  }, DATABASE_PROPERTY_TIMEOUT);

  it("a refused input throws TypeError naming the Model and attribute on every write path, sends nothing and changes nothing", async () => {
    const persisted = (await TypedRow.createOrThrow({ code: "kept" })) as Row;
    const paths: Record<string, (model: typeof TypedRow, attribute: string, value: unknown) => unknown> = {
      build: (model, attribute, value) => model.build({ [attribute]: value }),
      create: (model, attribute, value) => model.create({ [attribute]: value }),
      assign: (model, attribute, value) => persisted.assign({ [attribute]: value }),
      setter: (model, attribute, value) => void (persisted[attribute] = value),
      update: (model, attribute, value) => persisted.update({ [attribute]: value }),
      insert: (model, attribute, value) => model.insert({ [attribute]: value }),
      insertAll: (model, attribute, value) => model.insertAll([{ [attribute]: null }, { [attribute]: value }]),
      upsert: (model, attribute, value) => model.upsert({ id: persisted.id, [attribute]: value }),
      upsertAll: (model, attribute, value) => model.upsertAll([{ id: persisted.id, [attribute]: value }]),
      updateAll: (model, attribute, value) => model.where({ id: persisted.id }).updateAll({ [attribute]: value }),
    };
    const input = fc.constantFrom(...TYPES).chain((type) => fc.tuple(fc.constant(type), refused[type], fc.constantFrom(...Object.keys(paths))));
    const before = await dumpRows();
    await fc.assert(
      fc.asyncProperty(input, async ([type, value, path]) => {
        const attribute = TYPED_ATTRIBUTE[type];
        const { events, TypedRow: Model } = listen({ models: { TypedRow } });
        const old = persisted.attributes();
        const error = await thrown(() => paths[path]!(Model, attribute, value));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toContain(`TypedRow.${attribute}`);
        expect(events).toEqual([]);
        expect(persisted.attributes()).toEqual(old);
      }),
      { numRuns: RUNS * 4 },
    );
    expect(await dumpRows()).toEqual(before);
  }, DATABASE_PROPERTY_TIMEOUT);
});
