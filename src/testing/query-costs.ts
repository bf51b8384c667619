import { argumentError, connect, type D1DatabaseLike, optionsArgument, type QueryEvent, withDatabase } from "../kernel/index.js";
import { bindingOf, checkedWork } from "./arguments.js";
import { observingSends } from "./observed-sends.js";
import type { SentStatement } from "./recording-binding.js";

/** Options of the functions that count what a test's queries cost. */
export interface QueryCostOptions {
  /** The D1 binding the work runs on. Default: the Worker's `env.DB`. */
  binding?: D1DatabaseLike;
}

/** What some work cost: round trips (a batch is one), statements, rows read and written as D1 bills them. */
export interface QueryCosts<T> {
  /** What the work returned. */
  readonly result: T;
  /** The statements of each round trip, in order. */
  readonly roundTrips: SentStatement[][];
  /** One query event per statement D1 answered. */
  readonly events: QueryEvent[];
  readonly rowsRead: number;
  readonly rowsWritten: number;
}

/** What `work` cost on `binding`: see `countQueries`, whose arguments are checked by the helper that calls it. */
export async function costsOf<T>(work: () => T | Promise<T>, binding: D1DatabaseLike): Promise<QueryCosts<T>> {
  const roundTrips: SentStatement[][] = [];
  const events: QueryEvent[] = [];
  // Its own database is heard as any other database on the binding is.
  const database = connect(binding, { retries: false });
  const result = await observingSends(binding, (trip) => roundTrips.push(trip), (event) => events.push(event), async () => await withDatabase(database, work));
  const sum = (field: "rowsRead" | "rowsWritten") => events.reduce((total, event) => total + event[field], 0);
  return { result, roundTrips, events, rowsRead: sum("rowsRead"), rowsWritten: sum("rowsWritten") };
}

/**
 * Runs `work` on a database of its own (inside `withDatabase`, so Models query it without being told) and resolves to
 * what every query sent through the binding while it runs cost, whatever sends it (a record loaded before keeps the
 * database it was loaded through, whose queries are counted too): the round trips with their statements, the query
 * events (as each database builds them, filtered values masked, numbered in these round trips), and the rows D1 read
 * and wrote. Throws `TypeError` naming `countQueries` for work that is no function, and for an
 * option other than `binding`.
 */
export async function countQueries<T>(work: () => T | Promise<T>, options?: QueryCostOptions): Promise<QueryCosts<T>> {
  checkedWork("countQueries", work);
  const { binding } = optionsArgument("countQueries", options, ["binding"]);
  return await costsOf(work, await bindingOf("countQueries", binding));
}

/** The round trips as a failure message lists them. */
function listed(roundTrips: readonly SentStatement[][]): string {
  return roundTrips.map((trip, index) => `  ${index + 1}. ${trip.map((statement) => statement.sql).join("\n     ")}`).join("\n");
}

/**
 * Runs `work` (see `countQueries`) and throws, listing the SQL of every round trip, unless it took exactly `count`
 * round trips; resolves to what it returned. A promise tested as a promise: `await expectRoundTrips(1, () =>
 * Post.includes("comments").find(id))`. Throws `TypeError` naming `expectRoundTrips` for a count that is no whole
 * number, work that is no function, and an option other than `binding`.
 */
export async function expectRoundTrips<T>(count: number, work: () => T | Promise<T>, options?: QueryCostOptions): Promise<T> {
  if (!Number.isInteger(count) || count < 0) throw argumentError("expectRoundTrips", "a whole number of round trips", count);
  checkedWork("expectRoundTrips", work);
  const { binding } = optionsArgument("expectRoundTrips", options, ["binding"]);
  const { result, roundTrips } = await costsOf(work, await bindingOf("expectRoundTrips", binding));
  if (roundTrips.length !== count) {
    throw new Error(`expected ${count} round trip${count === 1 ? "" : "s"}, got ${roundTrips.length}:\n${listed(roundTrips)}`);
  }
  return result;
}
