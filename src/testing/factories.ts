import { type AnyModel, argumentError, type AttributesOfModel, isPlainObject, optionsArgument, previewText, primaryKeyOf, type RecordOfModel } from "../kernel/index.js";
import { type BatchedRecord, saveInBatches } from "./bounded-batches.js";

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
   * when every parent's key is made in code (an integer key the database numbers takes a round trip first) and
   * their saves send at most 500 statements, the statements their hooks add (a counter cache's UPDATE) included;
   * more go in several such batches, in order.
   */
  createList(count: number, overrides?: FactoryAttributes<M>, ...traits: T[]): Promise<RecordOfModel<M>[]>;
}

type SavingRecord = BatchedRecord & { readAttribute(name: string): unknown };
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

function primaryKeyName(record: SavingRecord): string {
  return primaryKeyOf((record as unknown as { constructor: Function }).constructor).name;
}

function assign(record: SavingRecord, attribute: string, parent: SavingRecord): void {
  (record as unknown as Record<string, unknown>)[attribute] = parent.readAttribute(primaryKeyName(parent));
}

function checkedCount(method: string, count: number): number {
  if (!Number.isInteger(count) || count < 0) throw argumentError(method, "a whole number of records", count);
  return count;
}

/** Attributes a factory is given (`overrides`) or made (`definition(n)`, a trait's function): an object, or none. */
function checkedAttributes(where: string, expected: string, attributes: unknown): object | undefined {
  if (attributes !== undefined && !isPlainObject(attributes)) throw argumentError(where, expected, attributes);
  return attributes;
}

type Traits<M extends AnyModel> = Record<string, FactoryAttributes<M> | FactoryDefinition<M>>;

/** `defineFactory`'s options, checked: only `traits`, an object of attribute sets or functions of `n` giving them. */
function checkedTraits<M extends AnyModel>(where: string, options: FactoryOptions<M, string> | undefined): Traits<M> {
  const { traits = {} } = optionsArgument(where, options, ["traits"]);
  const expected = "an object of named traits, each attributes (an object) or a function of the sequence number giving them";
  if (!isPlainObject(traits)) throw argumentError(`${where}: traits`, expected, traits);
  for (const [name, trait] of Object.entries(traits)) {
    if (typeof trait !== "function" && !isPlainObject(trait)) throw argumentError(`${where}: traits.${name}`, "attributes (an object) or a function of the sequence number giving them", trait);
  }
  return traits as Traits<M>;
}

/** The attributes of the `n`th record: the definition's, then the traits' in order, then the overrides. */
function attributesOf<M extends AnyModel>(where: string, n: number, definition: FactoryDefinition<M>, traits: Traits<M>, names: readonly string[], overrides: object | undefined): Record<string, unknown> {
  const made = (what: string, attributes: unknown) => {
    if (!isPlainObject(attributes)) throw new TypeError(`${where}: ${what} returned ${previewText(attributes)}, not an object of attributes`);
    return attributes;
  };
  const attributes: Record<string, unknown> = { ...made("the definition", definition(n)) };
  for (const name of names) {
    if (typeof name !== "string" || !Object.hasOwn(traits, name)) throw new TypeError(`${where}: no trait named ${previewText(name)}`);
    const trait = traits[name]!;
    Object.assign(attributes, typeof trait === "function" ? made(`the trait ${name}`, trait(n)) : trait);
  }
  return Object.assign(attributes, overrides);
}

/** A record built of `attributes`, each attribute given a factory taking the key of a new parent of it. */
function builtWithParents(model: AnyModel, where: string, attributes: Record<string, unknown>): Built {
  const parents: Built["parents"] = [];
  for (const [attribute, value] of Object.entries(attributes)) {
    if (!isFactory(value)) continue;
    const parent = value[FACTORY].built(undefined, []);
    if (parent.parents.length > 0) throw new TypeError(`${where}: ${attribute}'s factory gives parents of its own; create them first and pass the key`);
    parents.push({ attribute, record: parent.record });
    attributes[attribute] = parent.record.readAttribute(primaryKeyName(parent.record));
  }
  const record = (model as unknown as { build(attributes: object): SavingRecord }).build(attributes);
  return { record, parents };
}

/**
 * Defines a factory of `model`'s records for tests: `definition(n)` gives the attributes of the `n`th record (a
 * sequence, so unique values stay unique), traits name sets of attributes to add, and an attribute given a factory
 * (`userId: users`) gets the key of a record that factory makes. Records are built with the Model's `build`
 * (defaults, generated ids) and saved with validations and callbacks, many at a time in one batch. Throws
 * `TypeError` for an option other than `traits`, and for traits that are not an object of attribute sets or
 * functions giving them.
 */
export function defineFactory<M extends AnyModel, T extends string = never>(model: M, definition: FactoryDefinition<M>, options?: FactoryOptions<M, T>): Factory<M, T> {
  if (typeof model !== "function") throw new TypeError("defineFactory takes a Model class, then a function of the sequence number giving attributes");
  const where = `defineFactory(${model.name})`;
  if (typeof definition !== "function") throw new TypeError(`${where}: the definition is a function of the sequence number giving attributes`);
  const traits = checkedTraits(where, options);
  let sequence = 0;
  const work: FactoryWork = {
    built: (overrides, names) => builtWithParents(model, where, attributesOf(where, ++sequence, definition, traits, names, overrides)),
  };
  // Each method checks what it was given, naming itself, before it builds anything.
  const one = (method: string, overrides: unknown, names: readonly string[]) => {
    const checked = checkedAttributes(`${model.name} factory: ${method}`, "overrides (an object of attributes), then trait names", overrides);
    return work.built(checked, names);
  };
  const list = (method: string, count: number, overrides: unknown, names: readonly string[]) => {
    checkedCount(`${model.name} factory: ${method}`, count);
    checkedAttributes(`${model.name} factory: ${method}`, "a count, then overrides (an object of attributes), then trait names", overrides);
    return Array.from({ length: count }, () => work.built(overrides as object | undefined, names));
  };
  const records = (built: readonly Built[]) => built.map((each) => each.record as RecordOfModel<M>);
  return {
    model,
    [FACTORY]: work,
    build: (overrides, ...names) => one("build", overrides, names).record as RecordOfModel<M>,
    buildList: (count, overrides, ...names) => records(list("buildList", count, overrides, names)),
    async create(overrides, ...names) {
      const built = one("create", overrides, names);
      await saveAll([built]);
      return built.record as RecordOfModel<M>;
    },
    async createList(count, overrides, ...names) {
      const built = list("createList", count, overrides, names);
      await saveAll(built);
      return records(built);
    },
  } as Factory<M, T>;
}
