/** Reviewers (the users table) and their reviews, each with at most one reviewer: associations by name. */
import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
import { ApplicationRecord } from "./fixtures.js";

export class Reviewer extends ApplicationRecord("users") {
  reviews = hasMany(Review, { foreignKey: "userId" });
  latest = hasOne(Review, { foreignKey: "userId" });
}

/** A review whose reviewer may be absent (a NULL key). */
export class Review extends Model({ id: { type: "string", null: false }, userId: "string", body: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "reviews";
  reviewer = belongsTo(Reviewer, { foreignKey: "userId", optional: true });
}
