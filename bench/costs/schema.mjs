/**
 * The blog every cost scenario runs on, as SQL (what the generator would write for users, posts and comments, and
 * for photos and remarks, which are comments on a post or a photo, and tags on posts through taggings; posts keep a
 * count of their comments; with the indexes an app has), for recordflare's
 * Models and Drizzle's tables alike.
 */
export const BLOG_SCHEMA = [
  `CREATE TABLE users (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, email TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE UNIQUE INDEX index_users_on_email ON users (email)`,
  `CREATE TABLE posts (id TEXT PRIMARY KEY NOT NULL, user_id TEXT NOT NULL REFERENCES users (id), title TEXT NOT NULL, comments_count INTEGER NOT NULL DEFAULT 0, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE INDEX index_posts_on_user_id ON posts (user_id)`,
  `CREATE INDEX index_posts_on_created_at ON posts (created_at)`,
  `CREATE TABLE comments (id TEXT PRIMARY KEY NOT NULL, post_id TEXT NOT NULL REFERENCES posts (id), user_id TEXT NOT NULL REFERENCES users (id), body TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE INDEX index_comments_on_post_id ON comments (post_id)`,
  `CREATE TABLE photos (id TEXT PRIMARY KEY NOT NULL, caption TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE TABLE remarks (id TEXT PRIMARY KEY NOT NULL, remarkable_type TEXT NOT NULL, remarkable_id TEXT NOT NULL, body TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE INDEX index_remarks_on_remarkable ON remarks (remarkable_type, remarkable_id)`,
  `CREATE INDEX index_remarks_on_created_at ON remarks (created_at)`,
  `CREATE TABLE tags (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE TABLE taggings (id TEXT PRIMARY KEY NOT NULL, post_id TEXT NOT NULL REFERENCES posts (id), tag_id TEXT NOT NULL REFERENCES tags (id), created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL)`,
  `CREATE UNIQUE INDEX index_taggings_on_post_id_and_tag_id ON taggings (post_id, tag_id)`,
  `CREATE INDEX index_taggings_on_tag_id ON taggings (tag_id)`,
];

export const TABLES = ["taggings", "tags", "remarks", "photos", "comments", "posts", "users"];
