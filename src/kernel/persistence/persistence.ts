import { assertLoaded, assertNotDestroyed } from "../records/assign.js";
import { type Batchable, finishCommitted, type PlannedRead, ReadAfterCommit } from "../database/batchable.js";
import { previewList, previewValue } from "../records/display.js";
import type { Database } from "../database/database.js";
import { RecordNotDestroyed, RecordNotFound, RecordNotSaved, WriteInProgress } from "../errors.js";
import { RecordInvalid } from "./record-invalid.js";
import { loadRow } from "../records/hydrate.js";
import { runLoadStage } from "../records/load-stage.js";
import { type RecordState, STATE } from "../records/record-state.js";
import { findByKeyStatement } from "../relations/key-lookup.js";
import { Relation } from "../relations/relation.js";
import type { StatementReader } from "../sql/statement.js";
import type { AnyRecord } from "../records/record-methods.js";
import { type Persistable, recordDatabase } from "./record-database.js";
import { RecordDestroy } from "./record-destroy.js";
import { RecordSave, type SaveOptions } from "./record-save.js";
import { argumentError, optionsArgument, refuseExtraArguments } from "../records/arguments.js";
import type { CheckedWrite, PreparedWrite } from "./write-steps.js";

function assertWritable(state: RecordState, action: string): void {
  assertNotDestroyed(state, action);
  // A persisted record is written by its key; one loaded without it (distinct select) cannot be.
  if (!state.isNew) assertLoaded(state, state.model.primaryKey);
}

/** Starts a save or destroy: a write whose checks run next (see `CheckedWrite`). */
interface StartedWrite extends CheckedWrite {
  /** Runs its checks; false when refused. When one throws, every record touched is put back, and it propagates. */
  check(): boolean | Promise<boolean>;
  /** A destroy's: runs its checks up to its reads, and returns them unsent; false when refused (see `RecordDestroy.plan`). */
  plan?(): Promise<PlannedRead[] | false>;
}

/**
 * Runs a checked write: builds it, sends it (one statement alone, several as one atomic batch), then finishes it
 * (records' state, after-hooks). Until the database has committed it, a failure puts back every record the write
 * touched; once it has, every record learns what the database holds, and an error (a reader's, such as a
 * `write:outcome` hook of a Statement sent with it, or an after-hook's) propagates after that. Awaits only what is a
 * promise: a save is the hot path.
 */
async function run(record: Persistable, checked: CheckedWrite): Promise<boolean> {
  let prepared: PreparedWrite | undefined, database: Database | undefined, results: unknown[];
  let unread: ReadAfterCommit | undefined;
  try {
    const building = checked.build();
    prepared = building instanceof Promise ? await building : building;
    // Awaited only when the database must still be found: a record built or loaded through one keeps it.
    const known = recordDatabase(record);
    database = known instanceof Promise ? await known : known;
    results = await database.runWrite(prepared.statements);
  } catch (error) {
    if (!(error instanceof ReadAfterCommit)) throw abandoned(checked, error);
    // D1 committed the write before a reader threw: the records still learn what it holds, then the error comes.
    unread = error;
    results = error.results;
  }
  const finishing = prepared!.finish(results, database!);
  if (unread) await finishCommitted(finishing, unread);
  else if (finishing) await finishing;
  return record[STATE].abortReason === undefined;
}

/**
 * A write that failed before the database committed it, whatever step failed: every write of the operation hears of
 * `error` once (the error to throw is returned: an outcome hook's own, when one replaced it), then every record is
 * put back.
 */
function abandoned(checked: CheckedWrite, error: unknown): unknown {
  const thrown = checked.failed(error);
  checked.abandon();
  return thrown;
}

/**
 * Saves a record: validation (unless `options` say `validate: false`), before-save hooks, the write (one batch with
 * any extra writes), after-save hooks. `given` is the number of arguments `save` got. Not an async function: a
 * save whose Model has no before-hooks checks synchronously and goes straight to its write.
 */
export function save(record: Persistable, options?: SaveOptions, given = 0): Promise<boolean> {
  let validate: boolean;
  try {
    validate = saveValidates(record, options, given, "save");
    assertWritable(record[STATE], "saved");
  } catch (error) {
    return Promise.reject(error);
  }
  return start(record, new RecordSave(record, validate));
}

/**
 * Whether a save by `method` runs its validations (`{ validate: false }` skips them, as Rails' `save(validate: false)`
 * does); arguments `method` does not take are refused, naming it.
 */
export function saveValidates(record: Persistable, options: SaveOptions | undefined, given: number, method: string): boolean {
  return options === undefined && given === 0 ? true : validates(record[STATE], options, given, method);
}

function validates(state: RecordState, options: SaveOptions | undefined, given: number, method: string): boolean {
  const where = `${state.model.name}.${method}`;
  refuseExtraArguments(where, given, 1);
  const { validate = true } = optionsArgument(where, options, ["validate"]);
  if (typeof validate !== "boolean") throw argumentError(`${where}: validate`, "true or false", validate);
  return validate;
}

/**
 * Makes `writer` the record's save or destroy in progress; `WriteInProgress` naming the Model while another is: two
 * writes made of one record's state at once would each write it as they found it (a new record twice), and each put
 * it back as it was when it began.
 */
function claim(state: RecordState, writer: object): void {
  if (state.writer) throw new WriteInProgress(`${state.model.name} is being saved or destroyed: await that before saving or destroying it again`);
  state.writer = writer;
}

/** Ends `writer`'s hold on the record, unless it ended already (a save's ends as the record learns its outcome). */
function release(state: RecordState, writer: object): void {
  if (state.writer === writer) state.writer = undefined;
}

/** Runs a save or destroy as the record's write in progress (see `claim`). */
function start(record: Persistable, write: StartedWrite): Promise<boolean> {
  const state = record[STATE];
  try {
    claim(state, write);
  } catch (error) {
    return Promise.reject(error);
  }
  return checkAndRun(record, write).finally(() => release(state, write));
}

/**
 * Runs a save's or destroy's checks, then (when they passed) its write. A check that throws fails the operation: its
 * writes hear of it (see `CheckedWrite.failed`); a refusal answers false and reports nothing, as nothing was tried.
 */
function checkAndRun(record: Persistable, write: StartedWrite): Promise<boolean> {
  let checking: boolean | Promise<boolean>;
  try {
    checking = write.check();
  } catch (error) {
    return Promise.reject(write.failed(error));
  }
  if (!(checking instanceof Promise)) return checking ? run(record, write) : Promise.resolve(false);
  return checking.then(
    (passed) => passed && run(record, write),
    (error: unknown) => Promise.reject(write.failed(error)),
  );
}

/**
 * Destroys a record: before-destroy hooks, dependents, the DELETE, after-destroy hooks. A record never saved
 * sends no DELETE but is still marked destroyed, as in Rails. Succeeds when the row is already gone.
 */
export async function destroy(record: Persistable): Promise<boolean> {
  assertWritable(record[STATE], "destroyed again");
  return await start(record, new RecordDestroy(record));
}

/** Reloads a persisted record's row, discarding unsaved changes and, as in Rails, the saved ones. */
export async function reload(record: Persistable): Promise<void> {
  const state = record[STATE];
  assertWritable(state, "reloaded");
  const model = state.model;
  if (state.isNew) throw new RecordNotFound(`${model.name} was never saved, so it cannot be reloaded`);
  const database = await recordDatabase(record);
  const key = state.row[model.primaryKey.column];
  const read: StatementReader<Persistable[]> = (rows) => {
    const reloaded = rows.slice(0, 1).map((row) => reloadRow(record, row));
    return runLoadStage(model, reloaded, reloaded, rows, "reload");
  };
  const planned = model.hooks.has("relation:plan") || model.hooks.has("relation:prepare");
  // A reload is a load of the record's own row: the relation:plan hooks plan their reads for it, sent in the batch
  // of its SELECT, and receive the reloaded record.
  const reloaded = planned ? await new Relation(database.model(record.constructor)).loadKey(key, read, "reload") : await database.run(findByKeyStatement(model, key, read, "reload"));
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
 * A save or destroy that joins a batch: `begin` starts it (after `action`'s check that the record can be written),
 * `refusal` is the error a refused one throws. A failure reaches every write of it whatever step it reached; one
 * never begun (the batch failed first) reports its record's own write. A destroy's may be planned first (see
 * `Batchable.plan`), then checked from there.
 */
function batchable(record: Persistable, action: string, begin: () => StartedWrite, refusal: () => Error): Batchable {
  let begun: StartedWrite | undefined;
  let planned: StartedWrite | undefined;
  let checked: CheckedWrite | undefined;
  let prepared: PreparedWrite | undefined;
  const state = record[STATE];
  const start = () => {
    assertWritable(state, action);
    claim(state, write);
    return (begun = begin());
  };
  /** Runs `step` of the write begun, and returns what it gives; a refusal (false) or an error ends its hold on the record. */
  const passes = async <T>(step: () => T | false | Promise<T | false>): Promise<T> => {
    try {
      const passed = await step();
      if (!passed) throw refusal();
      return passed;
    } catch (error) {
      write.release!();
      throw error;
    }
  };
  const write: Batchable = {
    async plan() {
      // Checked already (a write a hook added, which its operation checked), or planned (an item given twice).
      if (checked ?? planned) return [];
      const started = start();
      const reads = started.plan && (await passes(() => started.plan!()));
      planned = started;
      return reads;
    },
    async check() {
      if (checked) return;
      const started = planned ?? start();
      planned = undefined;
      await passes(() => started.check());
      checked = started;
    },
    async prepare() {
      await write.check();
      prepared = await checked!.build();
      return prepared.statements;
    },
    failed(error) {
      return (begun ?? begin()).failed(error);
    },
    abandon() {
      (checked ?? planned)?.abandon();
      write.release!();
      begun = planned = checked = prepared = undefined;
    },
    release() {
      release(state, write);
      begun?.release();
    },
    async finish(results, from) {
      const written = prepared!;
      begun = checked = prepared = undefined;
      try {
        await written.finish(results, await recordDatabase(record), from);
      } finally {
        write.release!();
      }
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
  return batchable(record, "saved", () => new RecordSave(record), () => saveRefusal(record));
}

/** The batchable destroy of a record, for `db.batch([...])`. */
export function toDestroy(record: Persistable): Batchable {
  return batchable(record, "destroyed again", () => new RecordDestroy(record), () => destroyRefusal(record));
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
