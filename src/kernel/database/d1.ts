/** The parts of a D1 prepared statement that recordflare uses. */
export interface D1PreparedStatementLike {
  bind(...values: unknown[]): D1PreparedStatementLike;
  all<T = Record<string, unknown>>(): Promise<{ results: T[]; meta: Record<string, unknown> }>;
  run<T = Record<string, unknown>>(): Promise<{ results?: T[]; meta: Record<string, unknown> }>;
}

/** The parts of a D1 binding (or a D1 session) that recordflare uses. */
export interface D1DatabaseLike {
  prepare(sql: string): D1PreparedStatementLike;
  batch<T = Record<string, unknown>>(statements: D1PreparedStatementLike[]): Promise<{ results?: T[]; meta: Record<string, unknown> }[]>;
  withSession?(constraintOrBookmark?: string): D1DatabaseLike & { getBookmark(): string | null };
  getBookmark?(): string | null;
}
