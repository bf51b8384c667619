import { assertBatchItems, type BatchItem, type BatchResults, databaseForBatch } from "./kernel/index.js";

/**
 * Executes Statements and record writes atomically in one round trip, on the database `withDatabase` opened,
 * or else the one the first item writes through. Resolves to each item's result.
 */
export async function batch<const Items extends readonly BatchItem[]>(items: Items): Promise<BatchResults<Items>> {
  assertBatchItems("batch", items);
  if (items.length === 0) return [] as BatchResults<Items>;
  return await (await databaseForBatch(items)).batch(items);
}
