import { finishEach, isBatchable } from "../database/batchable.js";
import type { DestroyContext, DestroyRead } from "../plugin-api/hooks.js";
import { type RecordState, RecordSnapshot, STATE } from "../records/record-state.js";
import { type Persistable, recordDatabase } from "./record-database.js";
import { type OwnWrite, ownDelete, failedOwnWrite } from "./record-write.js";
import { runAbortable } from "./save-finish.js";
import { type CheckedWrite, checkExtras, failedInOrder, type PreparedWrite, releaseEach, withExtras } from "./write-steps.js";

/** Sends the reads the `record:planDestroy` hooks ask for in one batch, and hands each its result. */
async function readPlanned(record: Persistable): Promise<void> {
  const reads: DestroyRead[] = [];
  record[STATE].model.hooks.callSync("record:planDestroy", { record, reads });
  if (reads.length === 0) return;
  const results = await (await recordDatabase(record)).runAll(reads.map((read) => read.statement));
  reads.forEach((read, index) => read.receive(results[index]));
}

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

  /** Takes the snapshot that a failed destroy puts the record back to. */
  constructor(record: Persistable) {
    this.#record = record;
    this.#state = record[STATE];
    this.#context = { record, batch: [] };
    this.#snapshot = new RecordSnapshot(this.#state);
  }

  /**
   * Runs the destroy hooks, then checks the writes they added; false when refused. When anything throws, every
   * record touched is put back as it was, and the error propagates.
   */
  async check(): Promise<boolean> {
    const state = this.#state;
    try {
      state.clearRefusal();
      return (await runAbortable(state, () => this.#callBefore())) && (await checkExtras(state, this.#context.batch));
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  async #callBefore(): Promise<void> {
    const { hooks } = this.#state.model;
    if (hooks.has("record:beforeDestroy")) await hooks.callHook("record:beforeDestroy", this.#context);
    if (hooks.has("record:planDestroy")) await readPlanned(this.#record);
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
