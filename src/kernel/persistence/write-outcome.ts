import type { WriteOutcome } from "../plugin-api/hooks.js";
import type { Statement } from "../sql/statement.js";
import { WriteConflict } from "./write-conflict.js";
import type { PlannedWrite } from "./write-plan.js";

/**
 * How a write reports its outcome to the `write:outcome` hooks: a record's own write, a bulk insert or upsert,
 * `updateAll`, `deleteAll` and the dependents' set-based writes all report through it, success or failure alike.
 */
export interface OutcomeReport {
  /** The write ran: it changed `changes` rows, and its `RETURNING` brought back `rows`. */
  succeeded(changes: number, rows: readonly Record<string, unknown>[]): void;
  /** It, or its batch, failed with `error`: returns the error to throw, a hook's own when one threw. */
  failed(error: unknown): unknown;
}

/**
 * The outcome report of the write `plan` became as `statement` (undefined for a write that failed before it became
 * one); undefined when no `write:outcome` hook awaits it.
 */
export function outcomeReport(plan: PlannedWrite, statement: Statement | undefined): OutcomeReport | undefined {
  const { hooks } = plan.model;
  if (!hooks.has("write:outcome")) return undefined;
  const call = (outcome: WriteOutcome) => hooks.callEachSync("write:outcome", outcome);
  return {
    succeeded(changes, rows) {
      call({ plan, statement, changes, rows, error: undefined, conflict: false });
    },
    failed(error) {
      // A write sent with the statements hooks added conflicts as its own part.
      const conflict =
        statement !== undefined && error instanceof WriteConflict && (error.statement === statement || statement.parts?.some((part) => part === error.statement) === true);
      try {
        call({ plan, statement, changes: conflict ? error.changes : undefined, rows: [], error, conflict });
      } catch (replaced) {
        return replaced;
      }
      return error;
    },
  };
}
