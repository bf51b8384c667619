/** Minimal Worker: Drizzle (drizzle-orm/d1) with find by id and create. */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

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
