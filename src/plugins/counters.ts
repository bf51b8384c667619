import {
  type AnyModel,
  type Attribute,
  attributeWas,
  type AttributesOfModel,
  argumentError,
  definePlugin,
  fragmentOf,
  isPlainObject,
  type NumberAttributeName,
  optionsArgument,
  previewText,
  quoteIdentifier,
  RecordNotFound,
  refuseExtraArguments,
  refuseNonKeys,
  type Relation,
  type ResolvedModel,
  type Statement,
  UnknownAttribute,
  updateAllStatement,
  updateAllWrite,
  withoutDefaultScope,
  writeStoredAttribute,
} from "../kernel/index.js";

/** The options of `updateCounters`: `touch: true` also sets the Model's `updatedAt` (Rails' option). */
export interface UpdateCountersOptions {
  touch?: boolean;
}

/** What a counter write is asked through, for its error messages: `Post.updateCounters`, `Post#incrementAndSave`. */
type Where = string;

type CountingModel = Function & { name: string; all(): Relation };

type CountedRecord = {
  constructor: Function;
  isNewRecord(): boolean;
  isDestroyed(): boolean;
  readAttribute(name: string): unknown;
  writeAttribute(name: string, value: unknown): void;
};

/** The attribute a counter names: an integer attribute of the Model, else `UnknownAttribute` or `TypeError`. */
function counterAttribute(model: ResolvedModel, name: unknown, where: Where): Attribute {
  if (typeof name !== "string") throw argumentError(where, "the name of an integer attribute", name);
  const attribute = model.byName.get(name);
  if (!attribute) throw new UnknownAttribute(`${where}: ${model.name} has no attribute ${previewText(name)}`);
  if (attribute.typeName !== "integer") {
    throw new TypeError(`${where}: ${model.name}.${name} is a ${attribute.typeName} attribute; a counter is an integer attribute`);
  }
  return attribute;
}

/** A counter's change: a whole number (negative to take away), else `TypeError` naming the attribute. */
function counterDelta(model: ResolvedModel, name: string, delta: unknown, where: Where): number {
  if (typeof delta !== "number" || !Number.isSafeInteger(delta)) {
    throw new TypeError(`${where}: the change of ${model.name}.${name} is a whole number, not ${previewText(delta)}`);
  }
  return delta;
}

/**
 * `"score" = COALESCE("score", 0) + ?`: the database adds to the row's value as it stands, a NULL counting as 0. Made
 * with `fragmentOf`, not sql`...`: its column is a checked attribute's and its value a whole number, and the checks
 * sql`...` makes of the values an app writes would otherwise be in every Worker that registers this plugin.
 */
const addTo = (attribute: Attribute, delta: number) => fragmentOf(`COALESCE(${quoteIdentifier(attribute.column)}, 0) + ?1`, [delta]);

/** The attributes `touch: true` sets: those a save stamps as it changes a row (`updatedAt` with timestamps). */
function touchedAttributes(model: ResolvedModel, options: UpdateCountersOptions | undefined, where: Where): Attribute[] {
  const { touch = false } = optionsArgument(`${where}: options`, options, ["touch"]);
  if (typeof touch !== "boolean") throw argumentError(`${where}: touch`, "true or false", touch);
  if (!touch) return [];
  const stamped = model.attributes.filter((attribute) => attribute.updateTimestamp);
  if (stamped.length === 0) throw new TypeError(`${where}: touch sets updatedAt, and ${model.name} has no updatedAt timestamp`);
  return stamped;
}

/**
 * The `updateAll` values of a counter write: each counter's `COALESCE(n, 0) + delta`, checked, and the touched
 * timestamps set to `now`.
 */
function counterValues(model: ResolvedModel, counters: unknown, touched: readonly Attribute[], now: Date, where: Where): Record<string, unknown> {
  if (!isPlainObject(counters)) throw argumentError(where, "an object of integer attributes to the change of each", counters);
  const entries = Object.entries(counters);
  if (entries.length === 0) throw new TypeError(`${where} needs at least one counter to change`);
  const values: Record<string, unknown> = {};
  for (const [name, delta] of entries) {
    const attribute = counterAttribute(model, name, where);
    values[attribute.name] = addTo(attribute, counterDelta(model, name, delta, where));
  }
  for (const attribute of touched) values[attribute.name] = now;
  return values;
}

/**
 * The rows of `ids` (a key or a list of keys, bound as one value), whatever the Model's default scopes (Rails'
 * `unscoped`), within what the plugins' `relation:where` hooks allow (the current tenant's rows).
 */
function rowsOf(model: CountingModel, ids: unknown, where: Where): Relation {
  refuseNonKeys(where, ids);
  const all = model.all();
  return withoutDefaultScope(all).where({ [all.model.primaryKey.name]: ids });
}

/** The rows and values of `updateCounters`, checked, given to `write` (sent, or made a Statement). */
function counterWrite<T>(model: CountingModel, ids: unknown, counters: unknown, options: UpdateCountersOptions | undefined, method: string, write: (rows: Relation, values: Record<string, unknown>, method: string) => T): T {
  const where = `${model.name}.${method}`;
  const resolved = model.all().model;
  const values = counterValues(resolved, counters, touchedAttributes(resolved, options, where), new Date(), where);
  return write(rowsOf(model, ids, where), values, where);
}

/**
 * `Post.updateCounters(id, { score: 1, views: -2 })`: adds to each integer attribute of the rows with this key or
 * list of keys, in ONE statement (`SET "score" = COALESCE("score", 0) + ?`) that reads nothing; resolves to the
 * rows changed. Skips validations, callbacks and default scopes, as Rails does.
 */
async function updateCounters(this: CountingModel, ids: unknown, counters: unknown, options?: UpdateCountersOptions): Promise<number> {
  return await counterWrite(this, ids, counters, options, "updateCounters", updateAllWrite);
}

/** `updateCounters` as a Statement for `batch`. */
function toUpdateCounters(this: CountingModel, ids: unknown, counters: unknown, options?: UpdateCountersOptions): Statement<number> {
  return counterWrite(this, ids, counters, options, "toUpdateCounters", updateAllStatement);
}

/** Adds to a counter (`sign` 1) or takes from it (-1). */
type Sign = 1 | -1;

/** The record's counter with `by` added (`sign` 1) or taken (-1), in memory: a NULL counts as 0. */
function counted(record: CountedRecord, name: unknown, by: unknown, sign: Sign, method: string): { name: string; value: number } {
  const where = `${record.constructor.name}#${method}`;
  const model = (record.constructor as CountingModel).all().model;
  const attribute = counterAttribute(model, name, where);
  const delta = sign * counterDelta(model, attribute.name, by, where);
  return { name: attribute.name, value: Number(record.readAttribute(attribute.name) ?? 0) + delta };
}

/**
 * `record.increment("score", by = 1)` or `decrement`: changes the attribute in memory (a change to save), as Rails'
 * increment. Options such as touch (those of its `AndSave` form) would be ignored, so they are refused.
 */
function inMemory(method: "increment" | "decrement", sign: Sign) {
  return function (this: CountedRecord, name: unknown, by: unknown = 1) {
    refuseExtraArguments(`${this.constructor.name}#${method}`, arguments.length, 2, `${method}AndSave writes the row`);
    const counter = counted(this, name, by, sign, method);
    this.writeAttribute(counter.name, counter.value);
    return this;
  };
}

/**
 * Adds `by` to a persisted record's counter in the database (`COALESCE(n, 0) + ?`, by the key as stored, one
 * statement, no read) plus any unsaved change of it, then holds the sum as saved. `RecordNotFound` when no row
 * changed (gone, or not the current tenant's).
 */
async function addAndSave(record: CountedRecord, name: unknown, by: unknown, sign: Sign, options: UpdateCountersOptions | undefined, method: string) {
  const model = record.constructor as CountingModel;
  const where = `${model.name}#${method}`;
  if (record.isNewRecord() || record.isDestroyed()) {
    throw new TypeError(`${where}: the record is ${record.isNewRecord() ? "new" : "destroyed"} and has no row to change; save it first`);
  }
  const counter = counted(record, name, by, sign, method);
  const resolved = model.all().model;
  const key = attributeWas(record, resolved.primaryKey.name);
  // Rails writes the difference from the stored value, so that an unsaved change of the counter is written too.
  const delta = counter.value - Number(attributeWas(record, counter.name) ?? 0);
  const touched = touchedAttributes(resolved, options, where);
  const now = new Date();
  const changed = await updateAllWrite(rowsOf(model, key, where), counterValues(resolved, { [counter.name]: delta }, touched, now, where), where);
  if (changed === 0) throw new RecordNotFound(`${where}: ${model.name} with ${resolved.primaryKey.name} ${previewText(key)} has no row to change (gone, or out of reach)`);
  const saved: [string, unknown][] = [[counter.name, counter.value], ...touched.map((each): [string, unknown] => [each.name, now])];
  for (const [attribute, value] of saved) {
    record.writeAttribute(attribute, value);
    writeStoredAttribute(record, attribute, value);
  }
  return record;
}

/** `incrementAndSave` or `decrementAndSave`. */
function inDatabase(method: "incrementAndSave" | "decrementAndSave", sign: Sign) {
  return async function (this: CountedRecord, name: unknown, by: unknown = 1, options?: UpdateCountersOptions) {
    refuseExtraArguments(`${this.constructor.name}#${method}`, arguments.length, 3);
    return await addAndSave(this, name, by, sign, options, method);
  };
}

/**
 * Atomic counters (Rails' `update_counters`, `increment`, `increment!`): `Model.updateCounters(ids, { score: 1 })`
 * and its `toUpdateCounters` Statement for `batch`, which add in the database in one statement (`SET n =
 * COALESCE(n, 0) + ?`), never read-then-write; `record.increment`/`decrement` in memory; and
 * `record.incrementAndSave`/`decrementAndSave`, which add to the record's row so. They skip validations and
 * callbacks, as in Rails; a counter is an integer attribute, its change a whole number.
 */
export const counters = definePlugin({
  name: "counters",
  setup(base: Record<string, unknown> & { prototype: object }) {
    Object.assign(base, { updateCounters, toUpdateCounters });
    const methods = {
      increment: inMemory("increment", 1),
      decrement: inMemory("decrement", -1),
      incrementAndSave: inDatabase("incrementAndSave", 1),
      decrementAndSave: inDatabase("decrementAndSave", -1),
    };
    for (const [name, method] of Object.entries(methods)) {
      Object.defineProperty(base.prototype, name, { value: method, writable: true, configurable: true });
    }
  },
});

/** A counter's changes by attribute name: the integer attributes of `A` (checked when called), each a whole number. */
export type CounterChanges<A> = { [K in NumberAttributeName<A>]?: number };

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Adds to integer attributes of the rows with this key or list of keys in one statement, `SET "score" =
     * COALESCE("score", 0) + ?` (a negative change takes away); resolves to the rows changed. Skips validations,
     * callbacks and default scopes; `touch: true` also sets updatedAt.
     */
    updateCounters<M extends AnyModel>(this: M, ids: unknown, counters: CounterChanges<AttributesOfModel<M>>, options?: UpdateCountersOptions): Promise<number>;
    /** `updateCounters` as a Statement for `batch`. */
    toUpdateCounters<M extends AnyModel>(this: M, ids: unknown, counters: CounterChanges<AttributesOfModel<M>>, options?: UpdateCountersOptions): Statement<number>;
  }

  interface PluginRecordMethods<A> {
    /** Adds `by` (default 1) to the integer attribute in memory, a NULL counting as 0; a change to save. Returns the record. */
    increment(name: NumberAttributeName<A>, by?: number): this;
    /** Takes `by` (default 1) from the integer attribute in memory, a NULL counting as 0; a change to save. Returns the record. */
    decrement(name: NumberAttributeName<A>, by?: number): this;
    /**
     * Adds `by` (default 1) to the integer attribute in the database, `SET n = COALESCE(n, 0) + ?` by the record's
     * stored key, in one statement with no read (Rails' `increment!`); then holds the new value as saved. Skips
     * validations and callbacks. `RecordNotFound` when the row is gone.
     */
    incrementAndSave(name: NumberAttributeName<A>, by?: number, options?: UpdateCountersOptions): Promise<this>;
    /** `incrementAndSave` taking `by` away (Rails' `decrement!`). */
    decrementAndSave(name: NumberAttributeName<A>, by?: number, options?: UpdateCountersOptions): Promise<this>;
  }
}
