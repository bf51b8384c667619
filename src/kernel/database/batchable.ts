import type { Statement, StatementDatabase } from "../sql/statement.js";

/**
 * A write of records that joins a batch: `rec.toSave()` and `rec.toDestroy()`. `check` runs the validations and
 * before-callbacks; `prepare` (checking first if that was not done) returns the statements; `finish` gets their
 * results and runs the after-callbacks.
 */
export interface Batchable<R extends object = object> {
  /**
   * @internal Runs the validations and before-callbacks, of the record and of the writes they add, and throws the
   * refusal (`RecordInvalid`, `RecordNotSaved`, `RecordNotDestroyed`); builds and writes nothing.
   */
  check(): Promise<void>;
  /**
   * @internal Starts the write, and for a destroy runs its before-callbacks and returns the reads its checks need
   * (`record:planDestroy`), unsent, so that a batch sends those of all its destroys in one round trip; `check` then
   * goes on from there, once each read has received its result. Undefined for a write with no such step (a save),
   * which `check` runs whole. Throws the refusal as `check` does.
   */
  plan?(): Promise<PlannedRead[] | undefined>;
  /** @internal */
  prepare(): Promise<Statement[]>;
  /** @internal Finishes it with the results of its statements, which start at `from` in `results` (0 unless given). */
  finish(results: unknown[], from?: number): Promise<void>;
  /**
   * @internal The write failed with `error`, whatever step it had reached (checked or not, prepared or not, sent or
   * not): every `write:outcome` hook of every write it holds (the record's own, and those its hooks added) sees it
   * once, and the first error one of them threw is returned in its place (else `error`).
   */
  failed(error: unknown): unknown;
  /**
   * @internal The write will not be made (another item was refused, a hook threw, or D1 refused the batch): puts
   * back every record `check` and `prepare` touched as it was before.
   */
  abandon(): void;
  /**
   * @internal Ends its hold on the record, which `check` took (see `WriteInProgress`), leaving the record as it is:
   * the operation it was checked for was refused.
   */
  release?(): void;
  /** @internal The database the record writes through. */
  database(): StatementDatabase | Promise<StatementDatabase>;
  /** The record written; what `batch` resolves to for this item. */
  readonly record: R;
}

/** A read a write's checks need (a `record:planDestroy` hook's `DestroyRead`), and what receives its result. */
export interface PlannedRead {
  readonly statement: Statement;
  readonly receive: (result: any) => void;
}

/** Sends `reads` in one batch (one round trip), and hands each its result. */
export async function sendReads(database: { runAll(statements: readonly Statement[]): Promise<unknown[]> }, reads: readonly PlannedRead[]): Promise<void> {
  const results = await database.runAll(reads.map((read) => read.statement));
  reads.forEach((read, index) => read.receive(results[index]));
}

/** Whether a batch item is a record write rather than a Statement. */
export function isBatchable(item: unknown): item is Batchable {
  return typeof item === "object" && item !== null && "prepare" in item && "finish" in item && "database" in item && "record" in item;
}

/**
 * Calls `finish` for every item even when one throws, because each record must still learn that its row was
 * written (its state, its after-callbacks); then rethrows the first error.
 */
export async function finishEach<T>(items: readonly T[], finish: (item: T, index: number) => unknown): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const [index, item] of items.entries()) {
    try {
      await finish(item, index);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/**
 * Awaits the finish of a write D1 committed (its records' state, their after-callbacks), then throws the first error:
 * the one a reader threw before it (`unread`), else the finish's own.
 */
export async function finishCommitted(finishing: Promise<void> | void, unread: ReadAfterCommit | undefined): Promise<void> {
  if (!unread) return await finishing;
  try {
    await finishing;
  } catch {
    // The reader's error came first: it is the one thrown.
  }
  throw unread.error;
}

/**
 * Hands a failed batch's error to every part (each write's outcome hooks see it), and returns the first error a part
 * replaced it with, else the error itself.
 */
export function failEach<T>(parts: readonly T[], error: unknown, fail: (part: T, index: number) => unknown): unknown {
  let thrown = error;
  for (const [index, part] of parts.entries()) {
    const replaced = fail(part, index);
    if (thrown === error) thrown = replaced;
  }
  return thrown;
}

/**
 * What a write's call throws when D1 committed its statements but reading one of them threw (a `write:outcome` hook
 * of a Statement among them, a `records:load` hook of a SELECT): what each statement read (undefined for one whose
 * reader threw) and the first `error`. The rows are written, so this is not the write's failure: the save, destroy or
 * batch that sent it finishes its records with `results`, then throws `error` as it was thrown.
 */
export class ReadAfterCommit {
  constructor(
    readonly results: unknown[],
    readonly error: unknown,
  ) {}
}

/**
 * Reads every one of the `statements` D1 ran, in order, even after a reader threw (each write's `write:outcome`
 * hooks must hear of its success), then throws the first error: as `ReadAfterCommit` when they are sent `forRecords`
 * (a save's, a destroy's, a batch's, whose records must still learn what D1 committed), else as it was. Synchronous
 * when no reader returns a promise.
 */
export function readEach(statements: readonly Statement[], read: (statement: Statement) => unknown, forRecords: boolean): unknown[] | Promise<unknown[]> {
  const failures: Array<{ error: unknown }> = [];
  const results = statements.map((statement, index) => {
    try {
      const result = read(statement);
      return result instanceof Promise ? result.catch((error: unknown) => void (failures[index] = { error })) : result;
    } catch (error) {
      failures[index] = { error };
      return undefined;
    }
  });
  const settled = (values: unknown[]): unknown[] => {
    const failure = failures.find((each) => each !== undefined);
    if (!failure) return values;
    throw forRecords ? new ReadAfterCommit(values, failure.error) : failure.error;
  };
  return results.some((result) => result instanceof Promise) ? Promise.all(results).then(settled) : settled(results);
}

/**
 * The error a failed call throws: every write among `statements` that reports its failure (its `write:outcome`
 * hooks) sees `error` first, and the first one to replace it gives the error thrown instead. Statements that
 * report nothing (reads, a plugin's own) leave it as it is; record writes report through their batch item.
 */
export function reportedFailure(statements: readonly Statement[], error: unknown): unknown {
  return failEach(statements, error, (statement) => (statement.reportFailure ? statement.reportFailure(error) : error));
}

/**
 * A batch item's report of a failure: a record write reports to every write it holds (see `Batchable.failed`), a
 * Statement to its own. Returns the error a `write:outcome` hook put in its place, else `error`.
 */
export function failedItem(item: Statement | Batchable, error: unknown): unknown {
  return isBatchable(item) ? item.failed(error) : reportedFailure([item], error);
}
