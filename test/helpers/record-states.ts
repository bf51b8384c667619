/** A record's state as `[isNewRecord(), isPersisted(), isDestroyed()]`, to compare with the constants below. */
export function stateOf(record: { isNewRecord(): boolean; isPersisted(): boolean; isDestroyed(): boolean }) {
  return [record.isNewRecord(), record.isPersisted(), record.isDestroyed()];
}

/** The state of a record built and not yet saved. */
export const NEW = [true, false, false];

/** The state of a record saved or loaded. */
export const PERSISTED = [false, true, false];

/** The state of a destroyed record. */
export const DESTROYED = [false, false, true];
