/**
 * SQL identifiers in generated migrations. Names are written bare (`users`, `created_at`) unless they are
 * SQLite keywords (`order`, `group`) or hold anything but letters, digits and `_` (a name read back from a
 * hand-written migration may hold spaces, quotes, `;` or a newline), which are double-quoted so the statement
 * still parses and says only what it means.
 */
import { quoteIdentifier } from "../kernel/index.js";

// The keywords of SQLite (https://sqlite.org/lang_keywords.html).
const KEYWORDS = new Set(
  (
    "ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE " +
    "CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME " +
    "CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE " +
    "EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP " +
    "GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN " +
    "KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF OFFSET ON OR ORDER " +
    "OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP REINDEX " +
    "RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN " +
    "TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH " +
    "WITHOUT"
  ).split(" "),
);

const BARE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An identifier as written in generated SQL: bare, or double-quoted when it is an SQLite keyword or not plain. */
export function sqlIdentifier(name: string): string {
  return BARE.test(name) && !KEYWORDS.has(name.toUpperCase()) ? name : quoteIdentifier(name);
}
