import { assertLoaded } from "../records/assign.js";
import { type Batchable, failEach, finishEach, isBatchable, resultsPerItem } from "../database/batchable.js";
import { databaseFor } from "../database/context.js";
import { previewList, previewValue } from "../records/display.js";
import type { BatchItem, Database } from "../database/database.js";
import { RecordDestroyed, RecordNotDestroyed, RecordNotFound, RecordNotSaved } from "../errors.js";
import { RecordInvalid } from "./record-invalid.js";
import type { DestroyContext, DestroyRead, SaveContext, SaveOperation } from "../plugin-api/hooks.js";
import { loadRow } from "../records/hydrate.js";
import { runLoadStage } from "../records/load-stage.js";
import { type RecordState, STATE, snapshotOf } from "../records/record-state.js";
import { findByKeyStatement, keyLookup } from "../relations/key-lookup.js";
import { Relation } from "../relations/relation.js";
import type { Statement } from "../sql/statement.js";
import type { AnyRecord } from "../records/record-methods.js";
import { buildWrite, ownDelete } from "./record-write.js";
import { finishSave, runAbortable } from "./save-finish.js";

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

/**
 * A write whose checks passed: validations and before-hooks have run, for the record and for every write they added
 * (children, new parents, dependents). Nothing is built or written yet.
 */
interface CheckedWrite {
  /** Builds the statements (after the `record:write` hooks) and what finishes the write once they ran. */
  build(): Promise<PreparedWrite>;
  /** The write will not be made (its batch failed, or a hook threw): puts back every record it touched. */
  abandon(): void;
}

/** A write built in full, that a batch can run with others. */
interface PreparedWrite {
  readonly statements: Statement[];
  finish(results: unknown[], database: Database): Promise<void> | void;
  /** Its statements, or their batch, failed with `error`: the error to throw instead (a `write:outcome` hook's). */
  failed(error: unknown): unknown;
}

const unchanged = (error: unknown) => error;

/** Builds the extra writes hooks asked for (already checked), returning their statements and a way to finish them. */
async function prepareExtras(extras: readonly BatchItem[]): Promise<PreparedWrite> {
  const statements: Statement[][] = [];
  for (const extra of extras) statements.push(isBatchable(extra) ? await extra.prepare() : [extra]);
  return {
    statements: statements.flat(),
    async finish(results) {
      const own = resultsPerItem(results, statements);
      await finishEach(extras, (extra, index) => (isBatchable(extra) ? extra.finish(own[index]!) : undefined));
    },
    failed: (error) => failEach(extras, error, (extra) => (isBatchable(extra) ? extra.failed(error) : error)),
  };
}

/** Runs a write's statements: alone when there is one, else as one atomic batch. */
async function execute(database: Database, statements: readonly Statement[]): Promise<unknown[]> {
  if (statements.length === 1) return [await database.run(statements[0]!)];
  return statements.length === 0 ? [] : database.runAll(statements);
}

const VALIDATION_HOOKS = ["record:beforeValidate", "record:validate", "record:afterValidate"] as const;
const BEFORE_SAVE_HOOKS = ["record:beforeSave", "record:beforeWrite"] as const;
type BeforeWriteHook = (typeof VALIDATION_HOOKS)[number] | (typeof BEFORE_SAVE_HOOKS)[number];

/** Calls the hooks of each point in turn, awaiting only those that return a promise. */
function callInTurn(state: RecordState, names: readonly BeforeWriteHook[], context: SaveContext, from = 0): Promise<void> | void {
  const { hooks } = state.model;
  for (let index = from; index < names.length; index++) {
    const called = hooks.has(names[index]!) ? hooks.callHook(names[index]!, context) : undefined;
    if (called) return called.then(() => callInTurn(state, names, context, index + 1));
  }
}

/**
 * Runs the validations with the hooks around them, then (when they passed) the before-save hooks, then the
 * before-write hooks; false when any refused the save. Failed validations stop it with no `abortReason`, which is
 * a callback's alone: their reasons are in `errors`.
 */
async function validateAndCallBefore(state: RecordState, context: SaveContext): Promise<boolean> {
  if (!(await runAbortable(state, () => callInTurn(state, VALIDATION_HOOKS, context))) || state.hasErrors()) return false;
  return runAbortable(state, () => callInTurn(state, BEFORE_SAVE_HOOKS, context));
}

/**
 * Checks the writes hooks added to a save or destroy (children built through an association, a new parent,
 * dependents, children written later). One that is refused refuses the whole operation, so that `save()` or
 * `destroy()` answers false as for the record's own refusal: an invalid one's reasons go to the record's `errors`,
 * an aborted one's to its `abortReason`. Nothing has been written then.
 */
async function checkExtras(state: RecordState, extras: readonly BatchItem[]): Promise<boolean> {
  for (const extra of extras) {
    if (!isBatchable(extra)) continue;
    try {
      await extra.check();
    } catch (error) {
      if (error instanceof RecordInvalid) state.errors.add("base", "invalid", error.message);
      else if (error instanceof RecordNotSaved || error instanceof RecordNotDestroyed) state.abortReason = error.message;
      else throw error;
      return false;
    }
  }
  return true;
}

/**
 * Runs a save's or destroy's checks (`run`, then those of the extra writes it added); undefined when refused. When
 * anything throws, every record touched is put back as it was, and the error propagates.
 */
async function checkWrite(
  state: RecordState,
  extras: () => BatchItem[],
  run: () => Promise<boolean>,
  build: () => Promise<PreparedWrite>,
): Promise<CheckedWrite | undefined> {
  const restore = snapshotOf(state);
  const abandon = () => {
    for (const extra of extras()) if (isBatchable(extra)) extra.abandon();
    restore();
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
  const state = record[STATE];
  assertNotDestroyed(state, "saved");
  const { hooks } = state.model;
  const operation: SaveOperation = state.isNew ? "create" : "update";
  const context: SaveContext = { record, operation, batch: [], batchBefore: [], later: [] };
  const hasBefore = VALIDATION_HOOKS.some((name) => hooks.has(name)) || BEFORE_SAVE_HOOKS.some((name) => hooks.has(name));
  const extras = () => [...context.batchBefore, ...context.batch, ...context.later];
  return checkWrite(state, extras, async () => !hasBefore || validateAndCallBefore(state, context), () => buildSave(record, context));
}

/** Builds a checked save: its own INSERT or UPDATE between the writes to make before and after it. */
async function buildSave(record: Persistable, context: SaveContext): Promise<PreparedWrite> {
  const state = record[STATE];
  const built = buildWrite(record, state, context.operation);
  const { own: write, changes } = built instanceof Promise ? await built : built;
  const own = write ? write.statements : [];
  const finishOwn = (results: unknown[], database: Database) => {
    const result = write ? results[write.at] : undefined;
    const finishRecord = () => finishSave(record, context, changes, result, database);
    const report = write?.report;
    // The row is written: an outcome hook's error propagates once the record has learnt it, as an after-hook's does.
    return report ? finishEach([() => report.succeeded(result), finishRecord], (part) => part()) : finishRecord();
  };
  const failOwn = write?.report?.failed ?? unchanged;
  if (context.batch.length === 0 && context.batchBefore.length === 0) return { statements: own, finish: finishOwn, failed: failOwn };
  const before = await prepareExtras(context.batchBefore);
  const after = await prepareExtras(context.batch);
  return {
    statements: [...before.statements, ...own, ...after.statements],
    async finish(results, database) {
      const ownAt = before.statements.length;
      const parts = [
        () => before.finish(results.slice(0, ownAt), database),
        () => finishOwn(results.slice(ownAt), database),
        () => after.finish(results.slice(ownAt + own.length), database),
      ];
      await finishEach(parts, (part) => part());
    },
    failed: (error) => failEach([before.failed, failOwn, after.failed], error, (failed) => failed(error)),
  };
}

/**
 * Runs a checked write: builds it, sends it, then finishes it (records' state, after-hooks). Until the database has
 * answered, a failure puts back every record the write touched; an error of an after-hook comes once it is written.
 */
async function run(record: Persistable, checked: CheckedWrite): Promise<boolean> {
  let prepared: PreparedWrite | undefined, database: Database, results: unknown[];
  try {
    prepared = await checked.build();
    // Awaited only when the database must still be found: a record built or loaded through one keeps it.
    const known = recordDatabase(record);
    database = known instanceof Promise ? await known : known;
    results = await execute(database, prepared.statements);
  } catch (error) {
    const thrown = prepared ? prepared.failed(error) : error;
    checked.abandon();
    throw thrown;
  }
  const finishing = prepared.finish(results, database);
  if (finishing) await finishing;
  return record[STATE].abortReason === undefined;
}

/** Saves a record: validation, before-save hooks, the write (one batch with any extra writes), after-save hooks. */
export async function save(record: Persistable): Promise<boolean> {
  const checked = await checkSave(record);
  return checked ? run(record, checked) : false;
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
  return checkWrite(state, () => context.batch, callBefore, async () => {
    const extras = await prepareExtras(context.batch);
    const planned = state.isNew ? undefined : ownDelete(record, state);
    const write = planned instanceof Promise ? await planned : planned;
    const own = write ? write.statements : [];
    return {
      statements: [...extras.statements, ...own],
      async finish(results, database) {
        const markDestroyed = async () => {
          state.destroyed = true;
          if (hooks.has("record:afterDestroy")) await runAbortable(state, () => hooks.callHook("record:afterDestroy", context));
        };
        const extrasAt = extras.statements.length;
        const reportOwn = () => write?.report?.succeeded(results[extrasAt + write.at]);
        await finishEach([() => extras.finish(results.slice(0, extrasAt), database), reportOwn, markDestroyed], (part) => part());
      },
      failed: (error) => failEach([extras.failed, write?.report?.failed ?? unchanged], error, (failed) => failed(error)),
    };
  });
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
  const read = findByKeyStatement(
    model,
    key,
    (rows) => {
      const reloaded = rows.slice(0, 1).map((row) => reloadRow(record, row));
      return runLoadStage(model, reloaded, reloaded, rows, "reload");
    },
    "reload",
  );
  const reloaded = model.hooks.has("relation:plan") ? await reloadPlanned(record, database, key, read) : await database.run(read);
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
 * A reload is a load of the record's own row: the `relation:plan` hooks plan their reads for it (purpose `reload`),
 * sent in the batch of its SELECT, and receive the reloaded record.
 */
async function reloadPlanned(record: Persistable, database: Database, key: unknown, read: Statement<Persistable[]>): Promise<Persistable[]> {
  const relation = new Relation(database.model(record.constructor), keyLookup(record[STATE].model, key));
  return (await relation.loadPlanned(relation.plan({ purpose: "reload" }), read)).records;
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
