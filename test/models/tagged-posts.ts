import { belongsTo, hasMany, hasOne, Model, multiTenancy, softDelete } from "../../src/index.js";

/** What the join Model's callbacks saw, in order: `save <tag id>` and `destroy <tag id>`. */
export const taggingCallbacks: string[] = [];

/** Tags (migration 0093), soft-deleted with `softDelete`. */
export class ThrTag extends Model({
  id: "integer",
  name: { type: "string", null: false },
  deletedAt: "datetime",
  tenantId: "string",
  featured: "boolean",
}) {
  static override binding = "DB";
  static {
    this.use(softDelete);
    this.validates("name", { presence: true });
  }
  thrTaggings = hasMany(ThrTagging);
  // The source is the tagging's one association to posts.
  thrPosts = hasMany(ThrPost, { through: this.thrTaggings });
}

/** The join rows of posts and tags, soft-deleted: refused for a tag named "forbidden", and callbacks that record what ran. */
export class ThrTagging extends Model({
  id: "integer",
  thrPostId: { type: "integer", null: false },
  thrTagId: { type: "integer", null: false },
  note: "string",
  deletedAt: "datetime",
  tenantId: "string",
}) {
  static override binding = "DB";
  static {
    this.use(softDelete);
    // A tagging to a tag named "forbidden" is refused (its note must then be present, and never is).
    this.validates("note", { presence: true, if: (tagging: ThrTagging) => tagging.thrTag.isLoaded && tagging.thrTag.get()?.name === "forbidden" });
    this.afterSave((tagging) => void taggingCallbacks.push(`save ${tagging.thrTagId}`));
    this.afterDestroy((tagging) => void taggingCallbacks.push(`destroy ${tagging.thrTagId}`));
  }
  thrPost = belongsTo(ThrPost);
  thrTag = belongsTo(ThrTag);
  /** The same tag under another name, for `source`. */
  label = belongsTo(ThrTag, { foreignKey: "thrTagId" });
}

/** Comments of a post. */
export class ThrComment extends Model({ id: "integer", thrPostId: { type: "integer", null: false }, body: { type: "string", null: false } }) {
  static override binding = "DB";
  thrPost = belongsTo(ThrPost);
}

/** A writer's bio (one each). */
export class ThrBio extends Model({ id: "integer", thrWriterId: { type: "integer", null: false }, text: { type: "string", null: false } }) {
  static override binding = "DB";
  thrWriter = belongsTo(ThrWriter);
}

/** Posts: tags through taggings (by either source), and the writer's bio through the writer (by its name). */
export class ThrPost extends Model({ id: "integer", thrWriterId: "integer", title: { type: "string", null: false }, tenantId: "string" }) {
  static override binding = "DB";
  thrWriter = belongsTo(ThrWriter, { optional: true });
  thrTaggings = hasMany(ThrTagging);
  // A tagging reaches tags by two associations (thrTag, label): the source is named.
  thrTags = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag" });
  labels = hasMany(ThrTag, { through: this.thrTaggings, source: "label" });
  // Scoped: the featured tags (build makes a featured one), and red and blue in the scope's order.
  featuredTags = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag", scope: (q) => q.where({ featured: true }) });
  primaryColours = hasMany(ThrTag, { through: this.thrTaggings, source: "thrTag", scope: (q) => q.where({ name: ["red", "blue"] }).order({ name: "desc" }) });
  thrComments = hasMany(ThrComment);
  thrBio = hasOne(ThrBio, { through: this.thrWriter });
  longBio = hasOne(ThrBio, { through: this.thrWriter, scope: (q) => q.where({ text: "ann's long bio" }) });
}

/** Writers: posts, comments through posts, and tags through posts through taggings (a through a through). */
export class ThrWriter extends Model({ id: "integer", name: { type: "string", null: false }, tenantId: "string" }) {
  static override binding = "DB";
  thrPosts = hasMany(ThrPost);
  thrComments = hasMany(ThrComment, { through: this.thrPosts });
  thrTags = hasMany(ThrTag, { through: this.thrPosts });
  thrBio = hasOne(ThrBio);
}

/** What the membership callbacks saw, in order: `save <club id>` and `destroy <club id>`. */
export const membershipCallbacks: string[] = [];

/** Clubs (migration 0105). */
export class ThrClub extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override binding = "DB";
}

/** A member's one membership, of one club: refused for a club named "closed", and callbacks that record what ran. */
export class ThrMembership extends Model({ id: "integer", thrMemberId: { type: "integer", null: false }, thrClubId: { type: "integer", null: false }, note: "string" }) {
  static override binding = "DB";
  static {
    this.validates("note", { presence: true, if: (membership: ThrMembership) => membership.thrClub.isLoaded && membership.thrClub.get()?.name === "closed" });
    this.afterSave((membership) => void membershipCallbacks.push(`save ${membership.thrClubId}`));
    this.afterDestroy((membership) => void membershipCallbacks.push(`destroy ${membership.thrClubId}`));
  }
  thrMember = belongsTo(ThrMember);
  thrClub = belongsTo(ThrClub);
  thrCard = hasOne(ThrCard);
}

/** A membership's card, naming a club. */
export class ThrCard extends Model({ id: "integer", thrMembershipId: { type: "integer", null: false }, thrClubId: "integer" }) {
  static override binding = "DB";
  thrClub = belongsTo(ThrClub, { optional: true });
}

/**
 * Members: a club through their one membership (written through it); read-only, the card through the membership
 * (the membership holds no key of it) and the card's club (a through a through).
 */
export class ThrMember extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override binding = "DB";
  thrMembership = hasOne(ThrMembership);
  thrClub = hasOne(ThrClub, { through: this.thrMembership });
  thrCard = hasOne(ThrCard, { through: this.thrMembership });
  cardClub = hasOne(ThrClub, { through: this.thrCard, source: "thrClub" });
}

/**
 * Posts, taggings and tags of migration 0093 under `multiTenancy` (their `tenant_id`): each call makes new classes
 * sharing one tenancy plugin, so that each test fixes its own Models' hooks.
 */
export function tenantTaggedPosts() {
  const tenancy = multiTenancy();
  class TTag extends Model({ id: "integer", name: { type: "string", null: false }, tenantId: "string" }) {
    static override tableName = "thr_tags";
    static override binding = "DB";
    static {
      this.use(tenancy);
    }
  }
  class TTagging extends Model({ id: "integer", thrPostId: "integer", thrTagId: "integer", tenantId: "string" }) {
    static override tableName = "thr_taggings";
    static override binding = "DB";
    static {
      this.use(tenancy);
    }
    tTag = belongsTo(TTag, { foreignKey: "thrTagId" });
  }
  class TPost extends Model({ id: "integer", title: { type: "string", null: false }, tenantId: "string" }) {
    static override tableName = "thr_posts";
    static override binding = "DB";
    static {
      this.use(tenancy);
    }
    tTaggings = hasMany(TTagging, { foreignKey: "thrPostId" });
    tTags = hasMany(TTag, { through: this.tTaggings });
  }
  return { TTag, TTagging, TPost };
}
