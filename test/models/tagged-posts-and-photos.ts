import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";

/** What the join Model's callbacks saw, in order: `save <type> <key>` and `destroy <type> <key>`. */
export const srcTaggingCallbacks: string[] = [];

/**
 * Tags (migration 0120) on posts and photos through one polymorphic join row: `srcPosts` and `srcPhotos` pick each
 * Model out of the join row's `taggable` by `sourceType`; `featuredPosts` narrows the posts by a scope.
 */
export class SrcTag extends Model({ id: "integer", name: { type: "string", null: false }, featured: "boolean" }) {
  static override binding = "DB";
  srcTaggings = hasMany(SrcTagging);
  srcPosts = hasMany(SrcPost, { through: this.srcTaggings, source: "taggable", sourceType: "SrcPost" });
  srcPhotos = hasMany(SrcPhoto, { through: this.srcTaggings, source: "taggable", sourceType: "SrcPhoto" });
  // The source found without naming it: the one polymorphic belongsTo of the join Model that lists SrcPost.
  posts = hasMany(SrcPost, { through: this.srcTaggings, sourceType: "SrcPost" });
  firstTagging = hasOne(SrcTagging);
  firstPost = hasOne(SrcPost, { through: this.firstTagging, source: "taggable", sourceType: "SrcPost" });
  titledA = hasMany(SrcPost, { through: this.srcTaggings, source: "taggable", sourceType: "SrcPost", scope: (q) => q.where({ title: "a" }) });
}

/** A tag on a post or a photo; callbacks record what ran. */
export class SrcTagging extends Model({
  id: "integer",
  srcTagId: { type: "integer", null: false },
  taggableType: { type: "string", null: false },
  taggableId: { type: "integer", null: false },
}) {
  static override binding = "DB";
  static {
    this.afterSave((tagging) => void srcTaggingCallbacks.push(`save ${tagging.taggableType} ${tagging.taggableId}`));
    this.afterDestroy((tagging) => void srcTaggingCallbacks.push(`destroy ${tagging.taggableType} ${tagging.taggableId}`));
  }
  srcTag = belongsTo(SrcTag);
  taggable = belongsTo([SrcPost, SrcPhoto], { polymorphic: true });
}

/** Posts: their taggings (as taggable), tags through them, the posts sharing a tag, and comments. */
export class SrcPost extends Model({ id: "integer", title: { type: "string", null: false } }) {
  static override binding = "DB";
  srcTaggings = hasMany(SrcTagging, { as: "taggable" });
  srcTags = hasMany(SrcTag, { through: this.srcTaggings });
  // A through a through whose last source is polymorphic: the posts that share a tag with this one (itself too).
  relatedPosts = hasMany(SrcPost, { through: this.srcTags, source: "srcPosts" });
  srcComments = hasMany(SrcComment);
}

/** Photos: their taggings (as taggable). */
export class SrcPhoto extends Model({ id: "integer", caption: { type: "string", null: false } }) {
  static override binding = "DB";
  srcTaggings = hasMany(SrcTagging, { as: "taggable" });
}

/** A post's comment. */
export class SrcComment extends Model({ id: "integer", srcPostId: { type: "integer", null: false }, body: { type: "string", null: false } }) {
  static override binding = "DB";
  srcPost = belongsTo(SrcPost);
}
