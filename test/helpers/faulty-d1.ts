import { env } from "cloudflare:test";

/**
 * Where a `faultyD1` binding fails: the `call`th call (a lone statement or a whole batch: refused before it is
 * sent), or the `statement`th statement (counted across lone statements and batches: that statement is replaced by
 * one that fails inside D1, so that a batch holding it fails whole and D1 itself rolls back what ran before it).
 */
export type Fault = { call: number } | { statement: number };

/** What a `faultyD1` binding sent since its last `failAt`. */
export interface Sent {
  calls: number;
  statements: number;
}

/** The message of an injected fault, as D1 words its own errors. */
export const INJECTED = "D1_ERROR: injected fault";

/** A statement that D1 prepares and then fails to run (the text is not JSON), so its batch is rolled back. */
const FAILING_SQL = "SELECT json('injected fault: not JSON') AS failed";

type Wrapped = D1PreparedStatement & { inner: D1PreparedStatement };

/**
 * A D1 binding over `env.DB` (the suite's, enforcing D1's limits) that fails where `failAt` says, counting every call
 * and statement from then on (`sent`). Without a fault it passes everything through and only counts.
 */
export function faultyD1(): { binding: D1Database; sent: Sent; failAt(fault?: Fault): void } {
  const sent: Sent = { calls: 0, statements: 0 };
  let fault: Fault | undefined;
  const nextCallFails = () => ++sent.calls === (fault && "call" in fault ? fault.call : 0);
  const nextStatementFails = () => ++sent.statements === (fault && "statement" in fault ? fault.statement : 0);
  const refused = () => Promise.reject(new Error(`${INJECTED} at call ${sent.calls}`));
  // A lone statement is a call and a statement: refused before sending, or sent as the failing statement.
  const lone = <T>(inner: D1PreparedStatement, send: (statement: D1PreparedStatement) => Promise<T>): Promise<T> => {
    const failsCall = nextCallFails();
    const failsStatement = nextStatementFails();
    if (failsCall) return refused();
    return failsStatement ? (env.DB.prepare(FAILING_SQL).all() as Promise<T>) : send(inner);
  };
  const wrap = (inner: D1PreparedStatement): Wrapped =>
    Object.assign(Object.create(inner) as D1PreparedStatement, {
      inner,
      bind: (...values: unknown[]) => wrap(inner.bind(...values)),
      all: () => lone(inner, (statement) => statement.all()),
      run: () => lone(inner, (statement) => statement.run()),
      raw: (options?: { columnNames?: boolean }) => lone(inner, (statement) => statement.raw(options as { columnNames: true })),
      first: (column?: string) => lone(inner, (statement) => (column === undefined ? statement.first() : statement.first(column))),
    }) as Wrapped;
  const batch = (statements: Wrapped[]) => {
    const failsCall = nextCallFails();
    const sending = statements.map((statement) => (nextStatementFails() ? env.DB.prepare(FAILING_SQL) : statement.inner));
    return failsCall ? refused() : env.DB.batch(sending);
  };
  const binding = { prepare: (sql: string) => wrap(env.DB.prepare(sql)), batch } as unknown as D1Database;
  return {
    binding,
    sent,
    failAt(next) {
      fault = next;
      sent.calls = 0;
      sent.statements = 0;
    },
  };
}
