/**
 * The SQL that hand-written raw D1 code sends for each benchmarked operation: the same text recordflare
 * generates (the wall-time bench checks this), so any difference in time is the library's own work.
 */
export const RAW_SQL = {
  find: 'SELECT * FROM "users" WHERE "id" = ? LIMIT 1',
  create:
    'INSERT INTO "users" ("id", "name", "email", "age", "admin", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *',
  update: 'UPDATE "users" SET "name" = ?, "updated_at" = ? WHERE "id" = ?',
  query: 'SELECT * FROM "users" WHERE "admin" = ? ORDER BY "created_at" DESC LIMIT 25',
  paginateCount: 'SELECT COUNT(*) AS count FROM "users" WHERE "admin" = ?',
  paginate: 'SELECT * FROM "users" WHERE "admin" = ? ORDER BY "created_at" DESC, "id" ASC LIMIT 25 OFFSET 25',
};
