/**
 * A D1 binding that enforces production D1's documented limits, which local D1 (workerd's SQLite) enforces only in
 * part: at most 100 bound parameters per statement, at most 100,000 bytes of SQL per statement, and no bound value
 * over 1,000,000 bytes (the lower of the two figures D1's limits page has given for a string, blob or row).
 * test/setup.ts puts it in place of `env.DB` for the whole suite, so a statement that would fail on production D1
 * fails a test here too.
 */
export const D1_LIMITS = { boundParameters: 100, sqlBytes: 100_000, valueBytes: 1_000_000 } as const;

const encoder = new TextEncoder();

/** The number of bytes D1 stores for a bound value (text as UTF-8, blobs as their bytes). */
function valueBytes(value: unknown): number {
  if (typeof value === "string") return encoder.encode(value).byteLength;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
  return 8;
}

function checkSql(sql: string): void {
  const bytes = encoder.encode(sql).byteLength;
  if (bytes > D1_LIMITS.sqlBytes) throw new Error(`D1 limit: SQL statement of ${bytes} bytes is over ${D1_LIMITS.sqlBytes}`);
}

function checkParams(sql: string, values: unknown[]): void {
  if (values.length > D1_LIMITS.boundParameters) {
    throw new Error(`D1 limit: too many SQL variables (${values.length} bound, at most ${D1_LIMITS.boundParameters}): ${sql.slice(0, 200)}`);
  }
  for (const value of values) {
    const bytes = valueBytes(value);
    if (bytes > D1_LIMITS.valueBytes) throw new Error(`D1 limit: string or blob too big (${bytes} bytes, at most ${D1_LIMITS.valueBytes})`);
  }
}

const unwrapped = new WeakMap<object, D1Database | D1DatabaseSession>();

/** The binding under `enforcingD1Limits` (for `applyD1Migrations`, which takes only D1's own object). */
export function withoutD1Limits<Binding extends D1Database | D1DatabaseSession>(binding: Binding): Binding {
  return (unwrapped.get(binding) as Binding | undefined) ?? binding;
}

/** Wraps `binding` (or a session of it) so that any statement past D1's limits throws before it reaches the database. */
export function enforcingD1Limits<Binding extends D1Database | D1DatabaseSession>(binding: Binding): Binding {
  if (unwrapped.has(binding)) return binding;
  const inners = new WeakMap<object, D1PreparedStatement>();
  const wrap = (sql: string, inner: D1PreparedStatement): D1PreparedStatement => {
    const wrapped: D1PreparedStatement = Object.assign(Object.create(inner) as D1PreparedStatement, {
      bind: (...values: unknown[]) => {
        checkParams(sql, values);
        return wrap(sql, inner.bind(...values));
      },
      all: () => inner.all(),
      run: () => inner.run(),
      raw: (options?: { columnNames?: boolean }) => inner.raw(options as { columnNames: true }),
      first: (column?: string) => (column === undefined ? inner.first() : inner.first(column)),
    });
    inners.set(wrapped, inner);
    return wrapped;
  };
  const enforcing = new Proxy(binding, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          checkSql(sql);
          return wrap(sql, target.prepare(sql));
        };
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => target.batch(statements.map((statement) => inners.get(statement) ?? statement));
      }
      if (property === "withSession" && "withSession" in target) {
        return (constraint?: string) => enforcingD1Limits(target.withSession(constraint));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  unwrapped.set(enforcing, binding);
  return enforcing;
}
