import { failedItem, failEach, finishEach, isBatchable } from "../database/batchable.js";
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
  /**
   * The write failed with `error` before its statements ran, or with them: whatever step it reached, every write of
   * it (the record's own, and each one its hooks added) reports `error` once, in the order they are sent. Returns the
   * error to throw (the first one a `write:outcome` hook threw in its place).
   */
  failed(error: unknown): unknown;
  /** The write will not be made (its batch failed, or a hook threw): puts back every record it touched. */
  abandon(): void;
  /** Its checks were refused: the writes they added, checked too, hold their records no more (see `WriteInProgress`). */
  release(): void;
}

/** A write built in full, that a batch can run with others. */
export interface PreparedWrite {
  readonly statements: Statement[];
  /** Finishes it with the results of its statements, which start at `from` in `results` (0 unless given). */
  finish(results: unknown[], database: Database, from?: number): Promise<void> | void;
}

/** The lists of statements this module joined: no one else holds them, so a list that joins them may grow one. */
const joinedLists = new WeakSet<Statement[]>();

/**
 * The statements of `lists` in order, with where each list starts among them. The first list grows into the whole
 * when this module joined it, rather than being copied: a destroy's dependents thousands of levels deep join each
 * level's DELETE to the list of the levels below, once each, not the whole list again at every level.
 */
function joined(lists: readonly Statement[][]): { statements: Statement[]; starts: number[] } {
  const first = lists[0] ?? [];
  const statements = joinedLists.has(first) ? first : [...first];
  const starts = [0];
  for (const list of lists.slice(1)) {
    starts.push(statements.length);
    for (const statement of list) statements.push(statement);
  }
  joinedLists.add(statements);
  return { statements, starts };
}

/** Builds the extra writes hooks asked for (already checked), returning their statements and a way to finish them. */
async function prepareExtras(extras: readonly BatchItem[]): Promise<PreparedWrite> {
  const lists: Statement[][] = [];
  for (const extra of extras) lists.push(isBatchable(extra) ? await extra.prepare() : [extra]);
  const { statements, starts } = joined(lists);
  return {
    statements,
    async finish(results, _database, from = 0) {
      await finishEach(extras, (extra, index) => (isBatchable(extra) ? extra.finish(results, from + starts[index]!) : undefined));
    },
  };
}

/**
 * A write with the extra writes hooks asked for (already checked) sent before and after it in its batch; each is
 * prepared in that order, `own` giving the write itself. Each part is finished even when another's finish throws.
 * A failure is reported by the operation (see `failedInOrder`), which knows every write of it, prepared or not.
 */
export async function withExtras(
  before: readonly BatchItem[],
  own: () => PreparedWrite | Promise<PreparedWrite>,
  after: readonly BatchItem[],
): Promise<PreparedWrite> {
  const parts = [await prepareExtras(before), await own(), await prepareExtras(after)];
  const { statements, starts } = joined(parts.map((part) => part.statements));
  return {
    statements,
    async finish(results, database, from = 0) {
      await finishEach(parts, (part, index) => part.finish(results, database, from + starts[index]!));
    },
  };
}

/**
 * Reports a failed save's or destroy's `error` to each of its writes once, in the order they are sent: the extra
 * writes sent `before` its own, its own (`ownFailed`), those sent `after` it. Each extra reports whatever step it
 * reached (see `failedItem`). Returns the first error a `write:outcome` hook put in its place, else `error`.
 */
export function failedInOrder(before: readonly BatchItem[], ownFailed: (error: unknown) => unknown, after: readonly BatchItem[], error: unknown): unknown {
  const reports = [...before.map((item) => () => failedItem(item, error)), () => ownFailed(error), ...after.map((item) => () => failedItem(item, error))];
  return failEach(reports, error, (report) => report());
}

/** None of the writes hooks added will be made: those checked already hold their records no more. */
export function releaseEach(extras: readonly BatchItem[]): void {
  for (const extra of extras) if (isBatchable(extra)) extra.release?.();
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
      releaseEach(extras);
      return false;
    }
  }
  return true;
}
