import { type BatchItem, databaseForBatch } from "./kernel/index.js";

/**
 * Executes Statements and record writes atomically in one round trip, on the database `withDatabase` opened,
 * or else the one the first item writes through. Resolves to each item's result.
 */
export async function batch(items: readonly BatchItem[]): Promise<unknown[]> {
  if (items.length === 0) return [];
  return (await databaseForBatch(items)).batch(items);
}
