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
  /** @internal */
  prepare(): Promise<Statement[]>;
  /** @internal */
  finish(results: unknown[]): Promise<void>;
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
  /** @internal The database the record writes through. */
  database(): StatementDatabase | Promise<StatementDatabase>;
  /** The record written; what `batch` resolves to for this item. */
  readonly record: R;
}

/** Whether a batch item is a record write rather than a Statement. */
export function isBatchable(item: unknown): item is Batchable {
  return typeof item === "object" && item !== null && "prepare" in item && "finish" in item && "database" in item && "record" in item;
}

/** Splits a batch's results among the items whose statements it ran, in order. */
export function resultsPerItem(results: readonly unknown[], statementsPerItem: ReadonlyArray<readonly unknown[]>): unknown[][] {
  let offset = 0;
  return statementsPerItem.map((statements) => results.slice(offset, (offset += statements.length)));
}

/**
 * Calls `finish` for every item even when one throws, because each record must still learn that its row was
 * written (its state, its after-callbacks); then rethrows the first error.
 */
export async function finishEach<T>(items: readonly T[], finish: (item: T, index: number) => Promise<void> | void): Promise<void> {
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
 * The statements of a call that D1 ran and that were read, each paired with the error another one's reading threw:
 * each told its `write:outcome` hooks of its success as it was read, so the failure that error makes of its save,
 * destroy or batch is not reported to it again.
 */
const readBeforeFailure = new WeakMap<Statement, unknown>();

/**
 * Reads every one of the `statements` D1 ran, in order, even after a reader threw (each write's `write:outcome`
 * hooks must hear of its success), then throws the first error; synchronous when no reader returns a promise.
 */
export function readEach(statements: readonly Statement[], read: (statement: Statement) => unknown): unknown[] | Promise<unknown[]> {
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
    for (const statement of statements) readBeforeFailure.set(statement, failure.error);
    throw failure.error;
  };
  return results.some((result) => result instanceof Promise) ? Promise.all(results).then(settled) : settled(results);
}

/**
 * The error a failed call throws: every write among `statements` that reports its failure (its `write:outcome`
 * hooks) sees `error` first, and the first one to replace it gives the error thrown instead. Statements that
 * report nothing (reads, a plugin's own) leave it as it is; record writes report through their batch item. A
 * statement read before `error` was thrown by reading another one already reported its success, and is skipped.
 */
export function reportedFailure(statements: readonly Statement[], error: unknown): unknown {
  return failEach(statements, error, (statement) => {
    if (readBeforeFailure.has(statement) && readBeforeFailure.get(statement) === error) {
      readBeforeFailure.delete(statement);
      return error;
    }
    return statement.reportFailure ? statement.reportFailure(error) : error;
  });
}

/**
 * A batch item's report of a failure: a record write reports to every write it holds (see `Batchable.failed`), a
 * Statement to its own. Returns the error a `write:outcome` hook put in its place, else `error`.
 */
export function failedItem(item: Statement | Batchable, error: unknown): unknown {
  return isBatchable(item) ? item.failed(error) : reportedFailure([item], error);
}
