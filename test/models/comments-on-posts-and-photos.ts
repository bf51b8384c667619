import { belongsTo, type HasManyDependent, hasMany, type HasOneDependent, hasOne, Model } from "../../src/index.js";

/**
 * Comments on posts and on photos, on the tables of migration 0095: `Comment.commentable` is a polymorphic
 * `belongsTo` of `Post` (text keys) and `Photo` (integer keys), each of which has its `comments` (`as:
 * "commentable"`) and one `image` (`as: "imageable"`); comments have likes (destroyed with them). Each call makes new
 * classes, so that each test fixes its own Models' hooks; `callbacks` logs the comments' destroy callbacks.
 */
export function commentsOnPostsAndPhotos(options: { comments?: HasManyDependent; image?: HasOneDependent; callbacks?: boolean; optional?: boolean } = {}) {
  const log: string[] = [];
  class Like extends Model({ id: "integer", commentId: "string" }) {
    static override binding = "DB";
    static override tableName = "pm_likes";
  }
  class Comment extends Model({
    id: { type: "string", null: false, generateId: true },
    commentableType: "string",
    commentableId: "string",
    body: { type: "string", null: false },
  }) {
    static override binding = "DB";
    static override tableName = "pm_comments";
    static {
      if (options.callbacks) this.beforeDestroy((comment) => void log.push(`destroy ${comment.body}`));
    }
    commentable = belongsTo([Post, Photo], { polymorphic: true, optional: options.optional });
    likes = hasMany(Like, { dependent: "destroy" });
  }
  class Image extends Model({ id: "integer", imageableType: "string", imageableId: "string", url: { type: "string", null: false } }) {
    static override binding = "DB";
    static override tableName = "pm_images";
    imageable = belongsTo([Post, Photo], { polymorphic: true });
  }
  class Post extends Model({ id: { type: "string", null: false, generateId: true }, title: { type: "string", null: false } }) {
    static override binding = "DB";
    static override tableName = "pm_posts";
    comments = hasMany(Comment, { as: "commentable", dependent: options.comments });
    image = hasOne(Image, { as: "imageable", dependent: options.image });
  }
  class Photo extends Model({ id: "integer", caption: { type: "string", null: false } }) {
    static override binding = "DB";
    static override tableName = "pm_photos";
    comments = hasMany(Comment, { as: "commentable", dependent: options.comments });
    image = hasOne(Image, { as: "imageable", dependent: options.image });
  }
  return { Post, Photo, Comment, Like, Image, log };
}

export type CommentsOnPostsAndPhotos = ReturnType<typeof commentsOnPostsAndPhotos>;

/** The tables of migration 0095, children first. */
export const POLYMORPHIC_TABLES = ["pm_likes", "pm_comments", "pm_images", "pm_posts", "pm_photos"];
