import { RecordflareError } from "../errors.js";

/** What a conflict tells of its Statement (a `Statement` is one; named structurally so that errors stay a leaf). */
export interface ConflictingStatement {
  readonly model: { readonly name: string } | undefined;
  readonly expectedChanges: number | undefined;
}

/**
 * A Statement that demanded a number of changed rows (`expectedChanges`) changed another number: the row is gone,
 * or a condition a plugin added to the write no longer holds. In a batch, the whole batch was rolled back. A
 * plugin's `write:outcome` hook usually turns it into its own error (`StaleObject`).
 */
export class WriteConflict extends RecordflareError {
  override name = "WriteConflict";

  /** @internal */
  constructor(
    /** The Statement whose count of changed rows was not the one demanded. */
    readonly statement: ConflictingStatement,
    /** The rows it changed, when known (run alone); undefined in a batch, which D1 rolled back. */
    readonly changes: number | undefined,
  ) {
    const what = statement.model ? `${statement.model.name}: ` : "";
    const counted = changes === undefined ? "other than" : `${changes} rows, not`;
    super(`${what}the write changed ${counted} ${statement.expectedChanges} row${statement.expectedChanges === 1 ? "" : "s"} as demanded${changes === undefined ? "; its batch was rolled back" : ""}`);
  }
}
