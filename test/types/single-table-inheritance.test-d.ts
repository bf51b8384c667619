/** Compile-time checks of single-table inheritance: a subclass's queries give its records. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { Model } from "../../src/index.js";

class Vehicle extends Model({ id: "integer", type: "string", wheels: "integer" }) {
  static {
    this.inheritance(() => ({ Car, Bike }));
    // @ts-expect-error: the column is an attribute of the Model
    this.inheritance(() => ({ Car }), { column: "kind" });
    // @ts-expect-error: every type is the Model or a subclass of it
    this.inheritance(() => ({ Stranger }));
  }
}
class Car extends Vehicle {
  honk() {
    return "beep";
  }
}
class Bike extends Vehicle {}
class Stranger extends Model({ id: "integer", name: "string" }) {}

async function queries() {
  expectTypeOf(await Vehicle.first()).toEqualTypeOf<Vehicle | null>();
  expectTypeOf(await Car.first()).toEqualTypeOf<Car | null>();
  expectTypeOf(await Car.where({ wheels: 4 }).toArray()).toEqualTypeOf<Car[]>();
  expectTypeOf(Car.build().honk()).toEqualTypeOf<string>();
  expectTypeOf(await Bike.find(1)).toEqualTypeOf<Bike>();
}
void queries;
