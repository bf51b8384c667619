import { belongsTo, type HasManyDependent, hasMany, hasOne, type HasOneDependent, Model, softDelete } from "../../src/index.js";

/**
 * Comments by users on posts and on photos (migration 0215), counted on each parent by the polymorphic
 * `Comment.commentable`'s counter cache under its default name (`pcCommentsCount`, column `pc_comments_count`): posts
 * have text keys and photos integer keys, so that a post and a photo may have the same key as stored. Each call makes
 * new classes, so that each test fixes its own Models' hooks: `callbacks` gives comments a destroy callback (their
 * dependents are then destroyed record by record), `userComments` the user's `dependent` strategy for the comments
 * they wrote, `pinned` that of the post's one pinned comment, `hidden` a default scope leaving hidden comments out,
 * `softDelete` soft deletes comments.
 */
export function countedPolymorphicComments(
  options: { callbacks?: boolean; userComments?: HasManyDependent; pinned?: HasOneDependent; hidden?: boolean; softDelete?: boolean } = {},
) {
  const log: string[] = [];
  class User extends Model({ id: { type: "string", null: false }, name: { type: "string", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_users";
    comments = hasMany(Comment, { foreignKey: "pcUserId", dependent: options.userComments ?? "destroy" });
  }
  class Post extends Model({ id: { type: "string", null: false }, title: { type: "string", null: false }, pcCommentsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_posts";
    comments = hasMany(Comment, { as: "commentable", dependent: "destroy" });
    shownComments = hasMany(Comment, { as: "commentable", scope: (q) => q.where({ hidden: false }) });
    pinned = hasOne(Comment, { as: "commentable", ...(options.pinned && { dependent: options.pinned }) });
  }
  class Photo extends Model({ id: "integer", caption: { type: "string", null: false }, pcCommentsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_photos";
    comments = hasMany(Comment, { as: "commentable", dependent: "destroy" });
  }
  class Comment extends Model({
    id: { type: "string", null: false },
    pcUserId: "string",
    commentableType: "string",
    commentableId: "string",
    body: { type: "string", null: false },
    hidden: { type: "boolean", null: false },
    deletedAt: "datetime",
  }) {
    static override binding = "DB";
    static override tableName = "pc_comments";
    static {
      if (options.callbacks) this.beforeDestroy((comment) => void log.push(`destroy ${comment.body}`));
      if (options.hidden) this.defaultScope((q) => q.where({ hidden: false }));
      if (options.softDelete) this.use(softDelete);
    }
    commentable = belongsTo([Post, Photo], { polymorphic: true, counterCache: true, optional: true });
    author = belongsTo(User, { foreignKey: "pcUserId", optional: true });
  }
  return { User, Post, Photo, Comment, log };
}

export type CountedPolymorphicComments = ReturnType<typeof countedPolymorphicComments>;

/**
 * Tags on posts and photos through polymorphic taggings (migration 0215), each tagging counted on its tag and on its
 * taggable (`pcTaggingsCount` on all three); `dependent` is the post's `tags` strategy.
 */
export function countedPolymorphicTaggings(options: { dependent?: HasManyDependent } = {}) {
  class Tag extends Model({ id: "integer", name: { type: "string", null: false }, pcTaggingsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_tags";
  }
  class Tagging extends Model({ id: "integer", pcTagId: { type: "integer", null: false }, taggableType: { type: "string", null: false }, taggableId: { type: "string", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_taggings";
    tag = belongsTo(Tag, { foreignKey: "pcTagId", counterCache: "pcTaggingsCount" });
    taggable = belongsTo([Post, Photo], { polymorphic: true, counterCache: "pcTaggingsCount" });
  }
  class Post extends Model({ id: { type: "string", null: false }, title: { type: "string", null: false }, pcTaggingsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_posts";
    taggings = hasMany(Tagging, { as: "taggable" });
    tags = hasMany(Tag, { through: this.taggings, ...(options.dependent && { dependent: options.dependent }) });
  }
  class Photo extends Model({ id: "integer", caption: { type: "string", null: false }, pcTaggingsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "pc_photos";
    taggings = hasMany(Tagging, { as: "taggable" });
    tags = hasMany(Tag, { through: this.taggings });
  }
  return { Tag, Tagging, Post, Photo };
}

/** The tables of migration 0215, children first. */
export const COUNTED_POLYMORPHIC_TABLES = ["pc_taggings", "pc_tags", "pc_comments", "pc_users", "pc_posts", "pc_photos"];
