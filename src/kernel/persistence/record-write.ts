import type { Attribute } from "../records/attributes.js";
import type { SaveOperation } from "../plugin-api/hooks.js";
import { changedAttributes, currentValue, type RecordState, STATE, storedValue } from "../records/record-state.js";
import type { Statement } from "../sql/statement.js";
import { compileSave, deleteStatement } from "./write-compiler.js";
import type { OutcomeReport } from "./write-outcome.js";

/** How a record's own write reports its outcome: from the result of its statement (a row, or D1's `meta`). */
export interface RecordOutcomeReport extends Pick<OutcomeReport, "failed"> {
  succeeded(result: unknown): void;
}

/**
 * A record's own write: its statements (the write, and those hooks added before and after it), where the write is
 * among them, and, when a hook awaits it, how its outcome is reported.
 */
export interface OwnWrite {
  readonly statements: Statement[];
  readonly at: number;
  readonly report: RecordOutcomeReport | undefined;
}

/** How records' writes are planned, once `installWritePlans` (plugin API) installed it. */
export interface RecordWritePlans {
  save(record: object, state: RecordState, operation: SaveOperation, attributes: readonly Attribute[]): OwnWrite | Promise<OwnWrite>;
  destroy(record: object, state: RecordState): OwnWrite | Promise<OwnWrite>;
  /** Reports `error` to the `write:outcome` hooks of a record's write that never became a statement (see `unplannedFailure`). */
  unplanned(record: object, state: RecordState, operation: SaveOperation | "destroy", error: unknown): unknown;
}

/** @internal The installed planning of records' writes, if any. */
export const recordWritePlansSlot: { plans?: RecordWritePlans } = {};

/** Whether a hook prepares, plans or awaits the outcome of the Model's writes: a record's write makes a plan only then. */
function isPlanned(state: RecordState): boolean {
  const { hooks } = state.model;
  return hooks.has("write:prepare") || hooks.has("write:plan") || hooks.has("write:outcome");
}

/** The installed planning of records' writes; `TypeError` naming the Model when a hook needs it and none is. */
function installedPlans(state: RecordState): RecordWritePlans {
  const { plans } = recordWritePlansSlot;
  if (plans === undefined) {
    throw new TypeError(`${state.model.name}: a write:prepare, write:plan or write:outcome hook needs installWritePlans() (plugin API), called in its plugin's setup`);
  }
  return plans;
}

/** The attributes a save writes, in declaration order: the assigned ones on create, the changed ones on update. */
export function pendingAttributes(state: RecordState, operation: SaveOperation): Attribute[] {
  if (operation === "update") return changedAttributes(state);
  const assigned: Attribute[] = [];
  for (const attribute of state.model.attributes) if (state.assigned.has(attribute.name)) assigned.push(attribute);
  return assigned;
}

/** The current values of `attributes`, by name. */
export function currentValues(state: RecordState, attributes: readonly Attribute[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const attribute of attributes) values.set(attribute.name, currentValue(state, attribute));
  return values;
}

/**
 * The attributes a save writes, in declaration order, after the `record:write` hooks, which may assign more
 * (timestamps do). Their values are the record's: a hook writes more by assigning attributes.
 */
export function attributesToWrite(record: object, operation: SaveOperation): Attribute[] {
  const state = (record as { [STATE]: RecordState })[STATE];
  const { hooks } = state.model;
  const attributes = pendingAttributes(state, operation);
  if (!hooks.has("record:write")) return attributes;
  const assignments = state.assignments;
  state.buildingWrite = true;
  try {
    hooks.callSync("record:write", { record, operation, values: currentValues(state, attributes) });
  } finally {
    state.buildingWrite = false;
  }
  // Worked out again only when a hook assigned something (timestamps do on create and on real updates).
  return state.assignments === assignments ? attributes : pendingAttributes(state, operation);
}

/**
 * The attribute values a save of the record would write (assigned ones on create, changed ones on update),
 * after the `record:write` hooks, which may assign more (timestamps do).
 */
export function valuesToWrite(record: object, operation: SaveOperation): Map<string, unknown> {
  return currentValues((record as { [STATE]: RecordState })[STATE], attributesToWrite(record, operation));
}

/**
 * The changes a save of `attributes` makes, in stored form: each from its value as last saved to the one written.
 * Stored forms are copies, where a value may be an object the record still holds (see `RecordState.savedChanges`).
 */
export function changesOf(state: RecordState, attributes: readonly Attribute[]): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const attribute of attributes) {
    changes[attribute.name] = [state.isNew ? null : state.row[attribute.column], storedValue(attribute, currentValue(state, attribute))];
  }
  return changes;
}

/**
 * A save's own write of `attributes`, compiled (none for an update with nothing to write); sync unless a
 * `write:prepare` hook must be awaited. A plan, with its map of values, is made only when a hook prepares, plans
 * or awaits the outcome of the Model's writes.
 */
export function saveWrite(record: object, state: RecordState, operation: SaveOperation, attributes: readonly Attribute[]): OwnWrite | Promise<OwnWrite> | undefined {
  if (operation === "update" && attributes.length === 0) return undefined;
  if (!isPlanned(state)) return { statements: [compileSave(state, operation, attributes)], at: 0, report: undefined };
  return installedPlans(state).save(record, state, operation, attributes);
}

/** The DELETE of a persisted record's row, as the `write:plan` hooks plan it (a soft delete's UPDATE). */
export function ownDelete(record: object, state: RecordState): OwnWrite | Promise<OwnWrite> {
  if (!isPlanned(state)) return { statements: [deleteStatement(state.model, state)], at: 0, report: undefined };
  return installedPlans(state).destroy(record, state);
}

/**
 * Reports `error` to the `write:outcome` hooks of a record's save or destroy that failed before its own write became
 * a statement (a hook of it, or of another write of its operation, threw first): the write did not happen, and the
 * hooks see the plan the kernel would have started from, with no statement. Returns the error to throw (a hook's
 * own, when one threw). An update with nothing to write would have written nothing, and reports nothing.
 */
export function unplannedFailure(record: object, state: RecordState, operation: SaveOperation | "destroy", error: unknown): unknown {
  const { plans } = recordWritePlansSlot;
  return plans && state.model.hooks.has("write:outcome") ? plans.unplanned(record, state, operation, error) : error;
}

/**
 * Reports `error` to a record's own write in a failed save or destroy: through its report once it was `built` (none
 * when nothing awaits it, or there was nothing to write), else as a write that never became a statement.
 */
export function failedOwnWrite(record: object, state: RecordState, operation: SaveOperation | "destroy", built: boolean, own: OwnWrite | undefined, error: unknown): unknown {
  if (!built) return unplannedFailure(record, state, operation, error);
  return own?.report ? own.report.failed(error) : error;
}
