/**
 * Kysely over kysely-d1's dialect. Kysely returns rows as D1 gives them (no Dates, booleans or JSON), and
 * generates nothing, so `create` makes the id and timestamps itself.
 */
import { Kysely } from "kysely";
import { D1Dialect } from "kysely-d1";
import { newUserAttributes } from "../../shared/new-user.mjs";

export function createSubject(d1) {
  const db = new Kysely({ dialect: new D1Dialect({ database: d1 }) });
  return {
    find: (id) => db.selectFrom("users").selectAll().where("id", "=", id).limit(1).executeTakeFirstOrThrow(),
    create: (i) => {
      const now = new Date().toISOString();
      const values = { id: crypto.randomUUID(), ...newUserAttributes("cpu", i), admin: 0, created_at: now, updated_at: now };
      return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
    },
  };
}
