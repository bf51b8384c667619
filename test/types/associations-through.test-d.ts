import { expectTypeOf } from "vitest";
import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";

class Tag extends Model({ id: "integer", name: { type: "string", null: false } }) {}

class Tagging extends Model({ id: "integer", postId: "integer", tagId: "integer" }) {
  tag = belongsTo(Tag);
  label = belongsTo(Tag, { foreignKey: "tagId" });
  post = belongsTo(Post);
}

class Bio extends Model({ id: "integer", writerId: "integer", text: "string" }) {}

class Writer extends Model({ id: "integer", name: "string" }) {
  bio = hasOne(Bio);
  posts = hasMany(Post);
  // A through a through.
  tags = hasMany(Tag, { through: this.posts });
}

export class Post extends Model({ id: "integer", writerId: "integer", title: "string" }) {
  writer = belongsTo(Writer);
  taggings = hasMany(Tagging);
  tags = hasMany(Tag, { through: this.taggings });
  labels = hasMany(Tag, { through: this.taggings, source: "label" });
  dependentTags = hasMany(Tag, { through: this.taggings, source: "tag", dependent: "destroy" });
  bio = hasOne(Bio, { through: this.writer });
  // @ts-expect-error through names one of the Model's own associations: a misspelt one is a compile error
  misspelt = hasMany(Tag, { through: this.tagings });
  // @ts-expect-error the source is an association of the Model gone through (Tagging has no "tags")
  wrongSource = hasMany(Tag, { through: this.taggings, source: "tags" });
  // @ts-expect-error a through association takes no foreignKey: its keys are those it goes through
  keyed = hasMany(Tag, { through: this.taggings, foreignKey: "tagId" });
  // A scope narrows the targets: a function of the target's Relation.
  namedX = hasMany(Tag, { through: this.taggings, scope: (q) => q.where({ name: "x" }) });
  // @ts-expect-error the scope's Relation is the target's: Tag has no title
  scopedWrong = hasMany(Tag, { through: this.taggings, scope: (q) => q.where({ title: "x" }) });
  // @ts-expect-error a scope returns the target's Relation
  scopedNothing = hasMany(Tag, { through: this.taggings, scope: () => 1 });
  // @ts-expect-error a hasOne through takes no dependent
  dependentBio = hasOne(Bio, { through: this.writer, dependent: "destroy" });
  // @ts-expect-error through is the association field, not any value
  notAField = hasMany(Tag, { through: this.title });
}

declare const post: Post;
declare const writer: Writer;
declare const tag: Tag;

// post.tags() is a Relation of Tag: narrowed, counted, paged; its writes take Tags.
expectTypeOf(post.tags().where({ name: "x" }).toArray()).toEqualTypeOf<Promise<Tag[]>>();
expectTypeOf(post.tags().count()).toEqualTypeOf<Promise<number>>();
expectTypeOf(post.tags().add(tag)).toEqualTypeOf<Promise<void>>();
expectTypeOf(post.tags().set([tag])).toEqualTypeOf<Promise<void>>();
expectTypeOf(post.tags().setIds([1, 2])).toEqualTypeOf<Promise<void>>();
// @ts-expect-error add takes records of the target
void post.tags().add(post);
// @ts-expect-error set takes a list
void post.tags().set(tag);
expectTypeOf(writer.tags().toArray()).toEqualTypeOf<Promise<Tag[]>>();
expectTypeOf(post.bio.load()).toEqualTypeOf<Promise<Bio | null>>();
// @ts-expect-error a hasOne through builds no target: set one
post.bio.build();
// A hasOne through sets its target through the join row: a Bio, or null.
expectTypeOf(post.bio.set(null)).toEqualTypeOf<Promise<void>>();
// @ts-expect-error set takes a record of the target
void post.bio.set(tag);
// A scoped through association is a Relation of its target.
expectTypeOf(post.namedX().toArray()).toEqualTypeOf<Promise<Tag[]>>();

// includes takes through associations, and nests below them.
Post.includes("tags", "bio");
Writer.includes({ posts: ["tags"] });
Post.includes({ tags: [] });
// @ts-expect-error a misspelt name
Post.includes("tagz");
