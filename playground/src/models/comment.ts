import { belongsTo } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { Post } from "./post.js";
import { User } from "./user.js";

export class Comment extends ApplicationRecord("comments") {
  post = belongsTo(Post);
  user = belongsTo(User);

  static {
    this.validates("body", { presence: true, length: { maximum: 1000 } });
  }
}
