import { expectTypeOf } from "vitest";
import { belongsTo, hasMany, hasOne, Model, type PolymorphicBelongsTo } from "../../src/index.js";

class Comment extends Model({ id: "string", commentableType: "string", commentableId: "string", body: "string" }) {
  commentable = belongsTo([Post, Photo], { polymorphic: true });
  author = belongsTo(Author, { optional: true });
}

class Image extends Model({ id: "integer", imageableType: "string", imageableId: "string" }) {
  imageable = belongsTo([Post, Photo], { polymorphic: true, foreignType: "imageableType", foreignKey: "imageableId", optional: true });
}

class Post extends Model({ id: "string", title: "string" }) {
  comments = hasMany(Comment, { as: "commentable", dependent: "destroy" });
  image = hasOne(Image, { as: "imageable", dependent: "delete" });
  // @ts-expect-error as names a polymorphic belongsTo of the target: author is a plain one
  authored = hasMany(Comment, { as: "author" });
  // @ts-expect-error as names a polymorphic belongsTo of the target: a misspelt name is refused
  misspelt = hasMany(Comment, { as: "comentable" });
  // @ts-expect-error a hasOne's as is checked the same way
  wrongImage = hasOne(Image, { as: "image" });
}

class Photo extends Model({ id: "integer", caption: "string" }) {
  comments = hasMany(Comment, { as: "commentable" });
}

class Author extends Model({ id: "string", name: "string" }) {}

declare const comment: Comment;
declare const image: Image;

// The parent is one of the listed Models, or null.
expectTypeOf(comment.commentable).toEqualTypeOf<PolymorphicBelongsTo<typeof Post | typeof Photo>>();
expectTypeOf(comment.commentable.get()).toEqualTypeOf<Post | Photo | null>();
expectTypeOf(comment.commentable.load()).toEqualTypeOf<Promise<Post | Photo | null>>();
expectTypeOf(image.imageable.get()).toEqualTypeOf<Post | Photo | null>();
comment.commentable.set(new Post());
comment.commentable.set(new Photo());
comment.commentable.set(null);
// @ts-expect-error set takes a record of a listed Model
comment.commentable.set(new Author());

// includes names the polymorphic association, and below it the associations its Models share.
Comment.includes("commentable");
Comment.includes({ commentable: "comments" });
Post.includes({ comments: "commentable" });
// @ts-expect-error image is an association of Post only, not of every listed Model
Comment.includes({ commentable: "image" });

// @ts-expect-error a list of Models needs { polymorphic: true }
belongsTo([Post, Photo]);
// @ts-expect-error polymorphic is true, not false
belongsTo([Post, Photo], { polymorphic: false });
// @ts-expect-error the list holds Models
belongsTo([Post, "Photo"], { polymorphic: true });
// @ts-expect-error an empty list names no Model
belongsTo([], { polymorphic: true });
// @ts-expect-error dependent is not an option of a belongsTo
belongsTo([Post, Photo], { polymorphic: true, dependent: "destroy" });
