import {
  argumentError,
  compileSelect,
  databaseForBatch,
  prepareRelation,
  previewList,
  previewText,
  readAsCondition,
  RecordNotFound,
  refusedValueError,
  type Relation,
  type Statement,
} from "../../kernel/index.js";
import { keyTexts } from "./keys.js";

type Loaded = Record<string, any>;

/**
 * A key given to `setIds`: as the target's primary key reads it, and as given (what messages quote). `key` is
 * undefined for a value the key cannot take (`"nine"` for an integer key): no row has it, as `find` finds none.
 */
export interface GivenKey {
  readonly key: unknown;
  readonly given: unknown;
}

/** What a `setIds` reads its targets by: the method (as errors name it), the target Model and its primary key. */
export interface KeyedTargets {
  /** `Post.comments.setIds`. */
  readonly where: string;
  /** The target Model, unbound: its name and its key's type. */
  readonly target: Function;
  /** The target's primary key. */
  readonly keyName: string;
  /** The target Model's records, on the owner's database: the keys are looked up among all of them, as Rails does. */
  readonly all: Relation;
}

/** A blank given for a key stands for none, as Rails' ids writer drops blanks: a form's multi-select sends `""` for none. */
const isBlank = (id: unknown): boolean => id === null || (typeof id === "string" && id.trim() === "");

const isScalar = (value: unknown): boolean => ["string", "number", "bigint", "boolean"].includes(typeof value);

/**
 * The keys given to `setIds` (Rails' `collection_singular_ids=`), each once, read as a condition on the target's
 * primary key reads a value (a form's `"4"` is the key 4 of an integer key); blanks dropped. A list, or a `TypeError`
 * naming the method. A value the key cannot take is no row's key, as for `find` (`"x"` for an integer key: see
 * `recordsOfKeys`); an object or a list given as a key is a `CastError` (a `TypeError`) naming the method, the Model
 * and the value, before anything is read.
 */
export function keysGiven({ where, target, keyName }: KeyedTargets, ids: unknown): GivenKey[] {
  if (!Array.isArray(ids)) throw argumentError(where, "a list of keys", ids);
  const byText = new Map<string, GivenKey>();
  for (const given of ids) {
    if (isBlank(given)) continue;
    if (!isScalar(given)) throw refusedValueError(`${where}: ${previewText(given)} is no key of ${target.name} (${keyName})`, given, { model: target, attribute: keyName });
    const key = readAsCondition(target, keyName, given);
    const text = key === undefined ? `given ${String(given)}` : `key ${keyTexts(target, keyName)(key)}`;
    if (!byText.has(text)) byText.set(text, { key, given });
  }
  return [...byText.values()];
}

/** The keys some row may have: those given that the target's primary key could read. */
export function castKeys(keys: readonly GivenKey[]): unknown[] {
  return keys.filter(({ key }) => key !== undefined).map(({ key }) => key);
}

/** The SELECT of a Relation's records after the prepare stage, awaited: sent in a batch of reads. */
async function preparedSelect(relation: Relation): Promise<Statement<any[]>> {
  const pending = prepareRelation(relation, "load");
  const prepared = pending instanceof Promise ? await pending : pending;
  return prepared.toSelect(compileSelect(prepared.description, prepared.model));
}

/** The records of `keys` among those read by them, in the order given; `RecordNotFound` naming each key no row has, as given. */
function recordsOfKeys({ where, target, keyName }: KeyedTargets, keys: readonly GivenKey[], found: readonly Loaded[]): Loaded[] {
  const textOf = keyTexts(target, keyName);
  const byKey = new Map(found.map((record) => [textOf(record.readAttribute(keyName)), record]));
  const missing = keys.filter(({ key }) => key === undefined || !byKey.has(textOf(key)));
  if (missing.length > 0) {
    throw new RecordNotFound(`${where}: no ${target.name} with ${keyName} ${previewList(missing.map(({ given }) => given), previewText)}`);
  }
  return keys.map(({ key }) => byKey.get(textOf(key))!);
}

/**
 * Reads, in ONE batch, the targets of the keys given to `setIds` (see `keysGiven`; the list bound as one value,
 * however long) and the records of `others` (the rows the write replaces): one round trip, none when there is
 * nothing to read (no keys and no others). A key with no row is `RecordNotFound` naming the Model and each such key
 * once, as given, before anything is written.
 */
export async function readKeyedTargets(keyed: KeyedTargets, keys: readonly GivenKey[], others: readonly Relation[]): Promise<{ targets: Loaded[]; others: Loaded[][] }> {
  const relations = keys.length === 0 ? others : [keyed.all.where({ [keyed.keyName]: castKeys(keys) }), ...others];
  if (relations.length === 0) return { targets: [], others: [] };
  const reads = await Promise.all(relations.map(preparedSelect));
  const results = (await (await databaseForBatch(reads)).batch(reads)) as Loaded[][];
  const found = keys.length === 0 ? [] : results.shift()!;
  return { targets: recordsOfKeys(keyed, keys, found), others: results };
}
