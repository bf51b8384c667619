import { Abort } from "./abort.js";
import { InvalidModel } from "../errors.js";
import { finishEach } from "../database/batchable.js";
import type { Database } from "../database/database.js";
import type { SaveContext, SaveOperation } from "../plugin-api/hooks.js";
import { loadRow } from "../records/hydrate.js";
import { runLoadStage } from "../records/load-stage.js";
import { keepAssignedInFlight, type RecordState, STATE } from "../records/record-state.js";

/**
 * Runs hooks that may abort; an abort sets `abortReason` and answers false. After-hooks run this way too: an abort
 * there cannot undo the write, but it skips the later hooks and makes the save or destroy answer false. Sync when
 * `run` is: each needless await is a turn of the event loop on every save.
 */
export function runAbortable(state: RecordState, run: () => Promise<void> | void): boolean | Promise<boolean> {
  let pending: Promise<void> | void;
  try {
    pending = run();
  } catch (error) {
    return aborted(state, error);
  }
  return pending ? pending.then(() => true, (error: unknown) => aborted(state, error)) : true;
}

/** Notes the reason of an abort and answers false; any other error propagates. */
function aborted(state: RecordState, error: unknown): false {
  if (!(error instanceof Abort)) throw error;
  state.abortReason = error.reason;
  return false;
}

/**
 * Applies a written save to the record and runs the after-save hooks. `context` is the save hooks' context, which
 * a save makes only when its Model has such hooks.
 */
export function finishSave(
  record: { [STATE]: RecordState },
  operation: SaveOperation,
  context: SaveContext | undefined,
  changes: Record<string, [unknown, unknown]>,
  result: unknown,
  database: Database,
): Promise<void> | void {
  const state = record[STATE];
  const create = operation === "create";
  const { values, assignedInFlight } = state;
  if (create) {
    loadRow(state, result as Record<string, unknown>, undefined);
    refuseKeylessRow(state);
  } else if (result !== undefined) {
    const row = { ...state.row };
    // The values written, not those assigned since: those stay changes.
    for (const [name, [, stored]] of Object.entries(changes)) row[state.model.byName.get(name)!.column] = stored;
    state.row = row;
    // What the write set is known now, even where a partial select had not loaded it.
    if (state.loaded) state.loaded = new Set([...state.loaded, ...Object.keys(changes)]);
  }
  keepAssignedInFlight(state, values, assignedInFlight);
  state.database ??= database;
  state.savedChanges = changes;
  // Its outcome is the record's now: an after-save hook may save it again.
  state.writer = undefined;
  if (!create || !state.model.hooks.has("records:load")) return afterSave(state, context);
  // The row the INSERT returned is loaded as any row is, before an after-save hook or the caller reads the record. It
  // is written: a load hook's error propagates once the after-save hooks have run, as an outcome hook's does.
  return finishEach([() => runLoadStage(state.model, 0, [record], [state.row], "write"), () => afterSave(state, context)], (part) => part());
}

/**
 * Throws when the database stored a new row without a key: SQLite numbers only a column declared exactly `INTEGER
 * PRIMARY KEY` (the row id), and stores NULL in any other nullable key left unassigned (`INT PRIMARY KEY`, `BIGINT`,
 * `TEXT` given null). No later save, reload or destroy could reach that row: each would match nothing, silently.
 */
function refuseKeylessRow(state: RecordState): void {
  const { name, primaryKey } = state.model;
  if (state.row[primaryKey.column] != null) return;
  throw new InvalidModel(`${name}.${primaryKey.name}: the new row was stored with a NULL key, which no write can reach; SQLite numbers only an INTEGER PRIMARY KEY`);
}

/** Runs the after-save hooks of a written save. */
function afterSave(state: RecordState, context: SaveContext | undefined): Promise<void> | void {
  const { hooks } = state.model;
  // A Model with after-save hooks gives every save a context.
  if (!hooks.has("record:afterSave")) return;
  const running = runAbortable(state, () => hooks.callHook("record:afterSave", context!));
  return running instanceof Promise ? running.then(() => {}) : undefined;
}
