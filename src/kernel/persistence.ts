import { Abort } from "./abort.js";
import type { Batchable } from "./batchable.js";
import { databaseFor } from "./context.js";
import type { Database } from "./database.js";
import { RecordDestroyed, RecordInvalid, RecordNotDestroyed, RecordNotFound, RecordNotSaved } from "./errors.js";
import type { SaveContext, SaveOperation } from "./hooks.js";
import { loadRow } from "./hydrate.js";
import { type RecordState, STATE, changedAttributes, originalValue } from "./record-state.js";
import { findByKeyStatement } from "./key-lookup.js";
import type { Statement } from "./statement.js";
import { deleteStatement, insertStatement, updateStatement } from "./write-statements.js";

type Persistable = { [STATE]: RecordState; constructor: Function };

function assertNotDestroyed(state: RecordState, action: string): void {
  if (state.destroyed) throw new RecordDestroyed(`${state.model.name} is destroyed and cannot be ${action}`);
}

/** The database a record writes through: the one it was built or loaded with, else the current one. */
export function recordDatabase(record: Persistable): Database | Promise<Database> {
  const state = record[STATE];
  return state.database ?? databaseFor(record.constructor as unknown as { name: string; binding?: string });
}

/** Runs hooks that may abort; an abort sets `abortReason` and returns false. */
async function runAbortable(state: RecordState, run: () => unknown): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (!(error instanceof Abort)) throw error;
    state.abortReason = error.reason;
    return false;
  }
}

/** A save in two halves, so that a batch can run every record's first half before any write. */
interface PreparedSave {
  readonly context: SaveContext;
  readonly statement: Statement | undefined;
  readonly changes: Record<string, [unknown, unknown]>;
}

/** Validates, runs before-save hooks and builds the write; undefined when validation failed or a hook aborted. */
export async function prepareSave(record: Persistable): Promise<PreparedSave | undefined> {
  const state = record[STATE];
  assertNotDestroyed(state, "saved");
  const { hooks } = state.model;
  const operation: SaveOperation = state.isNew ? "create" : "update";
  const context: SaveContext = { record, operation };
  state.errors.clear();
  state.abortReason = undefined;
  const passed = await runAbortable(state, async () => {
    if (hooks.has("record:validate")) await hooks.callHook("record:validate", context);
    if (!state.errors.isEmpty()) throw new Abort("validation failed");
    if (hooks.has("record:beforeSave")) await hooks.callHook("record:beforeSave", context);
  });
  if (!passed) {
    if (!state.errors.isEmpty()) state.abortReason = undefined;
    return undefined;
  }
  return { context, ...buildWrite(record, state, operation) };
}

function pendingValues(state: RecordState, operation: SaveOperation): Map<string, unknown> {
  const model = state.model;
  const changed = operation === "create" ? model.attributes.filter((a) => state.assigned.has(a.name)) : changedAttributes(state);
  return new Map(changed.map((attribute) => [attribute.name, state.values[attribute.name]]));
}

/**
 * The attribute values a save of the record would write (assigned ones on create, changed ones on update),
 * after the `record:write` hooks, which may assign more (timestamps do).
 */
export function valuesToWrite(record: object, operation: SaveOperation): Map<string, unknown> {
  const state = (record as Persistable)[STATE];
  const { hooks } = state.model;
  if (hooks.has("record:write")) hooks.callHook("record:write", { record, operation, values: pendingValues(state, operation) });
  return pendingValues(state, operation);
}

function buildWrite(record: Persistable, state: RecordState, operation: SaveOperation) {
  const model = state.model;
  const values = valuesToWrite(record, operation);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const name of values.keys()) changes[name] = [originalValue(state, model.byName.get(name)!), state.values[name]];
  if (operation === "update" && values.size === 0) return { statement: undefined, changes };
  const statement = operation === "create" ? insertStatement(model, values) : updateStatement(model, state, values);
  return { statement, changes };
}

/** Applies a written save to the record and runs the after-save hooks. */
export async function finishSave(record: Persistable, prepared: PreparedSave, result: unknown, database: Database): Promise<void> {
  const state = record[STATE];
  if (prepared.context.operation === "create") {
    loadRow(state, result as Record<string, unknown>, undefined);
  } else if (prepared.statement) {
    const row = { ...state.row };
    for (const name of Object.keys(prepared.changes)) {
      const attribute = state.model.byName.get(name)!;
      const value = state.values[name];
      row[attribute.column] = value === null ? null : attribute.type.toDatabase(value);
    }
    state.row = row;
  }
  state.database ??= database;
  state.savedChanges = prepared.changes;
  const { hooks } = state.model;
  if (hooks.has("record:afterSave")) await hooks.callHook("record:afterSave", prepared.context);
}

/** Saves a record: validation, before-save hooks, the write, after-save hooks. False if refused. */
export async function save(record: Persistable): Promise<boolean> {
  const prepared = await prepareSave(record);
  if (!prepared) return false;
  const database = await recordDatabase(record);
  const result = prepared.statement ? await database.run(prepared.statement) : undefined;
  await finishSave(record, prepared, result, database);
  return true;
}

/** Runs the before-destroy hooks; false if one aborted. */
export async function prepareDestroy(record: Persistable): Promise<boolean> {
  const state = record[STATE];
  assertNotDestroyed(state, "destroyed again");
  const { hooks } = state.model;
  state.errors.clear();
  state.abortReason = undefined;
  return runAbortable(state, () => hooks.has("record:beforeDestroy") && hooks.callHook("record:beforeDestroy", { record }));
}

/** Marks a record destroyed and runs the after-destroy hooks. */
export async function finishDestroy(record: Persistable): Promise<void> {
  const state = record[STATE];
  state.destroyed = true;
  const { hooks } = state.model;
  if (hooks.has("record:afterDestroy")) await hooks.callHook("record:afterDestroy", { record });
}

/**
 * Destroys a record: before-destroy hooks, the DELETE, after-destroy hooks. A record never saved sends no
 * DELETE but is still marked destroyed, as in Rails. Succeeds when the row is already gone.
 */
export async function destroy(record: Persistable): Promise<boolean> {
  if (!(await prepareDestroy(record))) return false;
  const state = record[STATE];
  if (!state.isNew) await (await recordDatabase(record)).run(deleteStatement(state.model, state));
  await finishDestroy(record);
  return true;
}

/** Reloads a persisted record's row, discarding unsaved changes. */
export async function reload(record: Persistable): Promise<void> {
  const state = record[STATE];
  assertNotDestroyed(state, "reloaded");
  const model = state.model;
  if (state.isNew) throw new RecordNotFound(`${model.name} was never saved, so it cannot be reloaded`);
  const database = await recordDatabase(record);
  const key = state.row[model.primaryKey.column];
  const row = await database.run(findByKeyStatement(model, key));
  if (!row) throw new RecordNotFound(`${model.name} with ${model.primaryKey.name} ${model.primaryKey.filtered ? "[FILTERED]" : String(key)} no longer exists`);
  loadRow(state, row, undefined);
}

/** The batchable save of a record, for `db.batch([...])`. */
export function toSave(record: Persistable): Batchable {
  let prepared: PreparedSave | undefined;
  return {
    async prepare() {
      prepared = await prepareSave(record);
      if (!prepared) throw saveRefusal(record);
      return prepared.statement ? [prepared.statement] : [];
    },
    async finish(results) {
      await finishSave(record, prepared!, results[0], await recordDatabase(record));
    },
    database: () => recordDatabase(record),
  };
}

/** The batchable destroy of a record, for `db.batch([...])`. */
export function toDestroy(record: Persistable): Batchable {
  return {
    async prepare() {
      if (!(await prepareDestroy(record))) throw destroyRefusal(record);
      const state = record[STATE];
      return state.isNew ? [] : [deleteStatement(state.model, state)];
    },
    async finish() {
      await finishDestroy(record);
    },
    database: () => recordDatabase(record),
  };
}

/** The error an `OrThrow` save throws for a refused record: `RecordInvalid` or `RecordNotSaved`. */
export function saveRefusal(record: Persistable): Error {
  const state = record[STATE];
  if (!state.errors.isEmpty()) {
    return new RecordInvalid(`${state.model.name} is invalid: ${state.errors.fullMessages().join(", ")}`, record);
  }
  return new RecordNotSaved(state.abortReason ?? `${state.model.name} was not saved`);
}

/** The error `destroyOrThrow` throws for a refused destroy. */
export function destroyRefusal(record: Persistable): Error {
  const state = record[STATE];
  const reasons = state.errors.isEmpty() ? state.abortReason : state.errors.fullMessages().join(", ");
  return new RecordNotDestroyed(reasons ?? `${state.model.name} was not destroyed`);
}
