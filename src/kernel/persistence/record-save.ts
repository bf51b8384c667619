import { finishEach, isBatchable } from "../database/batchable.js";
import type { BatchItem, Database } from "../database/database.js";
import type { SaveContext, SaveOperation } from "../plugin-api/hooks.js";
import { type RecordState, RecordSnapshot, STATE } from "../records/record-state.js";
import type { Statement } from "../sql/statement.js";
import { attributesToWrite, changesOf, type OwnWrite, saveWrite, failedOwnWrite } from "./record-write.js";
import { notOwnRow } from "./insert-retry.js";
import { finishSave, runAbortable } from "./save-finish.js";
import { type CheckedWrite, checkExtras, failedInOrder, type PreparedWrite, releaseEach, withExtras } from "./write-steps.js";

type Persistable = { [STATE]: RecordState };

/** The options of `save` and `saveOrThrow`. */
export interface SaveOptions {
  /**
   * `false` skips the validations: the `record:beforeValidate`, `record:validate` and `record:afterValidate` hooks
   * (Rails' `save(validate: false)`). The other hooks run, and the writes they add are checked as always. Default true.
   */
  validate?: boolean;
}

const VALIDATION_HOOKS = ["record:beforeValidate", "record:validate", "record:afterValidate"] as const;
const BEFORE_SAVE_HOOKS = ["record:beforeSave", "record:beforeWrite"] as const;
type BeforeWriteHook = (typeof VALIDATION_HOOKS)[number] | (typeof BEFORE_SAVE_HOOKS)[number];
/** The hooks that get a save's context: a save whose Model has none of them makes no context. */
const CONTEXT_HOOKS = [...VALIDATION_HOOKS, ...BEFORE_SAVE_HOOKS, "record:afterSave"] as const;

/** Calls the hooks of each point in turn, awaiting only those that return a promise. */
function callInTurn(state: RecordState, names: readonly BeforeWriteHook[], context: SaveContext, from = 0): Promise<void> | void {
  const { hooks } = state.model;
  for (let index = from; index < names.length; index++) {
    const called = hooks.has(names[index]!) ? hooks.callHook(names[index]!, context) : undefined;
    if (called) return called.then(() => callInTurn(state, names, context, index + 1));
  }
}

/**
 * Runs the validations with the hooks around them (unless `validate` is false), then (when they passed) the before-save hooks, then the
 * before-write hooks; false when any refused the save. Failed validations stop it with no `abortReason`, which is
 * a callback's alone: their reasons are in `errors`. Sync unless a hook returns a promise.
 */
function validateAndCallBefore(state: RecordState, context: SaveContext, validate: boolean): boolean | Promise<boolean> {
  const validated = validate ? runAbortable(state, () => callInTurn(state, VALIDATION_HOOKS, context)) : true;
  return validated instanceof Promise ? validated.then((passed) => callBeforeSave(state, context, passed)) : callBeforeSave(state, context, validated);
}

/** Runs the before-save and before-write hooks of a save whose validations `passed`; false when refused. */
function callBeforeSave(state: RecordState, context: SaveContext, passed: boolean): boolean | Promise<boolean> {
  if (!passed || state.hasErrors()) return false;
  return runAbortable(state, () => callInTurn(state, BEFORE_SAVE_HOOKS, context));
}

/**
 * One save of a record, from its checks to its finish. Saves are the hot path of writes: its methods stand in for
 * closures made per save, and a save whose Model has no hook that takes the save's context (validations, callbacks)
 * makes no context, checks synchronously, and, with nothing to add writes to it, is its own prepared write.
 */
export class RecordSave implements CheckedWrite, PreparedWrite {
  readonly #record: Persistable;
  readonly #state: RecordState;
  readonly #operation: SaveOperation;
  readonly #context: SaveContext | undefined;
  readonly #validate: boolean;
  readonly #snapshot: RecordSnapshot;
  #own: OwnWrite | undefined = undefined;
  /** Whether its own write was built: until then, a failure reports it as a write that never became a statement. */
  #ownBuilt = false;
  #changes: Record<string, [unknown, unknown]> | undefined = undefined;
  statements: Statement[] = [];

  /** Takes the snapshot that a failed save puts the record back to; `validate` false skips the validation hooks. */
  constructor(record: Persistable, validate = true) {
    const state = record[STATE];
    this.#record = record;
    this.#state = state;
    this.#operation = state.isNew ? "create" : "update";
    const takesContext = state.model.hooks.hasAnyOf(CONTEXT_HOOKS);
    this.#context = takesContext ? { record, operation: this.#operation, batch: [], batchBefore: [], later: [] } : undefined;
    this.#validate = validate;
    this.#snapshot = new RecordSnapshot(state);
  }

  /**
   * Runs the validations and before-save hooks, of the record and of the writes they add; false when refused. Sync
   * unless a hook returns a promise. When anything throws, every record touched is put back as it was, and the
   * error propagates.
   */
  check(): boolean | Promise<boolean> {
    this.#state.clearRefusal();
    if (!this.#context) return true;
    let checking: boolean | Promise<boolean>;
    try {
      checking = this.#checkHooks(this.#context);
    } catch (error) {
      this.abandon();
      throw error;
    }
    if (!(checking instanceof Promise)) return checking;
    return checking.catch((error: unknown) => {
      this.abandon();
      throw error;
    });
  }

  #checkHooks(context: SaveContext): boolean | Promise<boolean> {
    const passed = validateAndCallBefore(this.#state, context, this.#validate);
    return passed instanceof Promise ? passed.then((ok) => ok && this.#checkExtras()) : passed && this.#checkExtras();
  }

  /** Checks the writes the hooks added (see `checkExtras`); true at once when they added none. */
  #checkExtras(): boolean | Promise<boolean> {
    const extras = this.#extras();
    return extras.length === 0 || checkExtras(this.#state, extras);
  }

  /** The writes the save's hooks added, before, after and later. */
  #extras(): BatchItem[] {
    const context = this.#context;
    return context ? [...context.batchBefore, ...context.batch, ...context.later] : [];
  }

  /** Builds the save's own INSERT or UPDATE, between the writes to make before and after it. */
  build(): PreparedWrite | Promise<PreparedWrite> {
    const attributes = attributesToWrite(this.#record, this.#operation);
    this.#changes = changesOf(this.#state, attributes);
    // What is written is fixed now: an assignment from here on is no part of it.
    this.#state.sending = true;
    const own = saveWrite(this.#record, this.#state, this.#operation, attributes);
    return own instanceof Promise ? own.then((written) => this.#built(written)) : this.#built(own);
  }

  #built(own: OwnWrite | undefined): PreparedWrite | Promise<PreparedWrite> {
    this.#own = own;
    this.#ownBuilt = true;
    this.statements = own ? own.statements : [];
    const context = this.#context;
    if (!context || (context.batchBefore.length === 0 && context.batch.length === 0)) return this;
    return withExtras(context.batchBefore, () => this, context.batch);
  }

  /** Applies the written save to the record and runs its after-save hooks, once its outcome is reported. */
  finish(results: unknown[], database: Database, from = 0): Promise<void> | void {
    const own = this.#own;
    const result = own ? results[from + own.at] : undefined;
    if (result === undefined && this.#operation === "create") this.#notWritten();
    const report = own?.report;
    if (!report) return this.#finishRecord(result, database);
    // The row is written: an outcome hook's error propagates once the record has learnt it, as an after-hook's does.
    return finishEach([() => report.succeeded(result), () => this.#finishRecord(result, database)], (part) => part());
  }

  #finishRecord(result: unknown, database: Database): Promise<void> | void {
    return finishSave(this.#record, this.#operation, this.#context, this.#changes!, result, database);
  }

  /**
   * Its INSERT returned no row: sent again after a transient error, it found another record's row under its generated
   * key (see `insertedRow`), and wrote nothing. The record, and the writes waiting to follow it, are put back and hear
   * of the failure, as after any failed write; the writes of its batch were written, and finish as such.
   */
  #notWritten(): never {
    const later = this.#context?.later ?? [];
    const error = notOwnRow(this.#state.model, this.#state.generatedKey);
    const thrown = failedInOrder([], (failure) => this.#ownFailed(failure), later, error);
    for (const write of later) write.abandon();
    this.#snapshot.restore();
    throw thrown;
  }

  /** Reports `error` to every write of the save, whatever step it reached (see `CheckedWrite.failed`). */
  failed(error: unknown): unknown {
    const context = this.#context;
    if (!context) return this.#ownFailed(error);
    return failedInOrder(context.batchBefore, (failure) => this.#ownFailed(failure), [...context.batch, ...context.later], error);
  }

  /** Reports `error` to the record's own write: as built, or as a write that never became a statement. */
  #ownFailed(error: unknown): unknown {
    return failedOwnWrite(this.#record, this.#state, this.#operation, this.#ownBuilt, this.#own, error);
  }

  /** Its checks were refused: the writes its hooks added hold their records no more (see `CheckedWrite.release`). */
  release(): void {
    releaseEach(this.#extras());
  }

  /** The write will not be made: puts back the record and every record its added writes touched. */
  abandon(): void {
    for (const extra of this.#extras()) if (isBatchable(extra)) extra.abandon();
    this.#snapshot.restore();
  }
}
