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
