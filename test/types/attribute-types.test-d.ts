/**
 * Compile-time checks of attribute types plugins define: the money type of the guide (its value `{ cents }`, text
 * accepted, text in JSON) declared through a generated table's overrides and through a Model's own declarations.
 * Only type-checked by tsc --noEmit.
 */
import { expectTypeOf } from "vitest";
import { gt, Model, type AttributeTypeName } from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType } from "../../src/plugin.js";
import { ApplicationRecord } from "../models/fixtures.js";
import type { Money } from "../helpers/guide-plugins.js";

// The plugin's entry in AttributeTypeMap makes its name a type name.
expectTypeOf<"money">().toMatchTypeOf<AttributeTypeName>();

class Priced extends ApplicationRecord("users", { age: "money", score: { type: "money", null: false } }) {}
class Declared extends Model({ id: "integer", price: "money" }) {}

function recordTypes() {
  const priced = Priced.build({ age: "12.50", score: { cents: 3 } });
  expectTypeOf(priced.age).toEqualTypeOf<Money | null>();
  expectTypeOf(priced.score).toEqualTypeOf<Money>();
  expectTypeOf(new Declared().price).toEqualTypeOf<Money | null>();
  // What toJSON gives: the type's JSON form (AttributeJsonMap).
  expectTypeOf(priced.toJSON().score).toEqualTypeOf<string | undefined>();
  expectTypeOf(priced.toJSON().age).toEqualTypeOf<string | null | undefined>();
  // @ts-expect-error a number is neither Money nor its text
  Priced.build({ age: 12 });
  // A property takes the value itself, as for the built-in types; assign() takes its text too.
  priced.score = { cents: 300 };
  priced.assign({ score: "3.00" });
  // @ts-expect-error not a Money
  priced.score = "3.00";
  // @ts-expect-error score is non-null
  priced.score = null;
}
void recordTypes;

async function queryTypes() {
  Priced.where({ age: "1.00" });
  Priced.where({ age: [{ cents: 1 }, "2", null] });
  Priced.where({ age: gt({ cents: 100 }) });
  // @ts-expect-error a condition on a money attribute takes Money or its text
  Priced.where({ age: true });
  await Priced.updateAll({ score: "4.00" });
  // @ts-expect-error updateAll casts as build does
  await Priced.updateAll({ score: 4 });
  expectTypeOf(await Priced.pluck("score")).toEqualTypeOf<Money[]>();
  expectTypeOf(await Priced.pluck("name", "age")).toEqualTypeOf<[string, Money | null][]>();
}
void queryTypes;

function definitionTypes() {
  // A definition's conversions are typed by the type's entry in AttributeTypeMap.
  const money: AttributeTypeDefinition<Money> = { cast: () => undefined, toDatabase: (value) => value.cents, fromDatabase: (stored) => ({ cents: Number(stored) }) };
  defineAttributeType("money", money);
  // @ts-expect-error fromDatabase must give the type's value
  defineAttributeType("money", { ...money, fromDatabase: (stored: unknown) => String(stored) });
  // @ts-expect-error an unknown type name is not a declaration
  Model({ id: "integer", price: "dollars" });
}
void definitionTypes;
