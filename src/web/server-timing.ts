import type { Database } from "../kernel/index.js";

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * Starts counting what a request's database spends: returns the function that gives it as a `Server-Timing` entry,
 * `d1;desc="2 round trips, 7 rows read, 0 rows written";dur=1.25` (`dur`: the milliseconds D1 reports, summed), which
 * the browser's developer tools show beside the request.
 */
export function meterQueries(database: Database): () => string {
  const roundTrips = new Set<number>();
  let rowsRead = 0;
  let rowsWritten = 0;
  let durationMs = 0;
  database.onQuery((event) => {
    roundTrips.add(event.roundTrip);
    rowsRead += event.rowsRead;
    rowsWritten += event.rowsWritten;
    durationMs += event.durationMs;
  });
  return () => {
    const description = `${plural(roundTrips.size, "round trip")}, ${plural(rowsRead, "row")} read, ${plural(rowsWritten, "row")} written`;
    return `d1;desc="${description}";dur=${durationMs.toFixed(2)}`;
  };
}
