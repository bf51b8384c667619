import { belongsTo, hasMany } from "recordflare";
import { ApplicationRecord } from "./application-record.js";
import { Comment } from "./comment.js";
import { User } from "./user.js";

export class Post extends ApplicationRecord("posts") {
  user = belongsTo(User);
  comments = hasMany(Comment, { dependent: "destroy" });

  static published = this.scope((q) => q.where({ published: true }));
  static drafts = this.scope((q) => q.where({ published: false }));
  static recent = this.scope((q) => q.order({ createdAt: "desc" }));

  static {
    this.validates("title", { presence: true, length: { maximum: 120 } });
    this.validates("body", { length: { maximum: 5000 } });
  }
}
