/**
 * Compile-time probes of SPEC.md's Validations and Callbacks: `this.validates('<attribute>', { ... })` takes an
 * attribute of the Model and the listed option shapes; `beforeSave(fn)` and `beforeDestroy(fn)` take a function
 * receiving the record. Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { abort, Model } from "../../src/index.js";

export class Member extends Model({ id: { type: "string", null: false }, name: "string", age: "integer" }) {
  static {
    this.validates("name", { presence: true, length: { minimum: 2, maximum: 40 }, format: /^\w/, inclusion: ["a", "b"] });
    this.validates("name", { uniqueness: { caseSensitive: false } });
    this.validates("age", { numericality: { onlyInteger: true, greaterThan: 0 } });
    // @ts-expect-error: not an attribute of the Model
    this.validates("nickname", { presence: true });
    // @ts-expect-error: a typo of an option
    this.validates("name", { presense: true });
    // @ts-expect-error: length takes minimum and maximum
    this.validates("name", { length: { min: 2 } });
    // @ts-expect-error: format is a RegExp
    this.validates("name", { format: "^a" });
    this.beforeSave((member) => {
      expectTypeOf(member).toEqualTypeOf<Member>();
      expectTypeOf(member.age).toEqualTypeOf<number | null>();
      if (member.age === 0) throw abort("too young");
    });
    this.beforeDestroy(async (member) => {
      expectTypeOf(member).toEqualTypeOf<Member>();
    });
    // @ts-expect-error: a callback is a function
    this.beforeSave("normalize");
  }
}
