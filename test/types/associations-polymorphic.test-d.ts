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

class Author extends Model({ id: "string", name: "string" }) {
  comments = hasMany(Comment);
  latestComment = hasOne(Comment);
  // A through association whose source is the polymorphic belongsTo: sourceType picks one of its Models.
  commentedPosts = hasMany(Post, { through: this.comments, source: "commentable", sourceType: "Post", dependent: "destroy" });
  // The source found by default: the polymorphic belongsTo that lists the Model.
  commentedPhotos = hasMany(Photo, { through: this.comments, sourceType: "Photo", scope: (q) => q.where({ caption: "x" }) });
  latestPost = hasOne(Post, { through: this.latestComment, source: "commentable", sourceType: "Post" });
  // @ts-expect-error the target must be one of the Models the polymorphic source lists
  commentedAuthors = hasMany(Author, { through: this.comments, source: "commentable", sourceType: "Author" });
  // @ts-expect-error a polymorphic source needs sourceType
  untyped = hasMany(Post, { through: this.comments, source: "commentable" });
  // @ts-expect-error sourceType needs a polymorphic belongsTo as the source: author is a plain one
  pointless = hasMany(Author, { through: this.comments, source: "author", sourceType: "Author" });
  // @ts-expect-error the scope's Relation is the target's: Photo has no title
  wrongScope = hasMany(Photo, { through: this.comments, sourceType: "Photo", scope: (q) => q.where({ title: "x" }) });
  // @ts-expect-error a hasOne's target is checked the same way
  latestAuthor = hasOne(Author, { through: this.latestComment, source: "commentable", sourceType: "Author" });
}

declare const author: Author;
// The target Model is typed: a Relation of posts, a post, the writes take posts.
expectTypeOf(author.commentedPosts().toArray()).toEqualTypeOf<Promise<Post[]>>();
expectTypeOf(author.commentedPhotos().where({ caption: "y" }).count()).toEqualTypeOf<Promise<number>>();
expectTypeOf(author.latestPost.load()).toEqualTypeOf<Promise<Post | null>>();
expectTypeOf(author.commentedPosts().add(new Post())).toEqualTypeOf<Promise<void>>();
// @ts-expect-error add takes records of the target
void author.commentedPosts().add(new Photo());
Author.includes("commentedPosts", { commentedPhotos: ["comments"] });

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
