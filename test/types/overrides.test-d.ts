/** Compile-time checks of overrides: unknown keys are compile errors, and the record type after each override form. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { ApplicationRecord } from "../models/fixtures.js";
import { GeneratedApplicationRecord } from "./generated-app.js";

// ---- override forms: the record type after each -------------------------------------------------------------

function overrideForms() {
  // A type change with a default: the new type, the generated nullability.
  class Retyped extends ApplicationRecord("users", { settings: { type: "integer", default: 0 }, name: { type: "json" } }) {}
  expectTypeOf(new Retyped().settings).toEqualTypeOf<number | null>();
  expectTypeOf(new Retyped().name).toEqualTypeOf<unknown>();
  // `generateId: false`, `null` with a default: nullability follows `null` only.
  class Generated extends ApplicationRecord("users", { id: { generateId: false }, email: { null: false, default: "x" } }) {}
  expectTypeOf(new Generated().id).toEqualTypeOf<string>();
  expectTypeOf(new Generated().email).toEqualTypeOf<string>();
  // Writes follow the override too.
  Retyped.build({ settings: "3" });
  // @ts-expect-error: settings is now an integer
  Retyped.build({ settings: {} });
  // @ts-expect-error: email is now non-null
  new Generated().email = null;
  // @ts-expect-error: an override cannot change the column
  ApplicationRecord("users", { email: { column: "mail" } });
  // @ts-expect-error: null is true or false
  ApplicationRecord("users", { email: { null: "no" } });
}
void overrideForms;

// ---- SPEC Overrides: "Keys are attribute names; an unknown name is a compile error." --------------------

function overrideKeys() {
  // Held in a variable next to a known key, an unknown key is still refused.
  const mixed = { email: { null: false }, nope: false } as const;
  // @ts-expect-error: nope is not an attribute of users
  GeneratedApplicationRecord("users", mixed);
  // @ts-expect-error: name is an attribute of users, not of posts
  GeneratedApplicationRecord("posts", { name: false });
  // @ts-expect-error: id of counters exists, but not bio
  GeneratedApplicationRecord("counters", { id: "integer", bio: "string" });
  // Held in a variable, cast, or passed in, an object of unknown keys only is refused too.
  const unknownOnly = { nope: "string" } as const;
  // @ts-expect-error: nope is not an attribute of users
  GeneratedApplicationRecord("users", unknownOnly);
  // @ts-expect-error: nope is not an attribute of users
  GeneratedApplicationRecord("users", { nope: "string" } as { nope: "string" });
  // @ts-expect-error: nope is not an attribute of users
  const passedIn = (overrides: { nope: false }) => GeneratedApplicationRecord("users", overrides);
  void passedIn;

  // `null` in an override: false makes it non-null, true nullable; a type name keeps the generated nullability.
  class Relaxed extends GeneratedApplicationRecord("users", { name: { null: true } }) {}
  expectTypeOf(new Relaxed().name).toEqualTypeOf<string | null>();
  class Retyped extends GeneratedApplicationRecord("users", { name: "integer", email: { type: "boolean" } }) {}
  expectTypeOf(new Retyped().name).toEqualTypeOf<number>();
  expectTypeOf(new Retyped().email).toEqualTypeOf<boolean | null>();
  class AsJson extends GeneratedApplicationRecord("users", { name: { type: "json" } }) {}
  expectTypeOf(new AsJson().name).toEqualTypeOf<unknown>();

  // An ignored column (`false`) is never typed, read or written.
  class Ignoring extends GeneratedApplicationRecord("users", { email: false }) {}
  // @ts-expect-error: email is ignored
  void Ignoring.create({ email: "x" });
  // @ts-expect-error: email is ignored
  void new Ignoring().update({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.findBy({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.insert({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.pluck("name", "email");
}
void overrideKeys;
