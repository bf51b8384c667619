import { finishEach, isBatchable, sendReads } from "../database/batchable.js";
import type { DestroyContext, DestroyRead } from "../plugin-api/hooks.js";
import { type RecordState, RecordSnapshot, STATE } from "../records/record-state.js";
import { type Persistable, recordDatabase } from "./record-database.js";
import { type OwnWrite, ownDelete, failedOwnWrite } from "./record-write.js";
import { runAbortable } from "./save-finish.js";
import { type CheckedWrite, checkExtras, failedInOrder, type PreparedWrite, releaseEach, withExtras } from "./write-steps.js";

/**
 * One destroy of a record, from its checks (the destroy hooks, and those of the writes they add: dependents) to its
 * finish: the writes pushed to its `batch`, then its DELETE, in one batch. A record never saved sends no DELETE.
 */
export class RecordDestroy implements CheckedWrite {
  readonly #record: Persistable;
  readonly #state: RecordState;
  readonly #context: DestroyContext;
  readonly #snapshot: RecordSnapshot;
  /** Whether its own DELETE was built: until then, a failure reports it as a write that never became a statement. */
  #ownBuilt = false;
  #own: OwnWrite | undefined = undefined;
  /** Whether `plan` ran: `check` then goes on from the reads. */
  #planned = false;

  /** Takes the snapshot that a failed destroy puts the record back to. */
  constructor(record: Persistable) {
    this.#record = record;
    this.#state = record[STATE];
    this.#context = { record, batch: [] };
    this.#snapshot = new RecordSnapshot(this.#state);
  }

  /**
   * Runs the destroy hooks, then checks the writes they added; false when refused. When anything throws, every
   * record touched is put back as it was, and the error propagates. After `plan`, it goes on from the reads.
   */
  check(): Promise<boolean> {
    return this.#restoringOnError(async () => {
      if (!this.#planned) {
        const reads = await this.#plan();
        if (!reads) return false;
        if (reads.length > 0) await sendReads(await recordDatabase(this.#record), reads);
      }
      return (await runAbortable(this.#state, () => this.#callBeforeDelete())) && (await checkExtras(this.#state, this.#context.batch));
    });
  }

  /**
   * The first part of `check`: the `record:beforeDestroy` hooks, then the reads the `record:planDestroy` hooks ask
   * for, returned unsent so that a batch sends those of all its destroys in one round trip (each `receive` must get
   * its result before `check` goes on); false when refused. When anything throws, every record touched is put back
   * as it was, and the error propagates.
   */
  plan(): Promise<DestroyRead[] | false> {
    return this.#restoringOnError(() => this.#plan());
  }

  async #restoringOnError<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  async #plan(): Promise<DestroyRead[] | false> {
    const state = this.#state;
    const { hooks } = state.model;
    state.clearRefusal();
    if (hooks.has("record:beforeDestroy") && !(await runAbortable(state, () => hooks.callHook("record:beforeDestroy", this.#context)))) return false;
    this.#planned = true;
    const reads: DestroyRead[] = [];
    if (hooks.has("record:planDestroy")) hooks.callSync("record:planDestroy", { record: this.#record, reads });
    return reads;
  }

  async #callBeforeDelete(): Promise<void> {
    const { hooks } = this.#state.model;
    if (hooks.has("record:beforeDelete")) await hooks.callHook("record:beforeDelete", this.#context);
  }

  /** Builds the writes pushed to its `batch`, then its own DELETE after them. */
  build(): Promise<PreparedWrite> {
    return withExtras(this.#context.batch, () => this.#buildOwn(), []);
  }

  async #buildOwn(): Promise<PreparedWrite> {
    const state = this.#state;
    const planned = state.isNew ? undefined : ownDelete(this.#record, state);
    const write = planned instanceof Promise ? await planned : planned;
    this.#own = write;
    this.#ownBuilt = true;
    return {
      statements: write ? write.statements : [],
      finish: (results, _database, from = 0) => finishEach([() => write?.report?.succeeded(results[from + write.at]), () => this.#markDestroyed()], (part) => part()),
    };
  }

  async #markDestroyed(): Promise<void> {
    const state = this.#state;
    state.destroyed = true;
    const { hooks } = state.model;
    if (hooks.has("record:afterDestroy")) await runAbortable(state, () => hooks.callHook("record:afterDestroy", this.#context));
  }

  /** Reports `error` to every write of the destroy, whatever step it reached (see `CheckedWrite.failed`). */
  failed(error: unknown): unknown {
    return failedInOrder(this.#context.batch, (failure) => this.#ownFailed(failure), [], error);
  }

  /** Reports `error` to the record's own DELETE: as built, or as a write that never became a statement. */
  #ownFailed(error: unknown): unknown {
    return failedOwnWrite(this.#record, this.#state, "destroy", this.#ownBuilt, this.#own, error);
  }

  /** Its checks were refused: the writes its hooks added hold their records no more (see `CheckedWrite.release`). */
  release(): void {
    releaseEach(this.#context.batch);
  }

  /** The write will not be made: puts back the record and every record its added writes touched. */
  abandon(): void {
    for (const extra of this.#context.batch) if (isBatchable(extra)) extra.abandon();
    this.#snapshot.restore();
  }
}
