import type { D1DatabaseLike, QueryEvent } from "../kernel/index.js";
// Not in the plugin API: only these helpers send a database's calls through another binding.
import { sendingSlot } from "../kernel/database/sending.js";
import { recording, type SentStatement } from "./recording-binding.js";

/**
 * Runs `work` so that the calls every other database sends through `binding` while it runs are recorded too: a record
 * keeps the database it was loaded through, which the helper's own database (sending through a recording binding of
 * its own, never `binding` itself) does not replace. Each such round trip is handed to `onRoundTrip` with its
 * statements, then its query events to `onEvents` once D1 answered, before its sender goes on. What a helper running
 * inside the work sends is that helper's alone, as its own database's queries are.
 */
export async function recordingOtherSenders<T>(
  binding: D1DatabaseLike,
  onRoundTrip: (statements: SentStatement[]) => number,
  onEvents: (events: QueryEvent[]) => void,
  work: () => Promise<T>,
): Promise<T> {
  const outer = sendingSlot.through;
  const recorded = recording(binding, (statements, answer, batched) => {
    const roundTrip = onRoundTrip(statements);
    const eventsOf = (answers: readonly unknown[], error?: unknown) =>
      statements.map((statement, index) => eventOf(statement, answers[index], { batched, roundTrip, error }));
    // Handled here, before its sender awaits it: the events are in before the sender goes on, and a failure is the
    // sender's to throw (this branch only reports it).
    answer.then(
      (answered) => onEvents(eventsOf(batched ? (answered as unknown[]) : [answered])),
      (error: unknown) => onEvents(eventsOf([], error)),
    );
  });
  sendingSlot.through = (sent) => {
    const mine = sent === binding ? recorded : sent;
    return outer ? outer(mine) : mine;
  };
  try {
    return await work();
  } finally {
    sendingSlot.through = outer;
  }
}

/**
 * The query event of a statement another database sent, made from D1's answer as that database makes its own (its
 * `meta`; none for `first` and `raw`), with the values as bound (its attributes, filtered or not, are not known here)
 * and numbered in the helper's round trips.
 */
function eventOf(statement: SentStatement, answered: unknown, trip: { batched: boolean; roundTrip: number; error: unknown }): QueryEvent {
  const meta = (answered as { meta?: Record<string, unknown> } | undefined)?.meta;
  return {
    ...(trip.error === undefined ? {} : { error: trip.error }),
    sql: statement.sql,
    params: statement.params,
    durationMs: Number(meta?.["duration"] ?? 0),
    rowsRead: Number(meta?.["rows_read"] ?? 0),
    rowsWritten: Number(meta?.["rows_written"] ?? 0),
    batched: trip.batched,
    roundTrip: trip.roundTrip,
    attempt: 1,
  };
}
