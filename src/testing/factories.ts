import { batch } from "../batch.js";
import { type AnyModel, type AttributesOfModel, type BatchItem, previewText, primaryKeyOf, type RecordOfModel } from "../kernel/index.js";

/** What a factory gives an attribute: a value, or another factory, whose record it creates and whose key it takes. */
export type FactoryAttributes<M extends AnyModel> = { [K in keyof AttributesOfModel<M>]?: AttributesOfModel<M>[K] | Factory<AnyModel> };

/** Attributes for the `n`th record a factory makes (`n` counts from 1, per factory: a sequence). */
export type FactoryDefinition<M extends AnyModel> = (n: number) => FactoryAttributes<M>;

/** Options of `defineFactory`. */
export interface FactoryOptions<M extends AnyModel, T extends string> {
  /** Named sets of attributes applied on top of the definition when asked for (`create({}, "admin")`). */
  traits?: Record<T, FactoryAttributes<M> | FactoryDefinition<M>>;
}

/** Records of a Model made from a definition (Rails' FactoryBot, Lucid's factories). */
export interface Factory<M extends AnyModel, T extends string = string> {
  /** The Model it makes records of. */
  readonly model: M;
  /** A record built and not saved: the definition, then the traits in order, then `overrides`. */
  build(overrides?: FactoryAttributes<M>, ...traits: T[]): RecordOfModel<M>;
  /** `count` records built and not saved. */
  buildList(count: number, overrides?: FactoryAttributes<M>, ...traits: T[]): RecordOfModel<M>[];
  /** A record saved (validations and callbacks run; `RecordInvalid` when refused), with the parents it needs. */
  create(overrides?: FactoryAttributes<M>, ...traits: T[]): Promise<RecordOfModel<M>>;
  /**
   * `count` records saved together: with the parents factories give them, in one atomic batch, one round trip,
   * when every parent's key is made in code (an integer key the database numbers takes a round trip first).
   */
  createList(count: number, overrides?: FactoryAttributes<M>, ...traits: T[]): Promise<RecordOfModel<M>[]>;
}

type SavingRecord = { toSave(): BatchItem; readAttribute(name: string): unknown };
type Built = { record: SavingRecord; parents: { attribute: string; record: SavingRecord }[] };

const FACTORY = Symbol("recordflare.factory");

function isFactory(value: unknown): value is Factory<AnyModel> & { [FACTORY]: FactoryWork } {
  return typeof value === "object" && value !== null && FACTORY in value;
}

/** What a factory does inside: builds a record with the parents its attributes ask for. */
interface FactoryWork {
  built(overrides: object | undefined, traits: readonly string[]): Built;
}

/** Records of a batch, saved in as few round trips as their keys allow: parents first when their keys are the database's. */
async function saveAll(built: readonly Built[]): Promise<void> {
  const parents = built.flatMap((each) => each.parents);
  const keyless = parents.filter((parent) => parent.record.readAttribute(primaryKeyName(parent.record)) == null);
  if (keyless.length > 0) {
    await saveInBatches(parents.map((parent) => parent.record));
    for (const each of built) for (const parent of each.parents) assign(each.record, parent.attribute, parent.record);
    await saveInBatches(built.map((each) => each.record));
    return;
  }
  for (const each of built) for (const parent of each.parents) assign(each.record, parent.attribute, parent.record);
  await saveInBatches([...parents.map((parent) => parent.record), ...built.map((each) => each.record)]);
}

/** Saves records in atomic batches of at most 500 writes, one round trip each (a refused record fails its batch). */
async function saveInBatches(records: readonly SavingRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += 500) {
    await batch(records.slice(start, start + 500).map((record) => record.toSave()));
  }
}

function primaryKeyName(record: SavingRecord): string {
  return primaryKeyOf((record as unknown as { constructor: Function }).constructor).name;
}

function assign(record: SavingRecord, attribute: string, parent: SavingRecord): void {
  (record as unknown as Record<string, unknown>)[attribute] = parent.readAttribute(primaryKeyName(parent));
}

function checkedCount(method: string, count: number): number {
  if (!Number.isInteger(count) || count < 0) throw new TypeError(`${method} takes a whole number of records, not ${previewText(count)}`);
  return count;
}

/**
 * Defines a factory of `model`'s records for tests: `definition(n)` gives the attributes of the `n`th record (a
 * sequence, so unique values stay unique), traits name sets of attributes to add, and an attribute given a factory
 * (`userId: users`) gets the key of a record that factory makes. Records are built with the Model's `build`
 * (defaults, generated ids) and saved with validations and callbacks, many at a time in one batch.
 */
export function defineFactory<M extends AnyModel, T extends string = never>(model: M, definition: FactoryDefinition<M>, options: FactoryOptions<M, T> = {}): Factory<M, T> {
  if (typeof model !== "function") throw new TypeError("defineFactory takes a Model class, then a function of the sequence number giving attributes");
  if (typeof definition !== "function") throw new TypeError(`defineFactory(${model.name}): the definition is a function of the sequence number giving attributes`);
  const traits = (options.traits ?? {}) as Record<string, FactoryAttributes<M> | FactoryDefinition<M>>;
  let sequence = 0;
  const work: FactoryWork = {
    built(overrides, names) {
      const n = ++sequence;
      const attributes: Record<string, unknown> = { ...definition(n) };
      for (const name of names) {
        if (!Object.hasOwn(traits, name)) throw new TypeError(`defineFactory(${model.name}): no trait named ${previewText(name)}`);
        const trait = traits[name]!;
        Object.assign(attributes, typeof trait === "function" ? trait(n) : trait);
      }
      Object.assign(attributes, overrides);
      const parents: Built["parents"] = [];
      for (const [attribute, value] of Object.entries(attributes)) {
        if (!isFactory(value)) continue;
        const parent = value[FACTORY].built(undefined, []);
        if (parent.parents.length > 0) throw new TypeError(`defineFactory(${model.name}): ${attribute}'s factory gives parents of its own; create them first and pass the key`);
        parents.push({ attribute, record: parent.record });
        attributes[attribute] = parent.record.readAttribute(primaryKeyName(parent.record));
      }
      const record = (model as unknown as { build(attributes: object): SavingRecord }).build(attributes);
      return { record, parents };
    },
  };
  const buildList = (count: number, overrides?: object, ...names: T[]) => Array.from({ length: checkedCount(`${model.name} factory: buildList`, count) }, () => work.built(overrides, names));
  return {
    model,
    [FACTORY]: work,
    build: (overrides, ...names) => work.built(overrides, names).record as RecordOfModel<M>,
    buildList: (count, overrides, ...names) => buildList(count, overrides, ...names).map((each) => each.record as RecordOfModel<M>),
    async create(overrides, ...names) {
      const built = work.built(overrides, names);
      await saveAll([built]);
      return built.record as RecordOfModel<M>;
    },
    async createList(count, overrides, ...names) {
      const built = buildList(count, overrides, ...names);
      await saveAll(built);
      return built.map((each) => each.record as RecordOfModel<M>);
    },
  } as Factory<M, T>;
}
