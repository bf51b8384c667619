import { batch } from "../batch.js";
import { type Batchable, type Statement, statementsInBatch } from "../kernel/index.js";

/**
 * The most statements a batch of a factory's records sends: D1 counts each statement of a batch toward its queries
 * per Worker invocation (1,000 on the paid plan, 50 on the free one), so a batch stays well within the larger.
 */
export const MAX_BATCH_STATEMENTS = 500;

/** A record that can be saved in a batch. */
export type BatchedRecord = { toSave(): Batchable };

/** A record's save, prepared ahead so that its statements are counted before a batch is cut: `batch` sends them. */
interface PreparedSave {
  readonly item: Batchable;
  /** The statements it sends in a batch, hooks' included (a counter cache's UPDATE, a guard). */
  readonly size: number;
  /** Whether its preparation threw (a validation refused it): the batch holding it then fails as one. */
  readonly refused: boolean;
}

/** Prepares a record's save (validations, before-callbacks, the statements of it and of its hooks). */
async function preparedSave(record: BatchedRecord): Promise<PreparedSave> {
  const write = record.toSave();
  let statements: Statement[];
  try {
    statements = await write.prepare();
  } catch (error) {
    // `batch` reports the refusal to every write of the batch and puts their records back, as it does for its own.
    return { item: { ...write, prepare: () => Promise.reject(error) }, size: 0, refused: true };
  }
  return { item: { ...write, prepare: () => Promise.resolve(statements) }, size: statementsInBatch(statements), refused: false };
}

/**
 * Saves records in order, in atomic batches of at most `MAX_BATCH_STATEMENTS` statements as sent (the statements
 * hooks add included), one round trip each; a record whose save alone sends more has a batch of its own. A refused
 * record fails its batch, and the records after it are not saved.
 */
export async function saveInBatches(records: readonly BatchedRecord[]): Promise<void> {
  let pending: Batchable[] = [];
  let size = 0;
  for (const record of records) {
    const save = await preparedSave(record);
    if (pending.length > 0 && !save.refused && size + save.size > MAX_BATCH_STATEMENTS) {
      await sendBefore(pending, save.item);
      [pending, size] = [[], 0];
    }
    pending.push(save.item);
    size += save.size;
    if (save.refused) break;
  }
  if (pending.length > 0) await batch(pending);
}

/** Sends a full batch; when it fails, the save prepared for the next batch is put back too, as never made. */
async function sendBefore(pending: readonly Batchable[], next: Batchable): Promise<void> {
  try {
    await batch(pending);
  } catch (error) {
    next.abandon();
    throw error;
  }
}
