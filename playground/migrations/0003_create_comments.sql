-- Migration number: 0003 	 create_comments
CREATE TABLE comments (
  id TEXT PRIMARY KEY NOT NULL,
  post_id TEXT NOT NULL REFERENCES posts (id),
  user_id TEXT NOT NULL REFERENCES users (id),
  body TEXT NOT NULL,
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
);
CREATE INDEX index_comments_on_post_id ON comments (post_id);
CREATE INDEX index_comments_on_user_id ON comments (user_id);
