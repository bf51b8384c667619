/**
 * A D1 binding that counts what an operation costs on D1: round trips (a lone statement, or a whole batch), the
 * statements sent, and the rows read and written as D1's `meta` reports them. `raw()` is answered from `all()` so that
 * its meta is counted too (D1's own `raw()` returns none).
 */
export function countingD1(d1) {
  const cost = { roundTrips: 0, statements: 0, rowsRead: 0, rowsWritten: 0 };
  const add = (meta) => {
    cost.rowsRead += meta?.rows_read ?? 0;
    cost.rowsWritten += meta?.rows_written ?? 0;
  };
  const wrap = (inner) => ({
    inner,
    bind: (...values) => wrap(inner.bind(...values)),
    async all() {
      cost.roundTrips++;
      cost.statements++;
      const result = await inner.all();
      add(result.meta);
      return result;
    },
    async run() {
      return this.all();
    },
    async first(column) {
      const { results } = await this.all();
      const row = results[0] ?? null;
      return column === undefined || row === null ? row : row[column];
    },
    async raw(options) {
      const { results } = await this.all();
      const columns = results.length > 0 ? Object.keys(results[0]) : [];
      const rows = results.map((row) => columns.map((column) => row[column]));
      return options?.columnNames ? [columns, ...rows] : rows;
    },
  });
  const binding = {
    prepare: (sql) => wrap(d1.prepare(sql)),
    async batch(statements) {
      cost.roundTrips++;
      cost.statements += statements.length;
      const results = await d1.batch(statements.map((statement) => statement.inner));
      for (const result of results) add(result.meta);
      return results;
    },
    withSession: undefined,
  };
  return { binding, cost };
}
