import type { QueryEvent } from "recordflare";

/** The queries of one request, as the SQL panel shows them. */
export class QueryLog {
  readonly events: QueryEvent[] = [];
  roundTrips = 0;
  private batchOpen = false;

  constructor(readonly label: string) {}

  /** The `onQuery` listener. */
  readonly record = (event: QueryEvent): void => {
    this.events.push(event);
    // The events of one batch arrive together, in one synchronous run after it returns: they are one round trip.
    if (!event.batched) this.roundTrips += 1;
    else if (!this.batchOpen) {
      this.roundTrips += 1;
      this.batchOpen = true;
      queueMicrotask(() => (this.batchOpen = false));
    }
  };

  /** Rows D1 read for this request, as billed. */
  get rowsRead(): number {
    return this.events.reduce((sum, event) => sum + event.rowsRead, 0);
  }

  /** Rows D1 wrote for this request, as billed. */
  get rowsWritten(): number {
    return this.events.reduce((sum, event) => sum + event.rowsWritten, 0);
  }

  /** The time D1 reported for this request's queries. */
  get durationMs(): number {
    return this.events.reduce((sum, event) => sum + event.durationMs, 0);
  }
}
