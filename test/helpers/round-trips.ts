/**
 * A binding that records the SQL of each round trip it sends, keeping every method of the binding it wraps (`first`,
 * `raw`, `withSession`): the suite's `recordingRoundTrips` (helpers/queries.ts) is this one over the test database.
 * Apps count round trips with `recordflare/testing`'s `countQueries` and `expectRoundTrips`.
 */

/** Wraps a D1 binding to record its round trips: the SQL of the statements each one sent. */
export function recordRoundTrips(db: D1Database): { binding: D1Database; roundTrips: string[][] } {
  const roundTrips: string[][] = [];
  const prepared = new WeakMap<D1PreparedStatement, { sql: string; inner: D1PreparedStatement }>();
  const wrap = (sql: string, inner: D1PreparedStatement): D1PreparedStatement => {
    const send = <T>(result: T): T => (roundTrips.push([sql]), result);
    const statement: D1PreparedStatement = Object.assign(Object.create(inner) as D1PreparedStatement, {
      bind: (...values: unknown[]) => wrap(sql, inner.bind(...values)),
      all: () => send(inner.all()),
      run: () => send(inner.run()),
      first: (column?: string) => send(column === undefined ? inner.first() : inner.first(column)),
      raw: (options?: { columnNames?: boolean }) => send(inner.raw(options as { columnNames: true })),
    });
    prepared.set(statement, { sql, inner });
    return statement;
  };
  const binding = Object.assign(Object.create(db) as D1Database, {
    prepare: (sql: string) => wrap(sql, db.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) => {
      roundTrips.push(statements.map((statement) => prepared.get(statement)!.sql));
      return db.batch(statements.map((statement) => prepared.get(statement)!.inner));
    },
  });
  return { binding, roundTrips };
}
