import { textFits, utf8Length } from "./bound-json.js";
import type { Statement } from "./statement.js";

/** D1's limit on the SQL text of one statement, in bytes. */
export const MAX_SQL_BYTES = 100_000;

/**
 * Refuses, with `TypeError` naming the Model, a statement whose SQL text (or the form it is retried in) is over D1's
 * limit, before anything of its call is sent or counted: the library says what D1 would refuse. Text the app writes
 * (`sql` fragments, `defineStatement`) may be that long, and so may a statement whose shape grows with the Models'
 * declarations (a destroy's tree of many associations that loop). Nearly free for the usual statement: text of at
 * most a third of the limit in characters fits however it is encoded. `comment` is the text sent before it (see
 * `ConnectOptions.comment`).
 */
export function assertSqlWithinD1Limit(statement: Statement, comment = ""): void {
  // The form a write is retried in is longer by a clause: the longer of the two is checked.
  const sql = comment + (statement.retrySql ?? statement.sql);
  if (textFits(sql, MAX_SQL_BYTES)) return;
  throw new TypeError(`${statement.model?.name ?? "recordflare"}: a statement of ${utf8Length(sql)} bytes of SQL is over D1's limit of ${MAX_SQL_BYTES} bytes; it was not sent`);
}
