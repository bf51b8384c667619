import type { D1DatabaseLike, QueryEvent } from "../kernel/index.js";
// Not in the plugin API: only these helpers hear every database's calls.
import { sendingSlot, sentSql } from "../kernel/database/sending.js";
import type { SentStatement } from "./recording-binding.js";

/**
 * Runs `work` so that every round trip a database connected with `binding` sends while it runs, whatever database
 * (a record keeps the one it was loaded through), is handed to `onRoundTrip` with its statements as sent, which numbers
 * it, then each of its query events to `onEvent`, as that database builds them (filtered values, real attempt) but
 * numbered in `onRoundTrip`'s round trips. What a helper running inside the work hears of its own binding is that
 * helper's alone; of another binding, it is passed on to the helper outside.
 */
export async function observingSends<T>(
  binding: D1DatabaseLike,
  onRoundTrip: (statements: SentStatement[]) => number,
  onEvent: (event: QueryEvent) => void,
  work: () => Promise<T>,
): Promise<T> {
  const outer = sendingSlot.observer;
  // Each try's own object: a round trip another database began before the work did is not among them.
  const numbers = new WeakMap<object, number>();
  sendingSlot.observer = {
    sent: (sent, statements, trip) => {
      if (sent !== binding) return outer?.sent(sent, statements, trip);
      numbers.set(trip, onRoundTrip(statements.map((statement) => ({ sql: sentSql(statement, trip), params: statement.params }))));
    },
    answered: (sent, event, trip) => {
      const roundTrip = numbers.get(trip);
      if (roundTrip === undefined) outer?.answered(sent, event, trip);
      else onEvent({ ...event, roundTrip });
    },
  };
  try {
    return await work();
  } finally {
    sendingSlot.observer = outer;
  }
}
