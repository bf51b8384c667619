import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
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
