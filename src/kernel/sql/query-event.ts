import { jsonOfBound } from "./bound-json.js";
import type { ParamSource } from "./param-source.js";

/** What a listener passed as `onQuery` receives for each query sent. */
export interface QueryEvent {
  readonly sql: string;
  /** The bound values; values of filtered attributes show as `[FILTERED]`. */
  readonly params: readonly unknown[];
  /** Time D1 reports for the query, in milliseconds. */
  readonly durationMs: number;
  /** Rows the database read, as billed. */
  readonly rowsRead: number;
  /** Rows the database wrote, as billed. */
  readonly rowsWritten: number;
  /** Whether the query was sent as part of a batch. */
  readonly batched: boolean;
  /** The round trip it was sent in, numbered from 1 per connection: queries sent together share it. */
  readonly roundTrip: number;
  /** Which try of its round trip this is: 1, or more when the connection retried it after a transient error. */
  readonly attempt: number;
  /** The error the query (or its batch) failed with; the same error is thrown to the caller. */
  readonly error?: unknown;
}

/** A query as printed: its SQL, its bound values and where each came from (a Statement, or a compiled query). */
interface PrintedQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly sources: ReadonlyArray<ParamSource | undefined>;
}

const FILTERED = "[FILTERED]";

function filterRows(json: string, columns: readonly { filtered: boolean }[]): string {
  if (!columns.some((column) => column.filtered)) return json;
  const rows = JSON.parse(json) as unknown[][];
  for (const row of rows) {
    columns.forEach((column, index) => {
      if (column.filtered) row[index] = FILTERED;
    });
  }
  return JSON.stringify(rows);
}

function displayParam(value: unknown, source: ParamSource | undefined): unknown {
  if (source === undefined) return value;
  switch (source.kind) {
    case "value":
      return source.attribute.filtered ? FILTERED : value;
    case "list":
      return source.attribute.filtered ? JSON.stringify((JSON.parse(value as string) as unknown[]).map(() => FILTERED)) : value;
    case "rows":
      return filterRows(value as string, source.columns);
    case "spilled":
      return `[${source.values.map((spilled, index) => jsonOfBound(displayParam(spilled, source.sources[index]))).join(",")}]`;
  }
}

/** The bound values of a Statement (or a compiled query) as query events show them. */
function displayParams(query: PrintedQuery): unknown[] {
  return query.params.map((value, index) => displayParam(value, query.sources[index]));
}

/** A query's SQL and its bound values as query events show them, for printing a Relation or a Statement. */
export function printQuery(query: PrintedQuery): string {
  return `${query.sql} ${JSON.stringify(displayParams(query))}`;
}

/** The round trip a query was sent in: batched or alone, its number, and which try of it. */
export interface RoundTrip {
  readonly batched: boolean;
  readonly number: number;
  readonly attempt: number;
  /** The comment its statements were sent with (`/* ... *\/ `), or "". */
  readonly comment: string;
}

/** Builds the event for one query from its Statement, its round trip and D1's `meta`. */
export function queryEvent(statement: PrintedQuery, meta: Record<string, unknown> | undefined, trip: RoundTrip, error?: unknown): QueryEvent {
  return {
    ...(error === undefined ? {} : { error }),
    sql: trip.comment + statement.sql,
    params: displayParams(statement),
    durationMs: Number(meta?.["duration"] ?? 0),
    rowsRead: Number(meta?.["rows_read"] ?? 0),
    rowsWritten: Number(meta?.["rows_written"] ?? 0),
    batched: trip.batched,
    roundTrip: trip.number,
    attempt: trip.attempt,
  };
}
