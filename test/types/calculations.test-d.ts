/** Compile-time checks of pluck: a name is required; one name gives values, several give tuples. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { assertTrue, type Equal } from "./assert.js";
import { GeneratedApplicationRecord, User, Post, Counter } from "./generated-app.js";
import { Author } from "./authors-and-books.js";

// ---- pluck needs at least one name (it throws TypeError without) ---------------------------------------------

function pluckNames() {
  expectTypeOf(Author.pluck("name")).toEqualTypeOf<Promise<string[]>>();
  expectTypeOf(Author.pluck("name", "admin")).toEqualTypeOf<Promise<[string, boolean | null][]>>();
  const names = ["name", "age"] as const;
  expectTypeOf(Author.pluck(...names)).toEqualTypeOf<Promise<[string, number | null][]>>();
  // @ts-expect-error: pluck needs an attribute name
  void Author.pluck();
  // @ts-expect-error: pluck needs an attribute name
  void Author.all().pluck();
}
void pluckNames;

// ---- SPEC Results: pluck(name) gives an array of values, pluck(a, b) an array of tuples ---------------------

async function plucking() {
  expectTypeOf(User.pluck("name", "age", "bornAt", "settings")).toEqualTypeOf<Promise<[string, number | null, Date | null, unknown][]>>();
  expectTypeOf(User.where({ admin: true }).order({ name: "asc" }).pluck("id", "admin")).toEqualTypeOf<Promise<[string, boolean][]>>();
  expectTypeOf(User.pluck("name", "name")).toEqualTypeOf<Promise<[string, string][]>>();
  expectTypeOf(Counter.pluck("id")).toEqualTypeOf<Promise<number[]>>();
  expectTypeOf(Post.published().pluck("title", "userId")).toEqualTypeOf<Promise<[string, string][]>>();
  // Overrides change what pluck gives.
  class Overridden extends GeneratedApplicationRecord("users", { age: "real", email: { null: false } }) {}
  expectTypeOf(Overridden.pluck("age", "email")).toEqualTypeOf<Promise<[number | null, string][]>>();
  const rows = await User.all().pluck("email", "createdAt");
  assertTrue<Equal<typeof rows, [string | null, Date][]>>();
}
void plucking;
