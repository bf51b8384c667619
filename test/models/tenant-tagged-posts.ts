import { belongsTo, hasMany, Model, multiTenancy } from "../../src/index.js";

/**
 * Tags on posts and photos through one polymorphic join row (migration 0160), every table scoped by `multiTenancy`:
 * `tenantPosts` and `tenantPhotos` pick each Model out of the join row's `taggable` by `sourceType`; `titledA`
 * narrows the posts by a scope; destroying a tag deletes its join rows to posts.
 */
export class TenantTag extends Model({ id: "integer", tenantId: { type: "string", null: false }, name: { type: "string", null: false } }) {
  static override binding = "DB";
  static {
    this.use(multiTenancy());
  }
  tenantTaggings = hasMany(TenantTagging);
  tenantPosts = hasMany(TenantPost, { through: this.tenantTaggings, source: "taggable", sourceType: "TenantPost", dependent: "deleteAll" });
  tenantPhotos = hasMany(TenantPhoto, { through: this.tenantTaggings, source: "taggable", sourceType: "TenantPhoto" });
  titledA = hasMany(TenantPost, { through: this.tenantTaggings, source: "taggable", sourceType: "TenantPost", scope: (q) => q.where({ title: "a" }) });
}

/** A tag of a tenant's on one of its posts or photos. */
export class TenantTagging extends Model({
  id: "integer",
  tenantId: { type: "string", null: false },
  tenantTagId: { type: "integer", null: false },
  taggableType: { type: "string", null: false },
  taggableId: { type: "integer", null: false },
}) {
  static override binding = "DB";
  static {
    this.use(multiTenancy());
  }
  tenantTag = belongsTo(TenantTag);
  taggable = belongsTo([TenantPost, TenantPhoto], { polymorphic: true });
}

/** A tenant's post: its taggings (as taggable) and its tags through them. */
export class TenantPost extends Model({ id: "integer", tenantId: { type: "string", null: false }, title: { type: "string", null: false } }) {
  static override binding = "DB";
  static {
    this.use(multiTenancy());
  }
  tenantTaggings = hasMany(TenantTagging, { as: "taggable" });
  tenantTags = hasMany(TenantTag, { through: this.tenantTaggings });
}

/** A tenant's photo: its taggings (as taggable). */
export class TenantPhoto extends Model({ id: "integer", tenantId: { type: "string", null: false }, caption: { type: "string", null: false } }) {
  static override binding = "DB";
  static {
    this.use(multiTenancy());
  }
  tenantTaggings = hasMany(TenantTagging, { as: "taggable" });
}
