import { Statement } from "./statement.js";
import { WriteConflict } from "./write-conflict.js";

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

/** The statements of a batch with a guard after each that demands a number of changed rows. */
export function withGuards(sent: readonly Statement[]): readonly Statement[] {
  if (sent.length < 2 || !sent.some((statement) => statement.expectedChanges !== undefined)) return sent;
  return sent.flatMap((statement, index) => (statement.expectedChanges === undefined ? [statement] : [statement, guardOf(statement.expectedChanges, index)]));
}

/** Whether a statement is a guard that `withGuards` added. */
export function isGuard(statement: Statement): boolean {
  return guards.has(statement);
}

/** The conflict of the statement whose guard failed the batch with `error`, or undefined for any other error. */
export function guardConflict(error: unknown, sent: readonly Statement[]): WriteConflict | undefined {
  const message = error instanceof Error ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}` : "";
  const failed = GUARD_ERROR.exec(message);
  const statement = failed ? sent[Number(failed[1])] : undefined;
  return statement ? new WriteConflict(statement, undefined) : undefined;
}

/** Throws `WriteConflict` when a statement run alone changed other than the rows it demanded. */
export function checkChanges(statement: Statement, meta: Record<string, unknown>): void {
  if (statement.expectedChanges === undefined) return;
  const changes = Number(meta["changes"] ?? 0);
  if (changes !== statement.expectedChanges) throw new WriteConflict(statement, changes);
}
