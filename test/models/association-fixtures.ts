import { abort, belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
import { ApplicationRecord } from "./fixtures.js";

export class Writer extends ApplicationRecord("users") {
  static override tableName = "users";
  posts = hasMany(Article, { dependent: "destroy", foreignKey: "userId" });
  profile = hasOne(Profile, { foreignKey: "userId" });
}

export class Guarded extends ApplicationRecord("users") {
  posts = hasMany(Article, { dependent: "restrictWithError", foreignKey: "userId" });
}

export class Article extends ApplicationRecord("posts") {
  user = belongsTo(Writer);
  author = belongsTo(Writer, { foreignKey: "userId" });
}

export class Profile extends Model({
  id: { type: "string", null: false },
  userId: { type: "string", null: false },
  bio: "string",
}) {
  static override binding = "DB";
  user = belongsTo(Writer);
}

export class Author extends Model({ id: "integer", name: { type: "string", null: false } }) {
  static override binding = "DB";
  books = hasMany(Book, { dependent: "destroy" });
}

export class Book extends Model({ id: "integer", authorId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
  static override binding = "DB";
  author = belongsTo(Author);
}

/**
 * An owner named `User` (so the default foreign key of its `hasOne` is `userId`, on profiles) whose profile goes
 * with it. Exported under another name so as not to be confused with the plain `User` of fixtures.ts.
 */
export const ProfiledUser = class User extends ApplicationRecord("users") {
  profile = hasOne(Profile, { dependent: "destroy" });
};

/** The same owner name and default foreign key, with a profile that refuses the owner's destroy. */
export const ProfileGuardedUser = class User extends ApplicationRecord("users") {
  profile = hasOne(Profile, { dependent: "restrictWithError" });
};

/**
 * A text key over the authors table, whose integer `id` stores digits: keys copied to `Book.authorId` (an integer)
 * through its associations must be cast.
 */
export class TextKeyedAuthor extends Model({ id: { type: "string", null: false }, name: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "authors";
  books = hasMany(Book, { foreignKey: "authorId" });
  firstBook = hasOne(Book, { foreignKey: "authorId" });
}

/** A book (integer `authorId`) whose parent has a text key. */
export class TextKeyedBook extends Model({ id: "integer", authorId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "books";
  author = belongsTo(TextKeyedAuthor);
}

/** A child whose foreign key may be NULL. Its before-destroy callback refuses, so a `destroy` of it would show. */
export class Review extends Model({
  id: { type: "string", null: false, generateId: true },
  userId: "string",
  body: { type: "string", null: false },
  starred: { type: "boolean", null: false, default: () => false },
}) {
  static override binding = "DB";
  static {
    this.beforeDestroy(() => {
      throw abort("reviews are kept");
    });
  }
}
