/**
 * The SQL of each round trip a binding sends, through `recordflare/testing`'s `recordingBinding` (which keeps every
 * method of the binding it wraps: `first`, `raw`, `withSession`). The suite's `recordingRoundTrips`
 * (helpers/queries.ts) is this one over the test database.
 */
import { recordingBinding } from "../../src/testing/index.js";

/** Wraps a D1 binding to record its round trips: the SQL of the statements each one sent. */
export function recordRoundTrips(db: D1Database): { binding: D1Database; roundTrips: string[][] } {
  const roundTrips: string[][] = [];
  const binding = recordingBinding(db, (statements) => roundTrips.push(statements.map((statement) => statement.sql)));
  return { binding, roundTrips };
}
