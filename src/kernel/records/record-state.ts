import type { Attribute } from "./attributes.js";
import { sameStored } from "../sql/blob-values.js";
import type { Database } from "../database/database.js";
import { type ErrorEntry, Errors } from "./errors-collection.js";
import { type ResolvedModel, resolveModel } from "./resolve.js";

/** Key of a record's kernel state; not exported from the package. */
export const STATE = Symbol("recordflare.state");

// Shared by every record until it has its own: a load makes no objects it would throw away.
const NOTHING: Readonly<Record<string, never>> = Object.freeze({});

/** What the kernel keeps for each record. */
export class RecordState {
  /** Attribute name to JavaScript value. */
  values: Record<string, unknown> = {};
  /** The row as last loaded or saved, by column: what change tracking compares with. */
  row: Readonly<Record<string, unknown>> = NOTHING;
  /** The attributes a partial `select` loaded; undefined when all were. */
  loaded: ReadonlySet<string> | undefined;
  /** A new record's values once `build()` applied defaults and generated ids: what restoring goes back to. */
  builtValues: Readonly<Record<string, unknown>> = NOTHING;
  /** The stored primary key made for this record alone at `build()` (see `markGeneratedKey`), if one was. */
  generatedKey: unknown;
  /** Attributes given a value since `build()`; only these are written on insert. */
  assigned = new Set<string>();
  /** Counts assignments, so that code can tell whether a hook assigned anything. */
  assignments = 0;
  /** While the `record:write` hooks run: they may set what a partial select left out, as timestamps set `updatedAt`. */
  buildingWrite = false;
  isNew = true;
  destroyed = false;
  database: Database | undefined;
  /**
   * What the last save wrote, `[old, new]` by attribute name, in stored form: read as fresh values on each ask, so that
   * a value edited in place since (a json object, a Date) leaves them as they were saved.
   */
  savedChanges: Readonly<Record<string, [unknown, unknown]>> = NOTHING;
  abortReason: string | undefined;
  /** The save or destroy in progress, from its checks until the record learnt its outcome: another is refused meanwhile. */
  writer: object | undefined;
  /** Whether a save's write is being sent: what is written is fixed, and an assignment is no part of it. */
  sending = false;
  /** The attributes assigned while a save's write is sent: they stay changes to save after it, whatever its outcome. */
  assignedInFlight: Set<string> | undefined;
  #errors: Errors | undefined;
  #model: ResolvedModel | undefined;

  constructor(private readonly modelClass: Function) {}

  /** The record's errors, made on first need: most loaded records never have any. */
  get errors(): Errors {
    return (this.#errors ??= new Errors());
  }

  /** Whether the last save or destroy left reasons in `errors`. */
  hasErrors(): boolean {
    return this.#errors !== undefined && !this.#errors.isEmpty();
  }

  /** Forgets the reasons of the last refused save or destroy. */
  clearRefusal(): void {
    this.#errors?.clear();
    this.abortReason = undefined;
  }

  /** The record's Model, resolved on first need (a probe instance is made while resolving). */
  get model(): ResolvedModel {
    return (this.#model ??= resolveModel(this.modelClass));
  }
}

/**
 * A copy of everything a save or destroy may change on a record (values, assignments, stored row, state, errors):
 * a save or destroy that throws leaves the record as it was before the call, whatever its callbacks, its hooks
 * (timestamps) or its batch had set. Taken on every save: it copies only what is mutated in place.
 */
export class RecordSnapshot {
  readonly #state: RecordState;
  readonly #values: Record<string, unknown>;
  readonly #assigned: ReadonlySet<string>;
  readonly #errors: ErrorEntry[] | undefined;
  readonly #row: RecordState["row"];
  readonly #loaded: RecordState["loaded"];
  readonly #isNew: boolean;
  readonly #destroyed: boolean;
  readonly #database: RecordState["database"];
  readonly #savedChanges: RecordState["savedChanges"];
  readonly #abortReason: RecordState["abortReason"];

  constructor(state: RecordState) {
    this.#state = state;
    this.#values = { ...state.values };
    this.#assigned = new Set(state.assigned);
    this.#errors = state.hasErrors() ? state.errors.toArray() : undefined;
    this.#row = state.row;
    this.#loaded = state.loaded;
    this.#isNew = state.isNew;
    this.#destroyed = state.destroyed;
    this.#database = state.database;
    this.#savedChanges = state.savedChanges;
    this.#abortReason = state.abortReason;
  }

  /** Puts the record back as it was when the snapshot was taken, but for the attributes assigned while it was sent. */
  restore(): void {
    const state = this.#state;
    const { values, assignedInFlight } = state;
    state.clearRefusal();
    for (const { attribute, type, message } of this.#errors ?? []) state.errors.add(attribute, type, message);
    state.row = this.#row;
    state.loaded = this.#loaded;
    state.isNew = this.#isNew;
    state.destroyed = this.#destroyed;
    state.database = this.#database;
    state.savedChanges = this.#savedChanges;
    state.abortReason = this.#abortReason;
    state.values = { ...this.#values };
    state.assigned = new Set(this.#assigned);
    keepAssignedInFlight(state, values, assignedInFlight);
  }
}

/**
 * Puts back into the record's `values` the attributes assigned while its save's write was sent (`assignedInFlight`),
 * as they were in `values` before the record learnt the outcome: they were not written, and stay changes to save.
 */
export function keepAssignedInFlight(state: RecordState, values: Record<string, unknown>, assignedInFlight: ReadonlySet<string> | undefined): void {
  state.sending = false;
  state.assignedInFlight = undefined;
  for (const name of assignedInFlight ?? []) {
    state.values[name] = values[name];
    if (state.isNew) state.assigned.add(name);
  }
}

/**
 * An attribute's current value. A loaded record converts stored values on first read (dates and JSON cost
 * most of a load), so its `values` fill in lazily from `row`.
 */
export function currentValue(state: RecordState, attribute: Attribute): unknown {
  const value = state.values[attribute.name];
  if (value !== undefined || state.isNew) return value ?? null;
  const loaded = readStored(attribute, state.row[attribute.column]);
  state.values[attribute.name] = loaded;
  return loaded;
}

/** The stored form of an attribute's current value, for comparing. */
export function storedValue(attribute: Attribute, value: unknown): unknown {
  return value === null || value === undefined ? null : attribute.type.toDatabase(value);
}

/** The stored form of the attribute as last loaded or saved (null for a new record). */
function originalStoredValue(state: RecordState, attribute: Attribute): unknown {
  if (state.isNew) return null;
  const raw = state.row[attribute.column];
  return raw === null || raw === undefined ? null : attribute.type.canonical(raw);
}

/** A value as D1 stores it (or as a save writes it), read as a fresh JavaScript value; null for NULL. */
export function readStored(attribute: Attribute, stored: unknown): unknown {
  return stored === null || stored === undefined ? null : attribute.type.fromDatabase(stored);
}

/** The attribute's value as last loaded or saved, as a fresh JavaScript value. */
export function originalValue(state: RecordState, attribute: Attribute): unknown {
  return state.isNew ? null : readStored(attribute, state.row[attribute.column]);
}

/** Whether an attribute differs from what was last loaded or saved. */
export function isChanged(state: RecordState, attribute: Attribute): boolean {
  if (state.isNew && !state.assigned.has(attribute.name)) return false;
  // Never read nor assigned since loading (nor, if a partial select left it out, set while building a write).
  if (!state.isNew && state.values[attribute.name] === undefined) return false;
  return !sameStored(storedValue(attribute, currentValue(state, attribute)), originalStoredValue(state, attribute));
}

/** The changed attributes, in declaration order. */
export function changedAttributes(state: RecordState): Attribute[] {
  return state.model.attributes.filter((attribute) => isChanged(state, attribute));
}
