/** Minimal Worker: Drizzle 1.0.0-rc.5 (drizzle-orm/d1, installed as drizzle-orm-v1), the same as drizzle.mjs. */
import { eq } from "drizzle-orm-v1";
import { drizzle } from "drizzle-orm-v1/d1";
import { sqliteTable, text } from "drizzle-orm-v1/sqlite-core";

const users = sqliteTable("users", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name").notNull(),
  email: text("email"),
  createdAt: text("created_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
  updatedAt: text("updated_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
});

export default {
  async fetch(request, env) {
    const db = drizzle(env.DB);
    if (request.method === "POST") return Response.json(await db.insert(users).values(await request.json()).returning().get());
    const id = new URL(request.url).searchParams.get("id");
    return Response.json(await db.select().from(users).where(eq(users.id, id)).limit(1).get());
  },
};
