/** The floor: hand-written D1 calls, no library. */
import { newUserAttributes } from "../../shared/new-user.mjs";
import { RAW_SQL } from "../../shared/raw-sql.mjs";

export function createSubject(d1) {
  return {
    find: (id) => d1.prepare(RAW_SQL.find).bind(id).first(),
    create: (i) => {
      const { name, email, age } = newUserAttributes("cpu", i);
      const now = new Date().toISOString();
      return d1.prepare(RAW_SQL.create).bind(crypto.randomUUID(), name, email, age, 0, now, now).first();
    },
  };
}
