/**
 * An instant, in-memory stand-in for a D1 binding: it runs no SQL. SELECT and RETURNING statements get canned
 * rows (shaped to the columns the SQL names, so `.raw()` matches positional readers like Drizzle's); writes get
 * D1-shaped `meta`. Every call resolves at once, so a benchmark over it measures only the caller's CPU.
 */

const META = Object.freeze({
  duration: 0.1,
  size_after: 8192,
  rows_read: 1,
  rows_written: 1,
  last_row_id: 1,
  changed_db: true,
  changes: 1,
  served_by: "fake-d1",
  served_by_region: "local",
  served_by_primary: true,
});

/** The result columns an SQL statement names: `*` gives all of `allColumns`; none gives []. */
function resultColumns(sql, allColumns) {
  const match = /^\s*select\s+(.*?)\s+from\s/is.exec(sql) ?? /\sreturning\s+(.*)$/is.exec(sql);
  if (!match) return [];
  const list = match[1].trim();
  if (list === "*") return allColumns;
  // `"id"`, `"users"."id"`, `"id" as "x"`: the last quoted name of each item is the result column.
  return list.split(",").map((item) => {
    const names = item.match(/"([^"]+)"/g);
    return names ? names[names.length - 1].slice(1, -1) : item.trim();
  });
}

class FakeStatement {
  #db;
  #sql;
  #columns;
  params = [];

  constructor(db, sql, columns) {
    this.#db = db;
    this.#sql = sql;
    this.#columns = columns;
  }

  bind(...params) {
    const bound = new FakeStatement(this.#db, this.#sql, this.#columns);
    bound.params = params;
    return bound;
  }

  #rows() {
    if (this.#columns.length === 0) return [];
    const row = {};
    for (const column of this.#columns) row[column] = this.#db.row[column] ?? null;
    return [row];
  }

  all() {
    this.#db.calls++;
    return Promise.resolve({ success: true, results: this.#rows(), meta: META });
  }

  run() {
    return this.all();
  }

  first(column) {
    this.#db.calls++;
    const [row] = this.#rows();
    return Promise.resolve(row === undefined ? null : column === undefined ? row : row[column]);
  }

  raw(options) {
    this.#db.calls++;
    const rows = this.#rows().map((row) => this.#columns.map((column) => row[column]));
    return Promise.resolve(options?.columnNames ? [this.#columns, ...rows] : rows);
  }
}

export class FakeD1 {
  /** How many statements ran (a sanity check that each subject did the work). */
  calls = 0;
  /** The last SQL prepared. */
  lastSql = undefined;
  #parsed = new Map();

  /** @param row the canned row (by column name) every read returns; @param columns all its columns in order. */
  constructor(row, columns = Object.keys(row)) {
    this.row = row;
    this.columns = columns;
  }

  prepare(sql) {
    this.lastSql = sql;
    let columns = this.#parsed.get(sql);
    if (!columns) this.#parsed.set(sql, (columns = resultColumns(sql, this.columns)));
    return new FakeStatement(this, sql, columns);
  }

  batch(statements) {
    return Promise.all(statements.map((statement) => statement.all()));
  }

  exec() {
    return Promise.resolve({ count: 0, duration: 0 });
  }

  withSession() {
    return this;
  }

  getBookmark() {
    return null;
  }
}
