import { expectTypeOf } from "vitest";
import { column, Model, sql, type Statement } from "../../src/index.js";

class Player extends Model({ id: "integer", name: "string", score: "integer", rating: "real", bornAt: "datetime" }) {}

// updateAll: each value is the attribute's type (or a form that casts to it) or an sql fragment.
expectTypeOf(Player.updateAll({ score: sql`${column("score")} + ${1}`, name: "x" })).toEqualTypeOf<Promise<number>>();
expectTypeOf(Player.where({ name: "x" }).toUpdateAll({ bornAt: sql`CURRENT_TIMESTAMP` })).toEqualTypeOf<Statement<number>>();
// @ts-expect-error a fragment does not make an unknown attribute known
void Player.updateAll({ points: sql`1` });
// @ts-expect-error nor does it widen the other values: a name is text
void Player.where({ id: 1 }).updateAll({ name: {} });

// updateCounters: the number attributes only (an integer one checked when called), each change a number.
expectTypeOf(Player.updateCounters(1, { score: 1 })).toEqualTypeOf<Promise<number>>();
expectTypeOf(Player.updateCounters([1, 2], { score: -2 }, { touch: true })).toEqualTypeOf<Promise<number>>();
expectTypeOf(Player.toUpdateCounters(1, { score: 1 })).toEqualTypeOf<Statement<number>>();
// @ts-expect-error an unknown attribute
void Player.updateCounters(1, { points: 1 });
// @ts-expect-error a text attribute is no counter
void Player.updateCounters(1, { name: 1 });
// @ts-expect-error a change is a number
void Player.updateCounters(1, { score: "1" });
// @ts-expect-error touch is true or false
void Player.updateCounters(1, { score: 1 }, { touch: "yes" });

declare const player: Player;
expectTypeOf(player.increment("score")).toEqualTypeOf<Player>();
expectTypeOf(player.decrement("score", 2)).toEqualTypeOf<Player>();
expectTypeOf(player.incrementAndSave("score", 2, { touch: false })).toEqualTypeOf<Promise<Player>>();
expectTypeOf(player.decrementAndSave("score")).toEqualTypeOf<Promise<Player>>();
// @ts-expect-error an unknown attribute
player.increment("points");
// @ts-expect-error a date is no counter
void player.incrementAndSave("bornAt");
// @ts-expect-error the change is a number
player.decrement("score", "2");
