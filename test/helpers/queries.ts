import { env } from "cloudflare:test";
import { recordRoundTrips } from "./round-trips.js";
import { connect, type D1DatabaseLike, type Database, type QueryEvent, withDatabase } from "../../src/index.js";

/** A database on `binding` (the test D1 by default) whose query events are collected; `models` come bound to it under their own names. */
export function listen<const Models extends Record<string, Function> = {}>(
  options: { binding?: D1DatabaseLike; models?: Models } = {},
): { db: Database; events: QueryEvent[]; sqls: () => string[] } & Models {
  const events: QueryEvent[] = [];
  const db = connect(options.binding ?? env.DB, { onQuery: (event) => events.push(event) });
  const bound = Object.fromEntries(Object.entries(options.models ?? {}).map(([name, model]) => [name, db.model(model)]));
  return { ...(bound as Models), db, events, sqls: () => events.map((event) => event.sql) };
}

/** The number of rows in `table`, read straight from D1. */
export async function countRows(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
}

/**
 * A D1 binding over the test database that records each round trip: a lone query as one SQL text, a batch as the
 * list of its SQL texts (the guide's recorder, helpers/round-trips.ts).
 */
export function recordingRoundTrips(): { binding: D1Database; roundTrips: string[][] } {
  return recordRoundTrips(env.DB);
}

/** Runs `work` inside a database whose round trips are recorded (each the list of its SQL texts); `work` may clear them. */
export async function withRecordedRoundTrips(work: (roundTrips: string[][]) => Promise<void>): Promise<void> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), () => work(roundTrips));
}

/** The start of each statement of a round trip, its first two words: `UPDATE "posts"`, `DELETE FROM`, ... */
export function statementHeads(trip: readonly string[]): string[] {
  return trip.map((text) => text.split(" ").slice(0, 2).join(" "));
}
