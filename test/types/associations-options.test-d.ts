import { belongsTo, hasMany, hasOne } from "../../src/index.js";
import { ApplicationRecord } from "../models/fixtures.js";

class Post extends ApplicationRecord("posts") {
  writer = belongsTo(Writer, { foreignKey: "userId" });
  optionalWriter = belongsTo(Writer, { foreignKey: "userId", optional: true });
}

export class Writer extends ApplicationRecord("users") {
  posts = hasMany(Post, { foreignKey: "userId" });
  // @ts-expect-error the foreign key of a hasMany is an attribute of the child
  misspelt = hasMany(Post, { foreignKey: "userID" });
  latest = hasOne(Post, { foreignKey: "userId" });
  // @ts-expect-error the foreign key of a hasOne is an attribute of the child
  wrong = hasOne(Post, { foreignKey: "authorId" });
}

// @ts-expect-error optional is a boolean
belongsTo(Writer, { optional: "yes" });

// The guide's "Associations": `dependent` takes the strategies of its association only.
export class Owner extends ApplicationRecord("users") {
  posts = hasMany(Post, { foreignKey: "userId", dependent: "deleteAll" });
  latest = hasOne(Post, { foreignKey: "userId", dependent: "delete" });
  nullified = hasMany(Post, { foreignKey: "userId", dependent: "nullify" });
  // @ts-expect-error a hasMany deletes its children with deleteAll, not delete
  deleted = hasMany(Post, { foreignKey: "userId", dependent: "delete" });
  // @ts-expect-error a hasOne deletes its child with delete, not deleteAll
  deletedOne = hasOne(Post, { foreignKey: "userId", dependent: "deleteAll" });
  // @ts-expect-error restrictWithException is not offered (destroyOrThrow with restrictWithError throws)
  restricted = hasMany(Post, { foreignKey: "userId", dependent: "restrictWithException" });
}

// The guide's "Not in Rails": options beyond foreignKey, scope, dependent (and belongsTo's optional) are compile errors.
export class Elsewhere extends ApplicationRecord("users") {
  // @ts-expect-error className is not an option: the target is the class passed
  posts = hasMany(Post, { foreignKey: "userId", className: "Post" });
  // @ts-expect-error through takes an association field of the owner (this.posts), with no foreignKey
  latest = hasOne(Post, { foreignKey: "userId", through: "posts" });
}
// @ts-expect-error autosave is not an option: children built are always saved with the record
belongsTo(Writer, { foreignKey: "userId", autosave: false });
// @ts-expect-error scope is for hasMany and hasOne
belongsTo(Writer, { foreignKey: "userId", scope: (q: never) => q });
