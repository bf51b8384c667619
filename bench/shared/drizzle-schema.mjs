/**
 * The `users` table for Drizzle, typed like recordflare's schema: booleans, JSON, and datetimes stored as
 * ISO text and read back as Dates (a customType, as a Drizzle app on D1 would write it).
 */
import { customType, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

const isoDate = customType({
  dataType: () => "text",
  toDriver: (value) => value.toISOString(),
  fromDriver: (value) => new Date(value),
});

export const users = sqliteTable("users", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name").notNull(),
  email: text("email").unique(),
  age: integer("age"),
  score: real("score"),
  admin: integer("admin", { mode: "boolean" }).notNull().default(false),
  bornAt: isoDate("born_at"),
  settings: text("settings", { mode: "json" }),
  createdAt: isoDate("created_at")
    .notNull()
    .$defaultFn(() => new Date()),
  updatedAt: isoDate("updated_at")
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date()),
});
