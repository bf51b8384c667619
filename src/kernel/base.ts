import { argumentError, refuseExtraArguments } from "./records/arguments.js";
import { assertNotDestroyed, loadedAttribute, writeAttribute, writeAttributes } from "./records/assign.js";
import type { Batchable } from "./database/batchable.js";
import { CHECK_MODEL, unboundModel, boundDatabase } from "./database/database.js";
import { currentDatabase } from "./database/context.js";
import { ownDeclaration, refuseAfterSubclass } from "./records/declaration.js";
import type { Errors } from "./records/errors-collection.js";
import type { ModelHookName, ModelHooks } from "./plugin-api/hooks.js";
import * as persistence from "./persistence/persistence.js";
import type { SaveOptions } from "./persistence/record-save.js";
import { type Plugin, registrationsOf } from "./plugin-api/plugin.js";
import { checkPlugin } from "./plugin-api/plugin-checks.js";
import { isHookName } from "./plugin-api/hook-names.js";
import { checkRelationMethods, installStaticAndRecordWraps, noteProvider, setUpRefusingReplacements } from "./plugin-api/method-wrapping.js";
import { relationOf } from "./relations/model-relations.js";
import { Relation } from "./relations/relation.js";
import { inferTableName, reserveRecordMethodNames, reserveRecordMethods, resolveModel } from "./records/resolve.js";
import { currentValue, RecordState, STATE } from "./records/record-state.js";
import { isBlob } from "./sql/blob-values.js";
import { isPlainObject } from "./records/plain-object.js";
import type { AssignableValue, AssignAttributes, AttributeName, JsonAttributes } from "./records/attribute-values.js";
import type { AssignableFields, AttributesOfModel, RecordAssignment, RecordOfModel } from "./relations/query-typing.js";
import type { RelationOf } from "./relations/typed-relation.js";

// What a function declared `async` is an instance of: as a static, such a Relation method rejects rather than throws.
const AsyncFunction = (async () => {}).constructor;

type AnyRecord = Base & Record<string, any>;

type ModelStatics = typeof Base;

/** What a static's `this` is: the Model class it is called on (a subclass gets its own types), any Model at all. */
type ModelConstructor = abstract new (...args: any) => { attributes(): any };

/**
 * The hooks `M.hook(...)` takes: their contexts typed for `M`'s records, the class and its Relations; for a base class
 * (whose attributes are not typed), for any Model below it.
 */
type HooksOf<M extends ModelConstructor> = 0 extends 1 & AttributesOfModel<M> ? ModelHooks : ModelHooks<RecordOfModel<M>, M, RelationOf<M>>;

/**
 * An attribute's default for a new record: what its function returns, or a copy of an array, a plain object or a Date
 * given as it is, so that no two records share one (an edit in place of one record's value would change the others').
 */
function defaultValueOf(given: unknown): unknown {
  if (typeof given === "function") return given();
  return given instanceof Date || Array.isArray(given) || isPlainObject(given) ? structuredClone(given) : given;
}

/**
 * The kernel's record class: state, attributes and persistence, with no feature beyond them.
 * Apps extend a base made from it (`Model({...})`, `ApplicationRecord('<table>')`); plugins add the rest.
 */
export class Base<A = any> {
  /** Name of the database binding in the Worker's env that queries use outside `withDatabase`. */
  static binding: string | undefined;
  /** The table. Defaults to the class name, snake_case and pluralized. */
  static tableName: string;
  /** The primary key attribute. */
  static primaryKey = "id";
  /** Attributes omitted from `toJSON()`. A Model's own list replaces its base class's. */
  static hiddenAttributes: string[] = [];

  // Private, so that spreading, cloning or listing a record's keys never reaches its values.
  #state = new RecordState(this.constructor);

  /**
   * An empty record, without a database (see `build`). Attributes given here would be dropped without a word, so they
   * are a `TypeError` saying to use `build`.
   */
  constructor() {
    // Checked before the message is made: every record loaded is constructed here.
    if (arguments.length > 0) refuseExtraArguments(`new ${new.target.name}`, arguments.length, 0, `use ${new.target.name}.build(attributes)`);
  }

  /** @internal The record's kernel state; a getter on the prototype, so that no own property holds it. */
  get [STATE](): RecordState {
    return this.#state;
  }

  // ---- declaring -------------------------------------------------------------------------------

  /** Registers plugins on this class; every Model below it gets their hooks. */
  static use(this: Function, ...plugins: Plugin[]): void {
    // A plugin not made by definePlugin is checked here as definePlugin checks it.
    for (const plugin of plugins) checkPlugin(`${this.name}.use`, plugin);
    const declaration = ownDeclaration(this);
    for (const plugin of plugins) {
      if (declaration.plugins.some((known) => known.name === plugin.name)) continue;
      // A subclass copied this class's declaration when it declared: the plugin's hooks and Relation methods would
      // not reach it, while its statics and record methods would (Ruby's include reaches it whole).
      refuseAfterSubclass(this, `${this.name}.use: plugin ${plugin.name}`, "register plugins before declaring subclasses");
      checkRelationMethods(this, plugin, declaration.plugins, Relation.prototype);
      declaration.plugins.push(plugin);
      declaration.hooks.push(...registrationsOf(plugin));
      for (const [name, method] of Object.entries(plugin.relationMethods ?? {})) {
        defineRelationStatic(this, name, method instanceof AsyncFunction);
        noteProvider((this as unknown as Record<string, Function>)[name]!, plugin);
      }
      const ownNames = () => Object.getOwnPropertyNames(this.prototype);
      const before = new Set(ownNames());
      setUpRefusingReplacements(this, plugin);
      installStaticAndRecordWraps(this, plugin);
      reserveRecordMethodNames(ownNames().filter((name) => !before.has(name)));
    }
  }

  /** @internal What `db.model(M)` runs before binding the Model: an invalid declaration is refused right away. */
  static [CHECK_MODEL](this: ModelStatics): void {
    resolveModel(this);
  }

  /**
   * Adds a hook function on this Model (and the Models below it); its context is typed for this Model. `InvalidModel`
   * once a subclass declared, which the hook would not reach.
   */
  static hook<M extends ModelConstructor, Name extends ModelHookName>(this: M, name: Name, fn: HooksOf<M>[Name]): void {
    if (!isHookName(name)) throw argumentError(`${this.name}.hook`, "the name of a hook point of the catalogue", name);
    if (typeof fn !== "function") throw argumentError(`${this.name}.hook`, "a hook function", fn);
    refuseAfterSubclass(this, `${this.name}.hook: ${name}`, "declare hooks before declaring subclasses");
    ownDeclaration(this).hooks.push([name, fn as (...args: any[]) => unknown]);
  }

  // ---- building ---------------------------------------------------------------------------------

  /** A Relation of every record, the start of any query. */
  static all<M extends ModelConstructor>(this: M): RelationOf<M> {
    // Rails 3's all(conditions) narrowed; read as none, conditions here would give every record.
    refuseExtraArguments(`${this.name}.all`, arguments.length, 0, `narrow with where(...): ${this.name}.where({ ... })`);
    return relationOf(this) as unknown as RelationOf<M>;
  }

  /** Builds a new record, nothing written: defaults and generated ids applied, then `attributes` assigned. */
  static build<M extends ModelConstructor>(this: M, attributes: RecordAssignment<RecordOfModel<M>> = {}): RecordOfModel<M> {
    refuseExtraArguments(`${this.name}.build`, arguments.length, 1);
    const Class = unboundModel(this) as unknown as new () => AnyRecord;
    const record = new Class();
    const state = record[STATE];
    state.database = boundDatabase(this) ?? currentDatabase();
    const model = state.model;
    for (const attribute of model.attributes) {
      if (!attribute.hasDefault) continue;
      writeAttribute(record, state, attribute.name, defaultValueOf(attribute.default));
    }
    if (model.hooks.has("record:initialize")) model.hooks.callSync("record:initialize", { record });
    state.builtValues = { ...state.values };
    writeAttributes(record, state, attributes as Record<string, unknown>, "build");
    return record as RecordOfModel<M>;
  }

  /** Builds and saves a record; returns it, persisted or not (see `errors` and `abortReason`). */
  static async create<M extends ModelConstructor>(this: M, attributes: RecordAssignment<RecordOfModel<M>> = {}): Promise<RecordOfModel<M>> {
    refuseExtraArguments(`${this.name}.create`, arguments.length, 1);
    const record = (this as unknown as ModelStatics).build(attributes as object);
    await record.save();
    return record as RecordOfModel<M>;
  }

  /** Builds and saves a record; throws `RecordInvalid` or `RecordNotSaved` when refused. */
  static async createOrThrow<M extends ModelConstructor>(this: M, attributes: RecordAssignment<RecordOfModel<M>> = {}): Promise<RecordOfModel<M>> {
    refuseExtraArguments(`${this.name}.createOrThrow`, arguments.length, 1);
    const record = (this as unknown as ModelStatics).build(attributes as object);
    await record.saveOrThrow();
    return record as RecordOfModel<M>;
  }

  // ---- state -------------------------------------------------------------------------------------

  /** Whether the record has not been saved yet. */
  isNewRecord(): boolean {
    return this[STATE].isNew && !this[STATE].destroyed;
  }

  /** Whether the record is saved and not destroyed. */
  isPersisted(): boolean {
    return !this[STATE].isNew && !this[STATE].destroyed;
  }

  /** Whether the record was destroyed. */
  isDestroyed(): boolean {
    return this[STATE].destroyed;
  }

  /** Why validation failed, or an association refused a destroy. */
  get errors(): Errors {
    return this[STATE].errors;
  }

  /** The reason given by the callback that aborted the last save or destroy. */
  get abortReason(): string | undefined {
    return this[STATE].abortReason;
  }

  // ---- attributes ------------------------------------------------------------------------------

  /** Reads an attribute by name. */
  readAttribute<K extends AttributeName<A>>(name: K): A[K] {
    return currentValue(this[STATE], loadedAttribute(this[STATE], name, "readAttribute")) as A[K];
  }

  /** Assigns an attribute by name, cast to its type. */
  writeAttribute<K extends AttributeName<A>>(name: K, value: AssignableValue<A[K]>): void {
    writeAttribute(this, this[STATE], name, value);
  }

  /** Sets several attributes without saving. */
  assign(attributes: AssignAttributes<A> & AssignableFields<this>): this {
    this.#takes("assign", arguments.length, 1);
    return this.#assign(attributes, "assign");
  }

  #assign(attributes: object, method: string): this {
    writeAttributes(this, this[STATE], attributes as Record<string, unknown>, method);
    return this;
  }

  /** Every loaded attribute as a plain object of JavaScript values (Dates as Date), hidden ones included. */
  attributes(): A {
    const state = this[STATE];
    const result: Record<string, unknown> = {};
    for (const attribute of state.model.attributes) {
      if (!state.loaded || state.loaded.has(attribute.name)) result[attribute.name] = currentValue(state, attribute);
    }
    return result as A;
  }

  /**
   * The attributes for JSON: dates as ISO strings, a plugin type's values in its JSON form, `hiddenAttributes` left
   * out, associations never included, a `json` attribute's object copied (editing it, or a `record:serialize` hook
   * editing it, leaves the record as it was). Bytes (of a type that gives no JSON form) throw `TypeError` naming the
   * Model and attribute: JSON has no bytes, and would write an object of their indices.
   */
  toJSON(): Partial<JsonAttributes<A>> {
    const state = this[STATE];
    const { hiddenAttributes: hidden, byName } = state.model;
    const json: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this.attributes() as Record<string, unknown>)) {
      if (hidden.has(name)) continue;
      const { type, typeName } = byName.get(name)!;
      const { toJSON } = type;
      if (!toJSON && isBlob(value)) throw new TypeError(`${state.model.name}.toJSON: ${name} holds bytes, which JSON has no form for; give its attribute type a toJSON (hex or base64 text)`);
      json[name] = value === null || !toJSON ? ownJsonValue(value, typeName) : toJSON(value);
    }
    const { hooks } = state.model;
    if (hooks.has("record:serialize")) hooks.callSync("record:serialize", { record: this, json });
    return json as Partial<JsonAttributes<A>>;
  }

  // ---- persistence -----------------------------------------------------------------------------

  /**
   * Validates and saves; true, or false when validation failed or a callback aborted. `{ validate: false }` skips
   * the validations (the `record:beforeValidate`, `record:validate` and `record:afterValidate` hooks), not the rest.
   */
  save(options?: SaveOptions): Promise<boolean> {
    return persistence.save(this, options, arguments.length);
  }

  /**
   * Saves, or throws `RecordInvalid` (record on `error.record`) or `RecordNotSaved` (the abort reason);
   * `{ validate: false }` as for `save`.
   */
  async saveOrThrow(options?: SaveOptions): Promise<true> {
    persistence.saveValidates(this, options, arguments.length, "saveOrThrow");
    // Through save, so that a plugin's wrapper of save serves saveOrThrow (and createOrThrow, updateOrThrow) too.
    if (await this.save(options)) return true;
    throw persistence.saveRefusal(this);
  }

  /** Assigns and saves. */
  update(attributes: AssignAttributes<A> & AssignableFields<this>): Promise<boolean> {
    // Not an async function (one turn less per update), yet bad input still rejects rather than throws.
    try {
      this.#takes("update", arguments.length, 1);
      assertNotDestroyed(this[STATE], "updated");
      this.#assign(attributes, "update");
    } catch (error) {
      return Promise.reject(error);
    }
    return this.save();
  }

  /** Assigns and saves, or throws as `saveOrThrow`. */
  async updateOrThrow(attributes: AssignAttributes<A> & AssignableFields<this>): Promise<true> {
    this.#takes("updateOrThrow", arguments.length, 1);
    assertNotDestroyed(this[STATE], "updated");
    this.#assign(attributes, "updateOrThrow");
    return await this.saveOrThrow();
  }

  /** Destroys the record: callbacks, dependents, then the DELETE. The record, or false when refused. */
  async destroy(): Promise<this | false> {
    this.#takes("destroy", arguments.length, 0);
    return (await persistence.destroy(this)) ? this : false;
  }

  /** Destroys the record, or throws `RecordNotDestroyed`. */
  async destroyOrThrow(): Promise<this> {
    this.#takes("destroyOrThrow", arguments.length, 0);
    // Through destroy, so that a plugin's wrapper of destroy serves destroyOrThrow too.
    if (await this.destroy()) return this;
    throw persistence.destroyRefusal(this);
  }

  /** Reloads the row, discarding unsaved changes. */
  async reload(): Promise<this> {
    this.#takes("reload", arguments.length, 0);
    await persistence.reload(this);
    return this;
  }

  /** The save of this record as a batch item for `db.batch([...])`. */
  toSave(): Batchable<this> {
    this.#takes("toSave", arguments.length, 0);
    return persistence.toSave(this) as Batchable<this>;
  }

  /** The destroy of this record as a batch item for `db.batch([...])`. */
  toDestroy(): Batchable<this> {
    this.#takes("toDestroy", arguments.length, 0);
    return persistence.toDestroy(this) as Batchable<this>;
  }

  /** Refuses the arguments a record method would ignore (see `refuseExtraArguments`). */
  #takes(method: string, given: number, taken: number): void {
    // The message is made only for a refusal: these are the hot paths of writes.
    if (given > taken) refuseExtraArguments(`${this[STATE].model.name}.${method}`, given, taken);
  }
}

// Through the plugin API, as a plugin's methods are: record-methods.ts stays below every file that names a record.
declare module "./index.js" {
  /** Every record's kernel methods are `Base`'s, declared there once. */
  interface KernelRecordMethods<A> extends Base<A> {}
}

// Reading tableName without a database (the CLI and scripts rely on this): inferred until a class sets it.
Object.defineProperty(Base, "tableName", {
  get(this: Function) {
    return inferTableName(unboundModel(this)).tableName;
  },
  set(this: Function, value: string) {
    Object.defineProperty(this, "tableName", { value, writable: true, configurable: true, enumerable: true });
  },
  configurable: true,
});

reserveRecordMethods(Base.prototype);

/** Relation methods that build a Relation; as statics they start from `all()`. */
const RELATION_BUILDERS = ["where", "whereNot", "order", "reorder", "limit", "offset", "select", "distinct", "none", "toSql"];

/** Relation methods that query and resolve to results; as statics they start from `all()`. */
const RELATION_QUERIES = ["toArray", "find", "findBy", "findByOrThrow", "first", "take"];

/**
 * A value as JSON gets it when its type gives no JSON form: a date as ISO text, a `json` attribute's object copied
 * through JSON text, which takes any depth the cast let in (structuredClone's recursion overflows the stack first).
 */
function ownJsonValue(value: unknown, typeName: string): unknown {
  if (value instanceof Date) return value.toISOString();
  return typeName === "json" && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : value;
}

/**
 * Makes a Relation method callable as a static of the class, starting from `all()`. For a method that
 * queries, a failure to start (such as `InvalidModel` at the Model's first use) rejects, like the query would.
 */
export function defineRelationStatic(model: Function, name: string, queries = false): void {
  Object.defineProperty(model, name, {
    value: function (this: typeof Base, ...args: unknown[]) {
      let relation: Record<string, (...args: unknown[]) => unknown>;
      try {
        relation = this.all() as unknown as Record<string, (...args: unknown[]) => unknown>;
      } catch (error) {
        if (queries) return Promise.reject(error);
        throw error;
      }
      return relation[name]!(...args);
    },
    writable: true,
    configurable: true,
  });
}

for (const name of RELATION_BUILDERS) defineRelationStatic(Base, name);
for (const name of RELATION_QUERIES) defineRelationStatic(Base, name, true);
