import { assertLoaded } from "../records/assign.js";
import { type Batchable, finishEach, isBatchable } from "../database/batchable.js";
import { databaseFor } from "../database/context.js";
import { previewList, previewValue } from "../records/display.js";
import type { BatchItem, Database } from "../database/database.js";
import { RecordDestroyed, RecordNotDestroyed, RecordNotFound, RecordNotSaved } from "../errors.js";
import { RecordInvalid } from "./record-invalid.js";
import type { DestroyContext, DestroyRead } from "../plugin-api/hooks.js";
import { loadRow } from "../records/hydrate.js";
import { runLoadStage } from "../records/load-stage.js";
import { type RecordState, RecordSnapshot, STATE } from "../records/record-state.js";
import { findByKeyStatement, keyLookup } from "../relations/key-lookup.js";
import { Relation } from "../relations/relation.js";
import { Statement, type StatementReader } from "../sql/statement.js";
import { compileSelect } from "../sql/compiler.js";
import { prepareRelation } from "../relations/relation-prepare.js";
import type { AnyRecord } from "../records/record-methods.js";
import { ownDelete } from "./record-write.js";
import { RecordSave } from "./record-save.js";
import { runAbortable } from "./save-finish.js";
import { type CheckedWrite, checkExtras, type PreparedWrite, withExtras } from "./write-steps.js";

type Persistable = { [STATE]: RecordState; constructor: Function };

function assertNotDestroyed(state: RecordState, action: string): void {
  if (state.destroyed) throw new RecordDestroyed(`${state.model.name} is destroyed and cannot be ${action}`);
  // A persisted record is written by its key; one loaded without it (distinct select) cannot be.
  if (!state.isNew) assertLoaded(state, state.model.primaryKey);
}

/** The database a record writes through: the one it was built or loaded with, else the current one. */
function recordDatabase(record: Persistable): Database | Promise<Database> {
  const state = record[STATE];
  return state.database ?? databaseFor(record.constructor as unknown as { name: string; binding?: string });
}

const unchanged = (error: unknown) => error;

/**
 * Runs a destroy's checks (`run`, then those of the extra writes it added); undefined when refused. When anything
 * throws, every record touched is put back as it was, and the error propagates.
 */
async function checkWrite(
  state: RecordState,
  extras: () => BatchItem[],
  run: () => boolean | Promise<boolean>,
  build: () => Promise<PreparedWrite>,
): Promise<CheckedWrite | undefined> {
  const snapshot = new RecordSnapshot(state);
  const abandon = () => {
    for (const extra of extras()) if (isBatchable(extra)) extra.abandon();
    snapshot.restore();
  };
  try {
    state.clearRefusal();
    if (!(await run()) || !(await checkExtras(state, extras()))) return undefined;
  } catch (error) {
    abandon();
    throw error;
  }
  return { build, abandon };
}

/** Validates and runs the before-save hooks, of the record and of the writes they add; undefined when refused. */
async function checkSave(record: Persistable): Promise<CheckedWrite | undefined> {
  assertNotDestroyed(record[STATE], "saved");
  const saving = new RecordSave(record);
  return (await saving.check()) ? saving : undefined;
}

/**
 * Runs a checked write: builds it, sends it (one statement alone, several as one atomic batch), then finishes it
 * (records' state, after-hooks). Until the database has answered, a failure puts back every record the write
 * touched; an error of an after-hook comes once it is written. Awaits only what is a promise: a save is the hot path.
 */
async function run(record: Persistable, checked: CheckedWrite): Promise<boolean> {
  let prepared: PreparedWrite | undefined, database: Database, results: unknown[];
  try {
    const building = checked.build();
    prepared = building instanceof Promise ? await building : building;
    // Awaited only when the database must still be found: a record built or loaded through one keeps it.
    const known = recordDatabase(record);
    database = known instanceof Promise ? await known : known;
    const { statements } = prepared;
    results = statements.length === 1 ? [await database.run(statements[0]!)] : await database.runAll(statements);
  } catch (error) {
    const thrown = prepared ? prepared.failed(error) : error;
    checked.abandon();
    throw thrown;
  }
  const finishing = prepared.finish(results, database);
  if (finishing) await finishing;
  return record[STATE].abortReason === undefined;
}

/**
 * Saves a record: validation, before-save hooks, the write (one batch with any extra writes), after-save hooks.
 * Not an async function: a save whose Model has no before-hooks checks synchronously and goes straight to its write.
 */
export function save(record: Persistable): Promise<boolean> {
  let saving: RecordSave, checking: boolean | Promise<boolean>;
  try {
    assertNotDestroyed(record[STATE], "saved");
    saving = new RecordSave(record);
    checking = saving.check();
  } catch (error) {
    return Promise.reject(error);
  }
  if (checking instanceof Promise) return checking.then((passed) => passed && run(record, saving));
  return checking ? run(record, saving) : Promise.resolve(false);
}

/** Sends the reads the `record:planDestroy` hooks ask for in one batch, and hands each its result. */
async function readPlanned(record: Persistable): Promise<void> {
  const reads: DestroyRead[] = [];
  record[STATE].model.hooks.callSync("record:planDestroy", { record, reads });
  if (reads.length === 0) return;
  const results = await (await recordDatabase(record)).runAll(reads.map((read) => read.statement));
  reads.forEach((read, index) => read.receive(results[index]));
}

/** Runs the destroy hooks and checks the writes they add (dependents); undefined when refused. */
async function checkDestroy(record: Persistable): Promise<CheckedWrite | undefined> {
  const state = record[STATE];
  assertNotDestroyed(state, "destroyed again");
  const { hooks } = state.model;
  const context: DestroyContext = { record, batch: [] };
  const callBefore = () =>
    runAbortable(state, async () => {
      if (hooks.has("record:beforeDestroy")) await hooks.callHook("record:beforeDestroy", context);
      if (hooks.has("record:planDestroy")) await readPlanned(record);
      if (hooks.has("record:beforeDelete")) await hooks.callHook("record:beforeDelete", context);
    });
  const buildOwn = async (): Promise<PreparedWrite> => {
    const planned = state.isNew ? undefined : ownDelete(record, state);
    const write = planned instanceof Promise ? await planned : planned;
    const markDestroyed = async () => {
      state.destroyed = true;
      if (hooks.has("record:afterDestroy")) await runAbortable(state, () => hooks.callHook("record:afterDestroy", context));
    };
    return {
      statements: write ? write.statements : [],
      finish: (results) => finishEach([() => write?.report?.succeeded(results[write.at]), markDestroyed], (part) => part()),
      failed: write?.report?.failed ?? unchanged,
    };
  };
  return checkWrite(state, () => context.batch, callBefore, () => withExtras(context.batch, buildOwn, []));
}

/**
 * Destroys a record: before-destroy hooks, dependents, the DELETE, after-destroy hooks. A record never saved
 * sends no DELETE but is still marked destroyed, as in Rails. Succeeds when the row is already gone.
 */
export async function destroy(record: Persistable): Promise<boolean> {
  const checked = await checkDestroy(record);
  return checked ? run(record, checked) : false;
}

/** Reloads a persisted record's row, discarding unsaved changes and, as in Rails, the saved ones. */
export async function reload(record: Persistable): Promise<void> {
  const state = record[STATE];
  assertNotDestroyed(state, "reloaded");
  const model = state.model;
  if (state.isNew) throw new RecordNotFound(`${model.name} was never saved, so it cannot be reloaded`);
  const database = await recordDatabase(record);
  const key = state.row[model.primaryKey.column];
  const read: StatementReader<Persistable[]> = (rows) => {
    const reloaded = rows.slice(0, 1).map((row) => reloadRow(record, row));
    return runLoadStage(model, reloaded, reloaded, rows, "reload");
  };
  const planned = model.hooks.has("relation:plan") || model.hooks.has("relation:prepare");
  const reloaded = planned ? await reloadPlanned(record, database, key, read) : await database.run(findByKeyStatement(model, key, read, "reload"));
  if (reloaded.length === 0) throw new RecordNotFound(`${model.name} with ${model.primaryKey.name} ${previewValue(model.primaryKey, key)} no longer exists`);
}

/**
 * Loads the record's row read again into it, as a row is loaded into a record: then `record:hydrate` (and, for the
 * batch, `records:load`).
 */
function reloadRow(record: Persistable, row: Record<string, unknown>): Persistable {
  const state = record[STATE];
  loadRow(state, row, undefined);
  state.savedChanges = {};
  const { hooks } = state.model;
  if (hooks.has("record:hydrate")) hooks.callSync("record:hydrate", { record, row });
  return record;
}

/**
 * A reload is a load of the record's own row: its lookup by key runs `relation:prepare` (purpose `reload`), and the
 * `relation:plan` hooks plan their reads for it, sent in the batch of its SELECT, and receive the reloaded record.
 */
async function reloadPlanned(record: Persistable, database: Database, key: unknown, read: StatementReader<Persistable[]>): Promise<Persistable[]> {
  const model = record[STATE].model;
  const lookup = new Relation(database.model(record.constructor), keyLookup(model, key));
  const pending = prepareRelation(lookup, "reload");
  const relation = pending instanceof Promise ? await pending : pending;
  // A hook that rewrote the lookup (its key's condition, a default scope's) changed the SQL: it is compiled as prepared.
  const select = relation === lookup ? findByKeyStatement(model, key, read, "reload") : new Statement(compileSelect(relation.data, model, "reload"), model, "rows", read);
  return (await relation.loadPlanned(relation.plan({ purpose: "reload" }), select)).records;
}

function batchable(record: Persistable, check: () => Promise<CheckedWrite | undefined>, refusal: () => Error): Batchable {
  let checked: CheckedWrite | undefined;
  let prepared: PreparedWrite | undefined;
  const write: Batchable = {
    async check() {
      if (checked) return;
      checked = await check();
      if (!checked) throw refusal();
    },
    async prepare() {
      await write.check();
      prepared = await checked!.build();
      return prepared.statements;
    },
    failed(error) {
      return prepared ? prepared.failed(error) : error;
    },
    abandon() {
      checked?.abandon();
      checked = prepared = undefined;
    },
    async finish(results) {
      const written = prepared!;
      checked = prepared = undefined;
      await written.finish(results, await recordDatabase(record));
      // An after-callback aborted: the row is written, yet the batch reports the refusal as a save() would.
      if (record[STATE].abortReason !== undefined) throw refusal();
    },
    database: () => recordDatabase(record),
    record,
  };
  return write;
}

/** The batchable save of a record, for `db.batch([...])`. */
export function toSave(record: Persistable): Batchable {
  return batchable(record, () => checkSave(record), () => saveRefusal(record));
}

/** The batchable destroy of a record, for `db.batch([...])`. */
export function toDestroy(record: Persistable): Batchable {
  return batchable(record, () => checkDestroy(record), () => destroyRefusal(record));
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
