/** The blog's tables and relations for Drizzle's relational queries (`db.query.posts.findFirst({ with })`). */
import { relations } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

const timestamps = { createdAt: text("created_at").notNull(), updatedAt: text("updated_at").notNull() };

export const users = sqliteTable("users", { id: text("id").primaryKey(), name: text("name").notNull(), email: text("email").notNull().unique(), ...timestamps });
export const posts = sqliteTable("posts", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull(),
  title: text("title").notNull(),
  commentsCount: integer("comments_count").notNull(),
  ...timestamps,
});
export const comments = sqliteTable("comments", {
  id: text("id").primaryKey(),
  postId: text("post_id").notNull(),
  userId: text("user_id").notNull(),
  body: text("body").notNull(),
  ...timestamps,
});

export const photos = sqliteTable("photos", { id: text("id").primaryKey(), caption: text("caption").notNull(), ...timestamps });
// Drizzle has no polymorphic relation: remarks are read, then their posts and photos by the keys of each type.
export const remarks = sqliteTable("remarks", {
  id: text("id").primaryKey(),
  remarkableType: text("remarkable_type").notNull(),
  remarkableId: text("remarkable_id").notNull(),
  body: text("body").notNull(),
  ...timestamps,
});

export const tags = sqliteTable("tags", { id: text("id").primaryKey(), name: text("name").notNull(), ...timestamps });
export const taggings = sqliteTable("taggings", { id: text("id").primaryKey(), postId: text("post_id").notNull(), tagId: text("tag_id").notNull(), ...timestamps });

export const usersRelations = relations(users, ({ many }) => ({ posts: many(posts) }));
export const postsRelations = relations(posts, ({ one, many }) => ({
  user: one(users, { fields: [posts.userId], references: [users.id] }),
  comments: many(comments),
  taggings: many(taggings),
}));
export const taggingsRelations = relations(taggings, ({ one }) => ({
  post: one(posts, { fields: [taggings.postId], references: [posts.id] }),
  tag: one(tags, { fields: [taggings.tagId], references: [tags.id] }),
}));
export const commentsRelations = relations(comments, ({ one }) => ({ post: one(posts, { fields: [comments.postId], references: [posts.id] }) }));
