/**
 * Drizzle's fast path for a hot query: built once with a placeholder and `.prepare()`d, then run per call.
 * Only `find`: a prepared insert would compute its $defaultFn ids and timestamps once, at prepare time.
 */
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { users } from "../../shared/drizzle-schema.mjs";

export function createSubject(d1) {
  const db = drizzle(d1);
  const byId = db.select().from(users).where(eq(users.id, sql.placeholder("id"))).limit(1).prepare();
  return {
    find: async (id) => {
      const user = await byId.get({ id });
      if (!user) throw new Error(`no user ${id}`);
      return user;
    },
  };
}
