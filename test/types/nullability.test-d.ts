/** Compile-time checks: an attribute may be null unless declared null: false. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { GeneratedApplicationRecord, User, Counter } from "./generated-app.js";

// ---- SPEC: "An attribute may be null unless declared null: false; its TypeScript type then includes null." --

function nullability(user: User, counter: Counter) {
  expectTypeOf(user.name).toEqualTypeOf<string>();
  expectTypeOf(user.email).toEqualTypeOf<string | null>();
  expectTypeOf(user.admin).toEqualTypeOf<boolean>();
  expectTypeOf(user.settings).toEqualTypeOf<unknown>();
  expectTypeOf(counter.id).toEqualTypeOf<number>();
  expectTypeOf(counter.value).toEqualTypeOf<number>();
  user.email = null;
  // @ts-expect-error: name is declared null: false
  user.name = null;
  expectTypeOf(user.attributes().name).toEqualTypeOf<string>();
  expectTypeOf(user.attributes().bornAt).toEqualTypeOf<Date | null>();
  expectTypeOf(user.readAttribute("email")).toEqualTypeOf<string | null>();

  // The hand-declared form of the app's function: `null: true` is the same as leaving it out.
  class Declared extends GeneratedApplicationRecord({ a: { type: "integer", null: false }, b: { type: "integer", null: true }, c: "integer" }) {}
  const declared = new Declared();
  expectTypeOf(declared.a).toEqualTypeOf<number>();
  expectTypeOf(declared.b).toEqualTypeOf<number | null>();
  expectTypeOf(declared.c).toEqualTypeOf<number | null>();
}
void nullability;
