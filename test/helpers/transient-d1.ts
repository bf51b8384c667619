/** When a faulty binding fails a call: before D1 runs it (nothing written), or after (its writes committed). */
export type FaultTiming = "before" | "after";

/** The error D1 throws for a lost connection, one it documents as transient. */
export const transientError = () => new Error("D1_ERROR: Network connection lost.");

/**
 * The SQL a call is told apart by: its text, less the clause a record's INSERT is retried with (see `ownRowClause`),
 * so that the retry of an INSERT counts as a later try of the same call.
 */
const callText = (sql: string) => sql.replace(/ ON CONFLICT \("[^"]*"\) DO UPDATE SET ("[^"]*") = excluded\.\1 WHERE \(.*\) IS \(.*\) RETURNING /, " RETURNING ");

/**
 * A D1 binding that fails the first try of each call (a lone statement, or a batch, told apart by their SQL texts)
 * with D1's transient error, `before` or `after` D1 ran it (then its writes are committed: it runs on the real local
 * D1 first); later tries of the same call go through. `calls` lists every call sent, as its SQL texts, failed ones
 * included.
 */
export function failingFirstTries(db: D1Database, timing: FaultTiming, error: () => Error = transientError): { binding: D1Database; calls: string[][] } {
  const calls: string[][] = [];
  const failed = new Set<string>();
  const run = async <T>(sqls: string[], call: () => Promise<T>): Promise<T> => {
    calls.push(sqls);
    const key = sqls.map(callText).join("\n");
    if (failed.has(key)) return call();
    failed.add(key);
    if (timing === "after") await call();
    throw error();
  };
  const prepared = new WeakMap<D1PreparedStatement, { sql: string; inner: D1PreparedStatement }>();
  const wrap = (sql: string, inner: D1PreparedStatement): D1PreparedStatement => {
    const statement: D1PreparedStatement = Object.assign(Object.create(inner) as D1PreparedStatement, {
      bind: (...values: unknown[]) => wrap(sql, inner.bind(...values)),
      all: () => run([sql], () => inner.all()),
      run: () => run([sql], () => inner.run()),
      first: (column?: string) => run([sql], () => (column === undefined ? inner.first() : inner.first(column))),
      raw: (options?: { columnNames?: boolean }) => run([sql], () => inner.raw(options as { columnNames: true })),
    });
    prepared.set(statement, { sql, inner });
    return statement;
  };
  const binding = Object.assign(Object.create(db) as D1Database, {
    prepare: (sql: string) => wrap(sql, db.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) =>
      run(
        statements.map((statement) => prepared.get(statement)!.sql),
        () => db.batch(statements.map((statement) => prepared.get(statement)!.inner)),
      ),
  });
  return { binding, calls };
}
