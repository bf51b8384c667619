import { type BatchItem, currentDatabase, NoDatabase } from "./kernel/index.js";

/**
 * Executes Statements and record writes atomically in one round trip, on the database `withDatabase` opened.
 * Outside `withDatabase`, use `db.batch([...])`.
 */
export async function batch(items: readonly BatchItem[]): Promise<unknown[]> {
  const database = currentDatabase();
  if (!database) throw new NoDatabase("batch([...]) needs a database: call it inside withDatabase(db, fn), or use db.batch([...])");
  return database.batch(items);
}
