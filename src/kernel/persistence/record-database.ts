import { databaseFor } from "../database/context.js";
import type { Database } from "../database/database.js";
import { type RecordState, STATE } from "../records/record-state.js";

/** A record as persistence handles it: its state, and its Model as its constructor. */
export type Persistable = { [STATE]: RecordState; constructor: Function };

/** The database a record writes through: the one it was built or loaded with, else the current one. */
export function recordDatabase(record: Persistable): Database | Promise<Database> {
  const state = record[STATE];
  return state.database ?? databaseFor(record.constructor as unknown as { name: string; binding?: string });
}
