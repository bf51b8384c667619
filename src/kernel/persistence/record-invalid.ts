import { RecordflareError } from "../errors.js";
import type { AnyRecord } from "../records/record-methods.js";

// Apart from errors.ts, which every layer imports: this error names the record type, which is the top of the types.
/** An `OrThrow` save, or a record in a `batch`, failed validation; the record is on `error.record`. */
export class RecordInvalid extends RecordflareError {
  override name = "RecordInvalid";
  /** The record that failed validation, with its `errors`; `error.record instanceof <Model>` narrows it to its Model. */
  declare readonly record: AnyRecord;
  constructor(message: string, record: AnyRecord) {
    super(message);
    // Not enumerable: loggers that copy an error's own keys would otherwise serialize the record's values.
    Object.defineProperty(this, "record", { value: record });
  }
}
