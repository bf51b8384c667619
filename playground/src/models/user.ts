import { hasMany } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { Comment } from "./comment.js";
import { Post } from "./post.js";

export class User extends ApplicationRecord("users") {
  posts = hasMany(Post, { dependent: "destroy" });
  comments = hasMany(Comment, { dependent: "destroy" });

  static {
    this.normalizes("email", (email) => email.trim().toLowerCase());
    this.validates("name", { presence: true, length: { maximum: 60 } });
  }
}
