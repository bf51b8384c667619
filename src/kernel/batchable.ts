import type { Database } from "./database.js";
import type { Statement } from "./statement.js";

/**
 * A write of records that joins a batch: `rec.toSave()` and `rec.toDestroy()`. `prepare` runs the
 * before-callbacks and returns the statements; `finish` gets their results and runs the after-callbacks.
 */
export interface Batchable {
  /** @internal */
  prepare(): Promise<Statement[]>;
  /** @internal */
  finish(results: unknown[]): Promise<void>;
  /** @internal The database the record writes through. */
  database(): Database | Promise<Database>;
  /** The record written; what `batch` resolves to for this item. */
  readonly record: object;
}

/** Whether a batch item is a record write rather than a Statement. */
export function isBatchable(item: unknown): item is Batchable {
  return typeof item === "object" && item !== null && "prepare" in item && "finish" in item && "database" in item && "record" in item;
}
