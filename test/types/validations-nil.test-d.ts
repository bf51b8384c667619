/**
 * Compile-time probes of `allowNil` and `allowBlank`: on a check's options object, on the long forms of `format`
 * (`{ with }`) and `inclusion` (`{ in }`), and on the declaration; the short forms stay, and unknown names are still
 * refused. Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { Model } from "../../src/index.js";

export class Guest extends Model({ id: { type: "string", null: false }, name: "string", age: "integer" }) {
  static {
    this.validates("name", { length: { minimum: 3, allowNil: true }, format: { with: /^\w/, allowBlank: true } });
    this.validates("name", { uniqueness: { caseSensitive: false, allowNil: true }, inclusion: { in: ["a", null], allowNil: false } });
    this.validates("age", { numericality: { allowNil: true }, inclusion: [1, 2], allowBlank: true });
    this.validates("name", { presence: true, length: { minimum: 3 }, format: /^\w/, allowNil: true, message: "is odd" });
    // @ts-expect-error: a typo of allowNil
    this.validates("name", { length: { minimum: 3, allownil: true } });
    // @ts-expect-error: Rails' snake_case name is not this library's
    this.validates("name", { length: { minimum: 3 }, allow_nil: true });
    // @ts-expect-error: allowNil is true or false
    this.validates("name", { length: { minimum: 3 }, allowNil: "yes" });
    // @ts-expect-error: the long form of format needs its RegExp, `with`
    this.validates("name", { format: { allowNil: true } });
    // @ts-expect-error: with is a RegExp
    this.validates("name", { format: { with: "^a", allowNil: true } });
    // @ts-expect-error: the long form of inclusion needs its list, `in`
    this.validates("name", { inclusion: { allowNil: true } });
    // @ts-expect-error: presence takes no options
    this.validates("name", { presence: { allowNil: true } });
    // @ts-expect-error: uniqueness's scope names attributes of the Model
    this.validates("name", { uniqueness: { scope: "agee", allowNil: true } });
    // @ts-expect-error: every name of the list too
    this.validates("name", { uniqueness: { scope: ["age", "nope"] } });
    this.validates("name", { uniqueness: { scope: "age", allowNil: true } });
    this.validates("name", { uniqueness: { scope: ["age"], caseSensitive: false } });
    // @ts-expect-error: numericality offers no lessThan
    this.validates("age", { numericality: { lessThan: 3, allowNil: true } });
  }
}
