import type { Attribute } from "../records/attributes.js";
import type { SaveOperation } from "../plugin-api/hooks.js";
import { changedAttributes, currentValue, originalValue, type RecordState, STATE } from "../records/record-state.js";
import type { Statement } from "../sql/statement.js";
import { placeExtras } from "./write-batch.js";
import { compileSave, compileWrite, recordKeys } from "./write-compiler.js";
import { type OutcomeReport, outcomeReport } from "./write-outcome.js";
import { PlannedWrite, planWrite, prepareAndPlan } from "./write-plan.js";

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

/**
 * Plans a record's own write (the `write:prepare` and `write:plan` hooks may change it) and compiles it, with the
 * statements the hooks added. `attributes` are those of the plan's values; they are worked out again only when a
 * hook may have changed them.
 */
function plannedWrite(state: RecordState, write: PlannedWrite, attributes: readonly Attribute[]): OwnWrite | Promise<OwnWrite> {
  const { hooks } = state.model;
  if (hooks.has("write:prepare")) {
    // A write:prepare hook with nothing to await returns nothing: the plan is then ready at once.
    const prepared = prepareAndPlan(write);
    return prepared instanceof Promise ? prepared.then(() => compileOwn(state, write, undefined)) : compileOwn(state, write, undefined);
  }
  const planned = hooks.has("write:plan");
  if (planned) planWrite(write);
  return compileOwn(state, write, planned ? undefined : attributes);
}

/** Whether a hook prepares, plans or awaits the outcome of the Model's writes: a record's write makes a plan only then. */
function isPlanned(state: RecordState): boolean {
  const { hooks } = state.model;
  return hooks.has("write:prepare") || hooks.has("write:plan") || hooks.has("write:outcome");
}

/** Compiles a planned record write with the statements its hooks added; `attributes` when no hook may have changed them. */
function compileOwn(state: RecordState, write: PlannedWrite, attributes: readonly Attribute[] | undefined): OwnWrite {
  const statement = compileWrite(write, state, attributes);
  const report = recordOutcomeReport(write, statement);
  if (write.befores === undefined && write.afters === undefined) return { statements: [statement], at: 0, report };
  const { statements } = placeExtras(write, [statement], () => ({ keys: () => recordKeys(write, state), keysBefore: false }));
  return { statements, at: statements.indexOf(statement), report };
}

/**
 * A record's own write reports its result: an INSERT the row it returned (one row changed), an UPDATE or DELETE
 * D1's `meta`.
 */
function recordOutcomeReport(plan: PlannedWrite, statement: Statement): RecordOutcomeReport | undefined {
  const report = outcomeReport(plan, statement);
  if (!report) return undefined;
  return {
    succeeded(result) {
      if (plan.kind === "insert") report.succeeded(1, [result as Record<string, unknown>]);
      else report.succeeded(Number((result as Record<string, unknown>)["changes"] ?? 0), []);
    },
    failed: report.failed,
  };
}

/** The attributes a save writes, in declaration order: the assigned ones on create, the changed ones on update. */
function pendingAttributes(state: RecordState, operation: SaveOperation): Attribute[] {
  if (operation === "update") return changedAttributes(state);
  const assigned: Attribute[] = [];
  for (const attribute of state.model.attributes) if (state.assigned.has(attribute.name)) assigned.push(attribute);
  return assigned;
}

function currentValues(state: RecordState, attributes: readonly Attribute[]): Map<string, unknown> {
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

/** The changes a save of `attributes` makes: each from its value as last saved to the one written. */
export function changesOf(state: RecordState, attributes: readonly Attribute[]): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const attribute of attributes) changes[attribute.name] = [originalValue(state, attribute), currentValue(state, attribute)];
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
  const write = new PlannedWrite(state.model, operation, operation === "create" ? "insert" : "update", record, currentValues(state, attributes));
  return plannedWrite(state, write, attributes);
}

/** The DELETE of a persisted record's row, as the `write:plan` hooks plan it (a soft delete's UPDATE). */
export function ownDelete(record: object, state: RecordState): OwnWrite | Promise<OwnWrite> {
  return plannedWrite(state, new PlannedWrite(state.model, "destroy", "delete", record), []);
}
