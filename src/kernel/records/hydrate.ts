import type { Database } from "../database/database.js";
import { runLoadStage } from "./load-stage.js";
import type { ResolvedModel } from "./resolve.js";
import type { StatementDatabase } from "../sql/statement.js";
import { type RecordState, STATE } from "./record-state.js";

type Constructor = new () => { [STATE]: RecordState };

/** Loads a row into a record's state; the row is what change tracking compares with. */
export function loadRow(state: RecordState, row: Record<string, unknown>, loaded: ReadonlySet<string> | undefined): void {
  // Values are converted from the row on first read (see `currentValue`).
  state.values = {};
  state.row = row;
  state.loaded = loaded;
  state.isNew = false;
  state.assigned.clear();
}

/** Makes a persisted record of the Model from a row that D1 returned. */
export function instantiate(
  modelClass: Function,
  model: ResolvedModel,
  row: Record<string, unknown>,
  database: StatementDatabase | undefined,
  loaded?: ReadonlySet<string>,
): any {
  const Class = classOfRow(modelClass, model, row);
  const record = new (Class as Constructor)();
  const state = record[STATE];
  // The kernel's Database is the one kind of StatementDatabase: a Statement names it so only to import nothing above.
  state.database = database as Database | undefined;
  loadRow(state, row, loaded);
  const { hooks } = Class === modelClass ? model : state.model;
  if (hooks.has("record:hydrate")) hooks.callSync("record:hydrate", { record, row });
  return record;
}

/** The class whose record a row becomes: the Model queried, unless a `record:class` hook picks a subclass. */
function classOfRow(modelClass: Function, model: ResolvedModel, row: Record<string, unknown>): Function {
  if (!model.hooks.has("record:class")) return modelClass;
  const context = { row, modelClass };
  model.hooks.callSync("record:class", context);
  return context.modelClass;
}

/**
 * Makes a persisted record of the Model from one row, through the load stage (`records:load`, for a `load`): the
 * hottest path there is (`find(id)`), which builds no list unless a load hook is registered.
 */
export function loadOne(modelClass: Function, model: ResolvedModel, row: Record<string, unknown>, database: StatementDatabase | undefined): any {
  const record = instantiate(modelClass, model, row, database);
  // The record's own Model: a record:class hook may have made it a subclass's, whose hooks it then passes.
  const own: ResolvedModel = record[STATE].model;
  // Checked here, not left to runLoadStage: find(id) builds no list for a Model without a load hook.
  return own.hooks.has("records:load") ? runLoadStage(own, record, [record], [row], "load") : record;
}
