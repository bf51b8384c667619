import { Abort } from "./abort.js";
import { assertLoaded } from "./assign.js";
import type { Attribute } from "./attributes.js";
import { type Batchable, finishEach, isBatchable, resultsPerItem } from "./batchable.js";
import { databaseFor } from "./context.js";
import { previewList, previewValue } from "./display.js";
import type { BatchItem, Database } from "./database.js";
import { RecordDestroyed, RecordInvalid, RecordNotDestroyed, RecordNotFound, RecordNotSaved } from "./errors.js";
import type { DestroyContext, SaveContext, SaveOperation } from "./hooks.js";
import { loadRow } from "./hydrate.js";
import { type JournalEntry, type RecordState, STATE, changedAttributes, currentValue, originalValue, undoJournal } from "./record-state.js";
import { findByKeyStatement } from "./key-lookup.js";
import type { Statement } from "./statement.js";
import type { AnyRecord } from "./types.js";
import { deleteStatement, insertStatement, updateStatement } from "./write-statements.js";

type Persistable = { [STATE]: RecordState; constructor: Function };

function assertNotDestroyed(state: RecordState, action: string): void {
  if (state.destroyed) throw new RecordDestroyed(`${state.model.name} is destroyed and cannot be ${action}`);
  // A persisted record is written by its key; one loaded without it (distinct select) cannot be.
  if (!state.isNew) assertLoaded(state, state.model.primaryKey);
}

/** The database a record writes through: the one it was built or loaded with, else the current one. */
export function recordDatabase(record: Persistable): Database | Promise<Database> {
  const state = record[STATE];
  return state.database ?? databaseFor(record.constructor as unknown as { name: string; binding?: string });
}

/**
 * Runs hooks that may abort; an abort sets `abortReason` and returns false. After-hooks run this way too: an abort
 * there cannot undo the write, but it skips the later hooks and makes the save or destroy answer false.
 */
async function runAbortable(state: RecordState, run: () => Promise<void> | void): Promise<boolean> {
  try {
    // Awaited only when a hook really was async: each needless await is a turn of the event loop.
    const pending = run();
    if (pending) await pending;
    return true;
  } catch (error) {
    if (!(error instanceof Abort)) throw error;
    state.abortReason = error.reason;
    return false;
  }
}

/** A write prepared in full (before-callbacks run, statements built) that a batch can run with others. */
interface PreparedWrite {
  readonly statements: Statement[];
  finish(results: unknown[], database: Database): Promise<void> | void;
  /** The write will not be made (refused elsewhere, or its batch failed): takes back what building it assigned. */
  abandon(): void;
}

/** One extra write prepared: a record's write with its before-callbacks run, or a Statement with nothing to finish. */
interface PreparedExtra {
  readonly statements: Statement[];
  finish(results: unknown[]): Promise<void> | void;
  abandon(): void;
}

/** Runs a record write's before-callbacks and builds its statements; a Statement is ready as it is. */
async function prepareExtra(item: BatchItem): Promise<PreparedExtra> {
  if (!isBatchable(item)) return { statements: [item], finish() {}, abandon() {} };
  return { statements: await item.prepare(), finish: (results) => item.finish(results), abandon: () => item.abandon() };
}

/** Prepares the extra writes hooks asked for, returning their statements and a way to finish them. */
async function prepareExtras(extras: readonly BatchItem[]): Promise<PreparedWrite> {
  const prepared: PreparedExtra[] = [];
  const abandon = () => {
    for (const extra of prepared) extra.abandon();
  };
  try {
    for (const extra of extras) prepared.push(await prepareExtra(extra));
  } catch (error) {
    abandon();
    throw error;
  }
  return {
    abandon,
    statements: prepared.flatMap((extra) => extra.statements),
    async finish(results) {
      const own = resultsPerItem(results, prepared.map(({ statements }) => statements));
      await finishEach(prepared, (extra, index) => extra.finish(own[index]!));
    },
  };
}

/**
 * Executes a prepared write: its statement alone when there is one, else its statements as one atomic batch. When
 * the database refuses it, takes back what preparing it assigned.
 */
async function executeOrAbandon(database: Database, prepared: PreparedWrite): Promise<unknown[]> {
  const { statements } = prepared;
  try {
    if (statements.length === 1) return [await database.run(statements[0]!)];
    return statements.length === 0 ? [] : await database.runAll(statements);
  } catch (error) {
    prepared.abandon();
    throw error;
  }
}

/**
 * Runs the validations, then (when they passed) the before-save hooks, then the before-write hooks; false when
 * any refused the save. Failed validations stop it with no `abortReason`, which is a callback's alone: their
 * reasons are in `errors`.
 */
async function validateAndCallBefore(state: RecordState, context: SaveContext): Promise<boolean> {
  const { hooks } = state.model;
  const call = (name: "record:validate" | "record:beforeSave" | "record:beforeWrite") => (hooks.has(name) ? hooks.callHook(name, context) : undefined);
  if (!(await runAbortable(state, () => call("record:validate"))) || state.hasErrors()) return false;
  return runAbortable(state, () => {
    const saving = call("record:beforeSave");
    return saving ? saving.then(() => call("record:beforeWrite")) : call("record:beforeWrite");
  });
}

/**
 * Prepares the writes hooks added to a save or destroy (children built through an association, a new parent,
 * dependents). One that is refused refuses the whole operation, so that `save()` or `destroy()` answers false as for
 * the record's own refusal: an invalid one's reasons go to the record's `errors`, an aborted one's to its
 * `abortReason`. Nothing has been written then.
 */
async function prepareExtrasOf(state: RecordState, batch: readonly BatchItem[]): Promise<PreparedWrite | undefined> {
  try {
    return await prepareExtras(batch);
  } catch (error) {
    if (error instanceof RecordInvalid) state.errors.add("base", "invalid", error.message);
    else if (error instanceof RecordNotSaved || error instanceof RecordNotDestroyed) state.abortReason = error.message;
    else throw error;
    return undefined;
  }
}

/** Validates, runs before-save hooks and builds the write; undefined when validation failed or a hook aborted. */
async function prepareSave(record: Persistable): Promise<PreparedWrite | undefined> {
  const state = record[STATE];
  assertNotDestroyed(state, "saved");
  const { hooks } = state.model;
  const operation: SaveOperation = state.isNew ? "create" : "update";
  const context: SaveContext = { record, operation, batch: [], batchBefore: [] };
  state.clearRefusal();
  const hasBefore = hooks.has("record:validate") || hooks.has("record:beforeSave") || hooks.has("record:beforeWrite");
  if (hasBefore && !(await validateAndCallBefore(state, context))) return undefined;
  const { statement, changes, journal } = buildWrite(record, state, operation);
  const own = statement ? [statement] : [];
  const finishOwn = (results: unknown[], database: Database) => finishSave(record, context, changes, statement ? results[0] : undefined, database);
  const abandonOwn = () => undoJournal(state, journal);
  if (context.batch.length === 0 && context.batchBefore.length === 0) return { statements: own, finish: finishOwn, abandon: abandonOwn };
  const before = await prepareExtrasOf(state, context.batchBefore);
  const after = before && (await prepareExtrasOf(state, context.batch));
  if (!before || !after) {
    before?.abandon();
    abandonOwn();
    return undefined;
  }
  return {
    statements: [...before.statements, ...own, ...after.statements],
    abandon() {
      after.abandon();
      abandonOwn();
      before.abandon();
    },
    async finish(results, database) {
      const ownAt = before.statements.length;
      const parts = [
        () => before.finish(results.slice(0, ownAt), database),
        () => finishOwn(results.slice(ownAt), database),
        () => after.finish(results.slice(ownAt + own.length), database),
      ];
      await finishEach(parts, (part) => part());
    },
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

interface PendingWrite {
  attributes: Attribute[];
  values: Map<string, unknown>;
  /** What the `record:write` hooks assigned, to take back if the write is not made. */
  journal: readonly JournalEntry[];
}

/** What a save writes, after the `record:write` hooks, which may assign more (timestamps do). */
function pendingWrite(record: object, operation: SaveOperation): PendingWrite {
  const state = (record as Persistable)[STATE];
  const { hooks } = state.model;
  const attributes = pendingAttributes(state, operation);
  const values = currentValues(state, attributes);
  if (!hooks.has("record:write")) return { attributes, values, journal: [] };
  const journal: JournalEntry[] = (state.journal = []);
  try {
    hooks.callSync("record:write", { record, operation, values });
  } finally {
    state.journal = undefined;
  }
  // Worked out again only when a hook assigned something (timestamps do on create and on real updates).
  if (journal.length === 0) return { attributes, values, journal };
  const written = pendingAttributes(state, operation);
  return { attributes: written, values: currentValues(state, written), journal };
}

/**
 * The attribute values a save of the record would write (assigned ones on create, changed ones on update),
 * after the `record:write` hooks, which may assign more (timestamps do).
 */
export function valuesToWrite(record: object, operation: SaveOperation): Map<string, unknown> {
  return pendingWrite(record, operation).values;
}

function buildWrite(record: Persistable, state: RecordState, operation: SaveOperation) {
  const model = state.model;
  const { attributes, values, journal } = pendingWrite(record, operation);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const attribute of attributes) changes[attribute.name] = [originalValue(state, attribute), values.get(attribute.name)];
  if (operation === "update" && attributes.length === 0) return { statement: undefined, changes, journal };
  const statement = operation === "create" ? insertStatement(model, attributes, values) : updateStatement(model, state, attributes, values);
  return { statement, changes, journal };
}

/** Applies a written save to the record and runs the after-save hooks. */
function finishSave(
  record: Persistable,
  context: SaveContext,
  changes: Record<string, [unknown, unknown]>,
  result: unknown,
  database: Database,
): Promise<void> | void {
  const state = record[STATE];
  if (context.operation === "create") {
    loadRow(state, result as Record<string, unknown>, undefined);
  } else if (result !== undefined) {
    const row = { ...state.row };
    for (const name of Object.keys(changes)) {
      const attribute = state.model.byName.get(name)!;
      const value = currentValue(state, attribute);
      row[attribute.column] = value === null || value === undefined ? null : attribute.type.toDatabase(value);
    }
    state.row = row;
    // What the write set is known now, even where a partial select had not loaded it.
    if (state.loaded) state.loaded = new Set([...state.loaded, ...Object.keys(changes)]);
  }
  state.database ??= database;
  state.savedChanges = changes;
  const { hooks } = state.model;
  if (hooks.has("record:afterSave")) return runAbortable(state, () => hooks.callHook("record:afterSave", context)).then(() => {});
}

/** Saves a record: validation, before-save hooks, the write (one batch with any extra writes), after-save hooks. */
export async function save(record: Persistable): Promise<boolean> {
  const prepared = await prepareSave(record);
  if (!prepared) return false;
  // Awaited only when the database must still be found: a record built or loaded through one keeps it.
  const known = recordDatabase(record);
  const database = known instanceof Promise ? await known : known;
  const finishing = prepared.finish(await executeOrAbandon(database, prepared), database);
  if (finishing) await finishing;
  return record[STATE].abortReason === undefined;
}

/** Runs the destroy hooks and builds the DELETE (after any dependents' writes); undefined when refused. */
async function prepareDestroy(record: Persistable): Promise<PreparedWrite | undefined> {
  const state = record[STATE];
  assertNotDestroyed(state, "destroyed again");
  const { hooks } = state.model;
  const context: DestroyContext = { record, batch: [] };
  state.clearRefusal();
  const passed = await runAbortable(state, async () => {
    if (hooks.has("record:beforeDestroy")) await hooks.callHook("record:beforeDestroy", context);
    if (hooks.has("record:beforeDelete")) await hooks.callHook("record:beforeDelete", context);
  });
  if (!passed) return undefined;
  const extras = await prepareExtrasOf(state, context.batch);
  if (!extras) return undefined;
  const own = state.isNew ? [] : [deleteStatement(state.model, state)];
  return {
    statements: [...extras.statements, ...own],
    abandon: extras.abandon,
    async finish(results, database) {
      const markDestroyed = async () => {
        state.destroyed = true;
        if (hooks.has("record:afterDestroy")) await runAbortable(state, () => hooks.callHook("record:afterDestroy", context));
      };
      await finishEach([() => extras.finish(results.slice(0, extras.statements.length), database), markDestroyed], (part) => part());
    },
  };
}

/**
 * Destroys a record: before-destroy hooks, dependents, the DELETE, after-destroy hooks. A record never saved
 * sends no DELETE but is still marked destroyed, as in Rails. Succeeds when the row is already gone.
 */
export async function destroy(record: Persistable): Promise<boolean> {
  const prepared = await prepareDestroy(record);
  if (!prepared) return false;
  const database = await recordDatabase(record);
  await prepared.finish(await executeOrAbandon(database, prepared), database);
  return record[STATE].abortReason === undefined;
}

/** Reloads a persisted record's row, discarding unsaved changes and, as in Rails, the saved ones. */
export async function reload(record: Persistable): Promise<void> {
  const state = record[STATE];
  assertNotDestroyed(state, "reloaded");
  const model = state.model;
  if (state.isNew) throw new RecordNotFound(`${model.name} was never saved, so it cannot be reloaded`);
  const database = await recordDatabase(record);
  const key = state.row[model.primaryKey.column];
  const row = await database.run(findByKeyStatement(model, key));
  if (!row) throw new RecordNotFound(`${model.name} with ${model.primaryKey.name} ${previewValue(model.primaryKey, key)} no longer exists`);
  loadRow(state, row, undefined);
  state.savedChanges = {};
  if (model.hooks.has("record:hydrate")) model.hooks.callSync("record:hydrate", { record, row });
}

function batchable(record: Persistable, prepare: () => Promise<PreparedWrite | undefined>, refusal: () => Error): Batchable {
  let prepared: PreparedWrite | undefined;
  return {
    async prepare() {
      prepared = await prepare();
      if (!prepared) throw refusal();
      return prepared.statements;
    },
    abandon() {
      prepared?.abandon();
      prepared = undefined;
    },
    async finish(results) {
      await prepared!.finish(results, await recordDatabase(record));
      // An after-callback aborted: the row is written, yet the batch reports the refusal as a save() would.
      if (record[STATE].abortReason !== undefined) throw refusal();
    },
    database: () => recordDatabase(record),
    record,
  };
}

/** The batchable save of a record, for `db.batch([...])`. */
export function toSave(record: Persistable): Batchable {
  return batchable(record, () => prepareSave(record), () => saveRefusal(record));
}

/** The batchable destroy of a record, for `db.batch([...])`. */
export function toDestroy(record: Persistable): Batchable {
  return batchable(record, () => prepareDestroy(record), () => destroyRefusal(record));
}

/**
 * The error an `OrThrow` save throws for a refused record: `RecordNotSaved` when a callback aborted (even one that
 * added to `errors` first, as in Rails), else `RecordInvalid`.
 */
export function saveRefusal(record: Persistable): Error {
  const state = record[STATE];
  if (state.abortReason === undefined && !state.errors.isEmpty()) {
    // Every Persistable is a record of a Model, which the typed face (`RecordMethods`) describes.
    return new RecordInvalid(`${state.model.name} is invalid: ${previewList(state.errors.fullMessages())}`, record as unknown as AnyRecord);
  }
  return new RecordNotSaved(state.abortReason ?? `${state.model.name} was not saved`);
}

/** The error `destroyOrThrow` throws for a refused destroy. */
export function destroyRefusal(record: Persistable): Error {
  const state = record[STATE];
  const reasons = state.errors.isEmpty() ? state.abortReason : previewList(state.errors.fullMessages());
  return new RecordNotDestroyed(reasons ?? `${state.model.name} was not destroyed`);
}
