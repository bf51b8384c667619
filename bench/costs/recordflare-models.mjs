/** The blog's Models as a recordflare app declares them (dependents destroyed with their owner, emails unique). */
import { belongsTo, hasMany, Model } from "../../dist/index.mjs";

const timestamps = { createdAt: { type: "datetime", null: false }, updatedAt: { type: "datetime", null: false } };

export class User extends Model({ id: { type: "string", null: false, generateId: true }, name: { type: "string", null: false }, email: { type: "string", null: false }, ...timestamps }) {
  static tableName = "users";
  static {
    this.validates("email", { uniqueness: true });
  }
  posts = hasMany(Post, { dependent: "destroy" });
}

export class Post extends Model({
  id: { type: "string", null: false, generateId: true },
  userId: { type: "string", null: false },
  title: { type: "string", null: false },
  commentsCount: { type: "integer", null: false, default: 0 },
  ...timestamps,
}) {
  static tableName = "posts";
  user = belongsTo(User);
  comments = hasMany(Comment, { dependent: "destroy" });
  taggings = hasMany(Tagging, { dependent: "deleteAll" });
  tags = hasMany(Tag, { through: this.taggings });
}

export class Tag extends Model({ id: { type: "string", null: false, generateId: true }, name: { type: "string", null: false }, ...timestamps }) {
  static tableName = "tags";
}

/** A post's tag: the join rows of Post's tags. */
export class Tagging extends Model({ id: { type: "string", null: false, generateId: true }, postId: { type: "string", null: false }, tagId: { type: "string", null: false }, ...timestamps }) {
  static tableName = "taggings";
  post = belongsTo(Post);
  tag = belongsTo(Tag);
}

export class Photo extends Model({ id: { type: "string", null: false, generateId: true }, caption: { type: "string", null: false }, ...timestamps }) {
  static tableName = "photos";
  remarks = hasMany(Remark, { as: "remarkable" });
}

/** A comment on a post or on a photo: a polymorphic belongsTo. */
export class Remark extends Model({
  id: { type: "string", null: false, generateId: true },
  remarkableType: { type: "string", null: false },
  remarkableId: { type: "string", null: false },
  body: { type: "string", null: false },
  ...timestamps,
}) {
  static tableName = "remarks";
  remarkable = belongsTo([Post, Photo], { polymorphic: true });
}

export class Comment extends Model({ id: { type: "string", null: false, generateId: true }, postId: { type: "string", null: false }, userId: { type: "string", null: false }, body: { type: "string", null: false }, ...timestamps }) {
  static tableName = "comments";
  post = belongsTo(Post, { counterCache: true });
  user = belongsTo(User);
}
