/** Drizzle's `drizzle-orm/d1` driver with a typed schema (ids and timestamps from $defaultFn). */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { users } from "../../shared/drizzle-schema.mjs";
import { newUserAttributes } from "../../shared/new-user.mjs";

export function createSubject(d1) {
  const db = drizzle(d1);
  return {
    find: async (id) => {
      const user = await db.select().from(users).where(eq(users.id, id)).limit(1).get();
      if (!user) throw new Error(`no user ${id}`);
      return user;
    },
    create: (i) => db.insert(users).values(newUserAttributes("cpu", i)).returning().get(),
  };
}
