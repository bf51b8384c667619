import { argumentError, checkedBinding, type D1DatabaseLike, type D1PreparedStatementLike } from "../kernel/index.js";

/** A statement as sent: its SQL and the values bound to it. */
export interface SentStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** A prepared statement's optional readers, which a recording binding keeps and counts like `all` and `run`. */
interface OptionalReaders {
  first?(column?: string): Promise<unknown>;
  raw?(options?: unknown): Promise<unknown>;
}

/**
 * Wraps a D1 binding so that each round trip it sends (a lone statement, or a batch) is handed to `onRoundTrip` with
 * the SQL and values of its statements. Everything else of the binding (`withSession`, `dump`, a statement's `first`
 * and `raw`) is kept: the wrapper inherits from what it wraps. Throws `TypeError` naming `recordingBinding` for a
 * binding that is none, or an `onRoundTrip` that is no function.
 */
export function recordingBinding<Binding extends D1DatabaseLike>(
  binding: Binding,
  onRoundTrip: (statements: SentStatement[]) => void,
): Binding {
  checkedBinding("recordingBinding", binding);
  if (typeof onRoundTrip !== "function") throw argumentError("recordingBinding", "a D1 binding, then a function given each round trip's statements", onRoundTrip);
  const sent = new WeakMap<D1PreparedStatementLike, SentStatement & { inner: D1PreparedStatementLike }>();
  const wrap = (sql: string, params: readonly unknown[], inner: D1PreparedStatementLike & OptionalReaders): D1PreparedStatementLike => {
    const send = <T>(answer: Promise<T>): Promise<T> => (onRoundTrip([{ sql, params }]), answer);
    const statement: D1PreparedStatementLike & OptionalReaders = Object.assign(Object.create(inner) as D1PreparedStatementLike, {
      bind: (...values: unknown[]) => wrap(sql, values, inner.bind(...values)),
      all: () => send(inner.all()),
      run: () => send(inner.run()),
      ...(inner.first && { first: (column?: string) => send(column === undefined ? inner.first!() : inner.first!(column)) }),
      ...(inner.raw && { raw: (options?: unknown) => send(inner.raw!(options)) }),
    });
    sent.set(statement, { sql, params, inner });
    return statement;
  };
  return Object.assign(Object.create(binding) as Binding, {
    prepare: (sql: string) => wrap(sql, [], binding.prepare(sql)),
    batch: (statements: D1PreparedStatementLike[]) => {
      const known = statements.map((statement) => sent.get(statement)!);
      const answer = binding.batch(known.map((statement) => statement.inner));
      onRoundTrip(known.map(({ sql, params }) => ({ sql, params })));
      return answer;
    },
  });
}
