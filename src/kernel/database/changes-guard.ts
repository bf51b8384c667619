import { Statement } from "../sql/statement.js";
import { changesGuardSlot } from "./changes-check.js";
import { WriteConflict } from "../persistence/write-conflict.js";

/**
 * A Statement that demands a number of changed rows is checked by D1's `meta.changes` when it runs alone. In a batch
 * with others a failed check must undo them all, so a guard follows it in the same batch: `changes()` (not constant,
 * so SQLite cannot fold it) picks a bad JSON path when the count is not the one demanded, which fails the statement,
 * and D1 rolls the whole batch back. The path names the guarded statement, so its error says which one it was.
 */
const GUARD_MARK = "recordflare changes guard ";
const GUARD_ERROR = new RegExp(`${GUARD_MARK}(\\d+)`);
const guards = new WeakSet<Statement>();

function guardOf(expected: number, index: number): Statement {
  const sql = `SELECT json_extract('{}', CASE changes() WHEN ${expected} THEN '$' ELSE '${GUARD_MARK}${index}' END) AS "guard"`;
  const guard = new Statement({ sql, params: [] }, undefined, "rows", (rows) => rows);
  guards.add(guard);
  return guard;
}

function withGuards(sent: readonly Statement[]): readonly Statement[] {
  return sent.flatMap((statement, index) => (statement.expectedChanges === undefined ? [statement] : [statement, guardOf(statement.expectedChanges, index)]));
}

function guardConflict(error: unknown, sent: readonly Statement[]): WriteConflict | undefined {
  const message = error instanceof Error ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}` : "";
  const failed = GUARD_ERROR.exec(message);
  const statement = failed ? sent[Number(failed[1])] : undefined;
  return statement ? new WriteConflict(statement, undefined) : undefined;
}

/**
 * Installs the guard that checks, inside an atomic batch, the statements demanding `expectedChanges`. Plugin API:
 * a plugin whose `write:plan` hook sets `expectedChanges`, or code that batches a `defineStatement` with one, calls it
 * first (it is idempotent and cheap); a batch with such a statement and no guard throws `TypeError`. A statement
 * run alone is checked by D1's `meta.changes` without it.
 */
export function installChangesGuard(): void {
  changesGuardSlot.guard ??= { guarded: withGuards, isGuard: (statement) => guards.has(statement), conflict: guardConflict };
}
