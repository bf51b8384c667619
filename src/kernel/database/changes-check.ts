import type { Statement } from "../sql/statement.js";
import { WriteConflict } from "../persistence/write-conflict.js";

/**
 * What checks, inside one atomic batch, the statements that demand a number of changed rows. Only writes a plugin
 * narrows need it, so the kernel keeps this slot and `installChangesGuard` (plugin API) fills it: a Worker whose
 * plugins never demand a count bundles none of it.
 */
export interface BatchChangesGuard {
  /** The statements of a batch with a guard after each that demands a number of changed rows. */
  guarded(sent: readonly Statement[]): readonly Statement[];
  /** Whether a statement is a guard that `guarded` added. */
  isGuard(statement: Statement): boolean;
  /** The conflict of the statement whose guard failed the batch with `error`, or undefined for any other error. */
  conflict(error: unknown, sent: readonly Statement[]): WriteConflict | undefined;
}

/** @internal The installed batch guard, if any. */
export const changesGuardSlot: { guard?: BatchChangesGuard } = {};

/**
 * The statements of a batch as sent: with the installed guards when one demands a number of changed rows. Throws
 * `TypeError` naming the Model when none is installed, rather than sending a batch whose count nothing checks.
 */
export function guardedBatch(sent: readonly Statement[]): readonly Statement[] {
  if (sent.length < 2) return sent;
  const demanding = sent.find((statement) => statement.expectedChanges !== undefined);
  if (demanding === undefined) return sent;
  const { guard } = changesGuardSlot;
  if (guard === undefined) {
    const what = demanding.model ? `${demanding.model.name}: ` : "db.runAll: ";
    throw new TypeError(`${what}a statement demanding expectedChanges in a batch needs the changes guard; call installChangesGuard() (plugin API) where the plugin or statement sets expectedChanges`);
  }
  return guard.guarded(sent);
}

/**
 * How many statements D1 runs for `statements` in an atomic batch with others, each counted toward D1's limits on
 * queries: every part of a Statement sent as several, and the guard that follows each one demanding a number of
 * changed rows (see `guardedBatch`).
 */
export function statementsInBatch(statements: readonly Statement[]): number {
  const sent = statements.flatMap((statement) => statement.parts ?? [statement]);
  return sent.length + sent.filter((statement) => statement.expectedChanges !== undefined).length;
}

/** The rows a statement changed, as D1's `meta` counts them (0 when it does not say). */
export function rowsChanged(meta: Record<string, unknown>): number {
  return Number(meta["changes"] ?? 0);
}

/** Throws `WriteConflict` when a statement run alone changed other than the rows it demanded. */
export function checkChanges(statement: Statement, meta: Record<string, unknown>): void {
  if (statement.expectedChanges === undefined) return;
  const changes = rowsChanged(meta);
  if (changes !== statement.expectedChanges) throw new WriteConflict(statement, changes);
}
