/**
 * Compile-time probes of SPEC.md's Validations and Callbacks: `this.validates('<attribute>', { ... })` takes an
 * attribute of the Model and the listed option shapes; `beforeSave(fn)` and `beforeDestroy(fn)` take a function
 * receiving the record. Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { abort, Model } from "../../src/index.js";
import { Author } from "./authors-and-books.js";

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

// ---- validates: inclusion lists values of the attribute's type ------------------------------------------------

export class Checked extends Model({ id: { type: "string", null: false }, name: "string", age: "integer", admin: "boolean" }) {
  static {
    this.validates("name", { inclusion: ["a", "b", null] });
    this.validates("age", { inclusion: { in: [1, 2, 3], allowNil: true } });
    this.validates("admin", { inclusion: [true, false] });
    // @ts-expect-error: age is an integer; "1" never equals a stored number
    this.validates("age", { inclusion: ["1", "2"] });
    // @ts-expect-error: name is a string
    this.validates("name", { inclusion: { in: [1] } });
    // @ts-expect-error: admin is a boolean
    this.validates("admin", { inclusion: ["yes"] });
  }
}

// ---- every callback receives the record, and only functions -----------------------------------------------

export class Called extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static {
    this.beforeCreate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.beforeUpdate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterSave(async (record) => {
      expectTypeOf(record.name).toEqualTypeOf<string | null>();
    });
    this.afterCreate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterUpdate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterDestroy((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    // @ts-expect-error: a callback receives a Called, not an Author
    this.afterSave((record: Author) => void record);
    // @ts-expect-error: a callback is a function
    this.afterDestroy({});
  }
}
