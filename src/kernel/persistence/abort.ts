/** Thrown by a callback to stop a save or destroy: `throw abort('reason')`. */
export class Abort extends Error {
  /** `"Abort"`, the class's name. */
  override name = "Abort";
  /** Why the operation was stopped; becomes `record.abortReason`. */
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

/** Makes the error a callback throws to stop a save or destroy: `throw abort('reason')`. */
export function abort(reason = "aborted"): Abort {
  return new Abort(reason);
}
