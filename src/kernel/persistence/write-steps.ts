import { failedItem, failEach, finishEach, isBatchable, resultsPerItem } from "../database/batchable.js";
import type { BatchItem, Database } from "../database/database.js";
import { RecordNotDestroyed, RecordNotSaved } from "../errors.js";
import type { RecordState } from "../records/record-state.js";
import type { Statement } from "../sql/statement.js";
import { RecordInvalid } from "./record-invalid.js";

/**
 * A write whose checks passed: validations and before-hooks have run, for the record and for every write they added
 * (children, new parents, dependents). Nothing is built or written yet.
 */
export interface CheckedWrite {
  /** Builds the statements (after the `record:write` hooks) and what finishes the write once they ran. */
  build(): PreparedWrite | Promise<PreparedWrite>;
  /** The write will not be made (its batch failed, or a hook threw): puts back every record it touched. */
  abandon(): void;
}

/** A write built in full, that a batch can run with others. */
export interface PreparedWrite {
  readonly statements: Statement[];
  finish(results: unknown[], database: Database): Promise<void> | void;
  /** Its statements, or their batch, failed with `error`: the error to throw instead (a `write:outcome` hook's). */
  failed(error: unknown): unknown;
}

/** The extra writes of a write, built; `unsent` reports a failure to them when they were never sent. */
interface PreparedExtras extends PreparedWrite {
  /** Every write among them reports `error`, their Statements too (no send reported it to them); see `failedItem`. */
  unsent(error: unknown): unknown;
}

/**
 * Builds the extra writes hooks asked for (already checked), returning their statements and a way to finish them.
 * When one's preparation throws, those built before it report the failure (nothing else will: they are sent by no one).
 */
async function prepareExtras(extras: readonly BatchItem[]): Promise<PreparedExtras> {
  const statements: Statement[][] = [];
  const unsent = (error: unknown) => failEach(extras.slice(0, statements.length), error, (extra, index) => failedItem(extra, statements[index], error));
  try {
    for (const extra of extras) statements.push(isBatchable(extra) ? await extra.prepare() : [extra]);
  } catch (error) {
    throw unsent(error);
  }
  return {
    statements: statements.flat(),
    async finish(results) {
      const own = resultsPerItem(results, statements);
      await finishEach(extras, (extra, index) => (isBatchable(extra) ? extra.finish(own[index]!) : undefined));
    },
    failed: (error) => failEach(extras, error, (extra) => (isBatchable(extra) ? extra.failed(error) : error)),
    unsent,
  };
}

/**
 * A write with the extra writes hooks asked for (already checked) sent before and after it in its batch; each is
 * prepared in that order, `own` giving the write itself. Each part is finished even when another's finish throws,
 * and each sees a failure: when a part's preparation throws, the parts built before it see it at once.
 */
export async function withExtras(
  before: readonly BatchItem[],
  own: () => PreparedWrite | Promise<PreparedWrite>,
  after: readonly BatchItem[],
): Promise<PreparedWrite> {
  const first = await prepareExtras(before);
  const parts: PreparedWrite[] = [first];
  try {
    parts.push(await own());
    parts.push(await prepareExtras(after));
  } catch (error) {
    throw failEach(parts, error, (part) => (part === first ? first.unsent(error) : part.failed(error)));
  }
  return {
    statements: parts.flatMap((part) => part.statements),
    async finish(results, database) {
      const resultsOf = resultsPerItem(results, parts.map((part) => part.statements));
      await finishEach(parts, (part, index) => part.finish(resultsOf[index]!, database));
    },
    failed: (error) => failEach(parts, error, (part) => part.failed(error)),
  };
}

/**
 * Checks the writes hooks added to a save or destroy (children built through an association, a new parent,
 * dependents, children written later). One that is refused refuses the whole operation, so that `save()` or
 * `destroy()` answers false as for the record's own refusal: an invalid one's reasons go to the record's `errors`,
 * an aborted one's to its `abortReason`. Nothing has been written then.
 */
export async function checkExtras(state: RecordState, extras: readonly BatchItem[]): Promise<boolean> {
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
