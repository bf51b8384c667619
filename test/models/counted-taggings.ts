import { belongsTo, type HasManyDependent, hasMany, Model } from "../../src/index.js";

/**
 * Posts tagged through taggings (migration 0104), the join Model keeping counters on both sides: each post and each
 * tag counts its taggings. Each call makes new classes; `callbacks` gives taggings a destroy callback (their rows are
 * then destroyed record by record), `dependent` the post's `tags` strategy.
 */
export function countedTaggings(options: { callbacks?: boolean; dependent?: HasManyDependent } = {}) {
  const log: string[] = [];
  class Post extends Model({ id: "integer", title: { type: "string", null: false }, taggingsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "ct_posts";
    taggings = hasMany(Tagging, { foreignKey: "ctPostId" });
    tags = hasMany(Tag, { through: this.taggings, ...(options.dependent && { dependent: options.dependent }) });
  }
  class Tag extends Model({ id: "integer", name: { type: "string", null: false }, official: "boolean", taggingsCount: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "ct_tags";
  }
  class Tagging extends Model({ id: "integer", ctPostId: { type: "integer", null: false }, ctTagId: { type: "integer", null: false } }) {
    static override binding = "DB";
    static override tableName = "ct_taggings";
    static {
      if (options.callbacks) this.afterDestroy((tagging) => void log.push(`destroy ${tagging.ctTagId}`));
    }
    post = belongsTo(Post, { foreignKey: "ctPostId", counterCache: "taggingsCount" });
    tag = belongsTo(Tag, { foreignKey: "ctTagId", counterCache: "taggingsCount" });
  }
  return { Post, Tag, Tagging, log };
}
