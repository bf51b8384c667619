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
