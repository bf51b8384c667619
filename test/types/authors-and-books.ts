/** Authors with books and a portrait, declared by hand with `Model({...})`, for the type tests. Only type-checked. */
import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";

export class Author extends Model({
  id: { type: "string", null: false },
  name: { type: "string", null: false },
  nickname: "string",
  age: "integer",
  score: "real",
  admin: "boolean",
  bornAt: "datetime",
  settings: "json",
}) {
  books = hasMany(Book);
  portrait = hasOne(Portrait);
}

export class Book extends Model({ id: { type: "string", null: false }, authorId: "string", title: "string", pages: "integer" }) {
  author = belongsTo(Author);
}

export class Portrait extends Model({ id: { type: "string", null: false }, authorId: "string", url: "string" }) {}
