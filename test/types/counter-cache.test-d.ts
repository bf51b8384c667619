import { expectTypeOf } from "vitest";
import { belongsTo, hasMany, Model } from "../../src/index.js";

class Board extends Model({ id: "integer", title: "string", ccTopicsCount: "integer", score: "real" }) {
  topics = hasMany(Topic, { foreignKey: "ccBoardId" });
}

class Topic extends Model({ id: "integer", ccBoardId: "integer" }) {
  board = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: true });
  named = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: "ccTopicsCount" });
  real = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: "score" });
  // @ts-expect-error the counter is a number attribute of the parent, not a string one
  text = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: "title" });
  // @ts-expect-error the counter is an attribute of the parent
  missing = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: "topicsCount" });
  // @ts-expect-error counterCache is true or an attribute name
  flag = belongsTo(Board, { foreignKey: "ccBoardId", counterCache: false });
}

// @ts-expect-error counterCache is belongsTo's
hasMany(Topic, { foreignKey: "ccBoardId", counterCache: true });

expectTypeOf(Board.resetCounters(1, "topics")).toEqualTypeOf<Promise<number>>();
expectTypeOf(Board.resetCounters([1, 2], "topics", "ccTopicsCount")).toEqualTypeOf<Promise<number>>();
// @ts-expect-error a counter is named by a hasMany of the Model or its number attribute
void Board.resetCounters(1, "title");
// @ts-expect-error a counter is named by a hasMany of the Model or its number attribute
void Board.resetCounters(1, "comments");
// @ts-expect-error at least one counter is named
void Board.resetCounters(1);
void Topic;

// A polymorphic belongsTo: the counter is checked against every listed Model.
class Album extends Model({ id: "integer", title: "string", reviewsCount: "integer", likesCount: "integer" }) {
  reviews = hasMany(Review, { as: "reviewable" });
}

class Track extends Model({ id: "string", title: "string", reviewsCount: "integer" }) {
  reviews = hasMany(Review, { as: "reviewable" });
}

class Review extends Model({ id: "integer", reviewableType: "string", reviewableId: "string" }) {
  reviewable = belongsTo([Album, Track], { polymorphic: true, counterCache: true });
  named = belongsTo([Album, Track], { polymorphic: true, foreignKey: "reviewableId", foreignType: "reviewableType", counterCache: "reviewsCount" });
}

class Misdeclared extends Model({ id: "integer", reviewableType: "string", reviewableId: "string" }) {
  // @ts-expect-error Track has no likesCount: the counter is an attribute of every listed Model
  partly = belongsTo([Album, Track], { polymorphic: true, foreignKey: "reviewableId", foreignType: "reviewableType", counterCache: "likesCount" });
  // @ts-expect-error the counter is a number attribute of every listed Model, not a string one
  text = belongsTo([Album, Track], { polymorphic: true, foreignKey: "reviewableId", foreignType: "reviewableType", counterCache: "title" });
  // @ts-expect-error counterCache is true or an attribute name
  flag = belongsTo([Album, Track], { polymorphic: true, foreignKey: "reviewableId", foreignType: "reviewableType", counterCache: false });
}

expectTypeOf(Album.resetCounters(1, "reviews")).toEqualTypeOf<Promise<number>>();
expectTypeOf(Track.resetCounters(["a", "b"], "reviewsCount")).toEqualTypeOf<Promise<number>>();
void Review;
void Misdeclared;
