import type { D1DatabaseLike } from "./d1.js";
import type { QueryEvent, RoundTrip } from "../sql/query-event.js";
import type { Statement } from "../sql/statement.js";

/**
 * @internal What the testing helpers hear of every database's calls while they count queries (`countQueries`), so
 * that a database they did not open (the one a record loaded before keeps) is counted too. Each is told the binding
 * the database was connected with and the try it belongs to (one object per try, the same for its events).
 */
export interface SendObserver {
  /** A try about to be sent, with its statements (`sentSql` gives the SQL each is sent as). */
  sent(binding: D1DatabaseLike, statements: readonly Statement[], trip: RoundTrip): void;
  /** The event of one of its statements, as the database's query listeners get it. */
  answered(binding: D1DatabaseLike, event: QueryEvent, trip: RoundTrip): void;
}

/** @internal Where the testing helpers set their `SendObserver` while their work runs; unset, a call costs one check. */
export const sendingSlot: { observer?: SendObserver } = {};

/**
 * The SQL a Statement is sent as in a try: after its comment, and on a retry (`attempt` over 1) in the form it is
 * retried in, if it has one.
 */
export function sentSql(statement: Statement, trip: RoundTrip): string {
  return trip.comment + (trip.attempt > 1 ? (statement.retrySql ?? statement.sql) : statement.sql);
}
