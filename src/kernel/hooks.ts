import type { Attribute } from "./attributes.js";
import { HookRegistry } from "./hook-registry.js";
import type { Batchable } from "./batchable.js";
import type { BatchItem } from "./database.js";
import type { QueryPurpose, RelationData, SelectParts } from "./compiler.js";
import type { Plugin } from "./plugin.js";
import type { RelationPlanContext } from "./read-plan.js";
import type { ResolvedModel } from "./resolve.js";
import type { Statement } from "./statement.js";

/** What a save is doing. */
export type SaveOperation = "create" | "update";

/** Context of the save hooks. `record` is the record being saved. */
export interface SaveContext<R = any> {
  readonly record: R;
  readonly operation: SaveOperation;
  /**
   * Further writes to make in the same atomic batch, after the record's own (for example children built
   * through an association). A before-save hook may push to it.
   */
  readonly batch: BatchItem[];
  /**
   * Further writes to make in the same atomic batch, before the record's own (for example a new parent
   * assigned through `belongsTo`, whose row the record's foreign key must find). A before-save hook may push to it.
   */
  readonly batchBefore: BatchItem[];
  /**
   * Record writes made after this save, in a batch of their own, by the hook that pushed them (children waiting for
   * a key the database assigns to the record). Their validations and before-callbacks run with this save's, before
   * anything is written: a refused one refuses this save. A before-save hook may push to it.
   */
  readonly later: Batchable[];
}

/** Context of the destroy hooks. */
export interface DestroyContext<R = any> {
  readonly record: R;
  /**
   * Further writes to make in the same atomic batch, before the record's DELETE (dependents): records'
   * `toDestroy()` / `toSave()`, or Statements such as a `toDeleteAll()`.
   */
  readonly batch: BatchItem[];
}

/**
 * Context of the hook that runs while an INSERT or UPDATE is built (for saves and for bulk inserts):
 * `values` shows what will be written; a hook assigns attributes on the record to write more.
 */
export interface WriteContext<R = any> {
  readonly record: R;
  readonly operation: SaveOperation;
  /** Attribute name to JavaScript value, as it stands before this hook. */
  readonly values: ReadonlyMap<string, unknown>;
}

/** A read a `record:planDestroy` hook adds to a destroy's read batch, and what receives its result. */
export interface DestroyRead<Result = any> {
  readonly statement: Statement<Result>;
  /** Gets the statement's result, before the `record:beforeDelete` hooks run. Sync. */
  readonly receive: (result: Result) => void;
}

/** One line of a printed record. */
export interface InspectEntry {
  readonly attribute: Attribute;
  /** The value as printed. */
  shown: string;
  /** What follows the value: `(was <old>)`, `(changed)`, or nothing. */
  note: string;
}

/**
 * The catalogue of a Model's hook points. Each receives one context object, which it may change.
 * Hooks whose type may return a promise may be async; the others must stay synchronous.
 */
export interface ModelHooks {
  /**
   * A Model sets no table: a hook may infer one from `className` (the name of the class just below the
   * declaration class) by setting `tableName`; the last hook to set it wins. Runs whenever the table is inferred,
   * before the Model's first use too (reading `tableName`), so it must not depend on anything but the name. Sync.
   */
  "model:tableName": (context: { readonly className: string; tableName: string | undefined }) => void;
  /** Once, at the Model's first use, after its declaration checks pass. Sync. */
  "model:finalize": (model: any) => void;
  /** A new record got its defaults at `build()`, before the caller's attributes are assigned. Sync. */
  "record:initialize": (context: { readonly record: any }) => void;
  /** A value was cast for assignment; a hook may replace `value`. Sync. */
  "attribute:assign": (context: { readonly record: any; readonly attribute: Attribute; value: unknown }) => void;
  /**
   * A value of a `where`-style condition object (`where`, `whereNot`, `findBy`, ...) is about to be cast: the value
   * itself, or each element of a list; never null or a comparison helper. A hook may replace `value`. Sync.
   */
  "attribute:condition": (context: { readonly model: ResolvedModel; readonly attribute: Attribute; value: unknown }) => void;
  /** A record was loaded from a row (column name to stored value), or reloaded. Sync. */
  "record:hydrate": (context: { readonly record: any; readonly row: Readonly<Record<string, unknown>> }) => void;
  /** Before save, before `record:validate`: may change the record, or `throw abort(reason)`. May be async. */
  "record:beforeValidate": (context: SaveContext) => void | Promise<void>;
  /** Before save: add to `record.errors` to refuse it. May be async. */
  "record:validate": (context: SaveContext) => void | Promise<void>;
  /**
   * After `record:validate`, whether or not it added errors (the save is refused after this hook when any were
   * added). May add errors, or `throw abort(reason)`. May be async.
   */
  "record:afterValidate": (context: SaveContext) => void | Promise<void>;
  /** After validation passed, before the write. `throw abort(reason)` stops the save. May be async. */
  "record:beforeSave": (context: SaveContext) => void | Promise<void>;
  /**
   * After every `record:beforeSave` hook, just before the INSERT or UPDATE is built: where other records join the
   * save's batch, so that those a callback built or assigned are written too. May abort, and may push writes to
   * `batch` and `batchBefore`. May be async.
   */
  "record:beforeWrite": (context: SaveContext) => void | Promise<void>;
  /** The INSERT or UPDATE is being built, after the before-save hooks; also for each row of a bulk insert. Sync. */
  "record:write": (context: WriteContext) => void;
  /** After the row is written and the record is clean. May be async. */
  "record:afterSave": (context: SaveContext) => void | Promise<void>;
  /** Before the DELETE. `throw abort(reason)` stops the destroy. May be async. */
  "record:beforeDestroy": (context: DestroyContext) => void | Promise<void>;
  /**
   * After every `record:beforeDestroy` hook, before `record:beforeDelete`: a hook pushes reads it needs for the
   * destroy (dependents, checks), each `{ statement, receive }`. The reads of every hook go in ONE batch (one round
   * trip), and each `receive(result)` runs before `record:beforeDelete`. Sync.
   */
  "record:planDestroy": (context: { readonly record: any; readonly reads: DestroyRead[] }) => void;
  /**
   * After every before-destroy hook, just before the DELETE: where dependents are handled, so that a callback's
   * abort always protects them. May abort, and may push writes to `batch`. May be async.
   */
  "record:beforeDelete": (context: DestroyContext) => void | Promise<void>;
  /** After the DELETE. May be async. */
  "record:afterDestroy": (context: DestroyContext) => void | Promise<void>;
  /** `toJSON()` built `json`; a hook may change it. Sync. */
  "record:serialize": (context: { readonly record: any; readonly json: Record<string, unknown> }) => void;
  /** A record is being printed; a hook may change the entries. Sync. */
  "record:inspect": (context: { readonly record: any; readonly entries: InspectEntry[] }) => void;
  /**
   * A Relation is about to load its records: a hook may add reads to the same D1 batch (`reads`), each selecting
   * by a subquery of `source`, and deletes from `pending` the `includes` paths it planned. Sync.
   */
  "relation:plan": (context: RelationPlanContext) => void;
  /**
   * Records of a Relation with `includes(...)` were loaded; a hook preloads the paths `relation:plan` left pending
   * that it knows, after the batch, and removes them from `pending`. Paths left pending are unknown. May be async.
   */
  "relation:preload": (context: { readonly relation: any; readonly records: readonly any[]; readonly pending: Set<string> }) => void | Promise<void>;
  /** A Relation's selected columns were compiled (`parts.columns`, `parts.distinct`). Sync. */
  "relation:select": (context: RelationCompileContext) => void;
  /** Its conditions were compiled (`parts.where`, joined with AND; bind values with `parts.params`). Sync. */
  "relation:where": (context: RelationCompileContext) => void;
  /** Its ordering was compiled (`parts.order`). Sync. */
  "relation:order": (context: RelationCompileContext) => void;
  /** Its paging was set (`parts.limit`, `parts.offset`). Sync. */
  "relation:paging": (context: RelationCompileContext) => void;
}

/**
 * Context of the relation compilation hooks: the Relation's description, the SQL parts built so far, and the
 * Model they are compiled for (a hook registered on a base class serves many Models: it finds columns here).
 */
export interface RelationCompileContext {
  /** The Relation's description. */
  readonly data: RelationData;
  /** The SQL built so far; hooks change it. */
  readonly parts: SelectParts;
  /** The Model compiled for: its `name`, `quotedTable`, and attributes with their columns (`byName`). */
  readonly model: ResolvedModel;
  /** What the SELECT is for: a load, a reload, a count, an existence check, a preload, ... (see `QueryPurpose`). */
  readonly purpose: QueryPurpose;
}

/** Name of a Model hook point. */
export type ModelHookName = keyof ModelHooks;

/**
 * Named hook points: a cheap check for an empty point, synchronous calls that let a hook's error propagate (a
 * synchronous caller would lose a rejected promise), and async calls that await only the hooks that return a
 * promise, each needless await being a turn of the event loop on every save.
 */
export class HookPoints<Hooks extends Record<string, any>> extends HookRegistry<Hooks> {
  /** Calls the hooks of a point in order, awaiting those that return a promise; synchronous when none does. */
  callHook<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): Promise<void> | void {
    return callFrom(this._hooks[name] ?? [], 0, args);
  }

  /** Whether any hook is registered under `name`; lets hot paths skip empty hook points. */
  has(name: keyof Hooks & string): boolean {
    return (this._hooks[name]?.length ?? 0) > 0;
  }

  /** The functions registered under `name`, in call order: lets a plugin tell its own hooks from others'. */
  functionsOf(name: keyof Hooks & string): ReadonlyArray<(...args: any[]) => unknown> {
    return this._hooks[name] ?? [];
  }

  /** Calls the hooks of a synchronous point in order; an error thrown by one propagates to the caller. */
  callSync<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): void {
    for (const fn of this._hooks[name] ?? []) fn(...args);
  }
}

function callFrom(hooks: ReadonlyArray<(...args: any[]) => unknown>, start: number, args: unknown[]): Promise<void> | void {
  for (let index = start; index < hooks.length; index++) {
    const result = hooks[index]!(...args);
    if (result instanceof Promise) return result.then(() => callFrom(hooks, index + 1, args));
  }
}

/** The hook lists of one Model, resolved once at its first use. */
export class ResolvedHooks extends HookPoints<ModelHooks> {
  constructor(registrations: ReadonlyArray<HookRegistration>) {
    super();
    for (const [name, fn] of registrations) this.hook(name, fn as never);
  }
}

/**
 * The registrations that run for a Model once it is finalized: a plugin whose `appliesTo` says no for the Model
 * drops out, and `model:finalize` has run its course.
 */
export function applyingRegistrations(model: Function, registrations: ReadonlyArray<HookRegistration>): HookRegistration[] {
  const answers = new Map<Plugin, boolean>();
  const applies = (plugin: Plugin | undefined): boolean => {
    if (!plugin?.appliesTo) return true;
    if (!answers.has(plugin)) answers.set(plugin, plugin.appliesTo(model));
    return answers.get(plugin)!;
  };
  return registrations.filter(([name, , plugin]) => name !== "model:finalize" && applies(plugin));
}

/** A hook function registered under a hook name, with the plugin that brought it (none for `Model.hook`). */
export type HookRegistration = readonly [ModelHookName, (...args: any[]) => unknown, Plugin?];
