/** Compile-time checks of scopes: ScopeStatic, and q without the Model's other scopes. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { gt, hasMany, Model, type RelationOf, type ScopeStatic } from "../../src/index.js";
import { GeneratedApplicationRecord, User, Post } from "./generated-app.js";

// ---- SPEC Scopes 5 and 6: ScopeStatic, and q without the Model's other scopes ----------------------------

function scopes(user: User) {
  expectTypeOf(Post.titled("x").toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(Post.published().titled("x").first()).toEqualTypeOf<Promise<Post | null>>();
  expectTypeOf(Post.where({ published: true }).titled("x").pluck("title")).toEqualTypeOf<Promise<string[]>>();
  const relation: RelationOf<typeof Post> = Post.titled("x");
  void relation;
  // @ts-expect-error: titled takes a string
  Post.titled(1);
  // @ts-expect-error: titled takes one argument
  Post.titled();
  // @ts-expect-error: scopes belong to their Model
  User.published();

  // Inherited scopes return the subclass's records; a subclass may replace one with `static override`.
  class Special extends Post {}
  expectTypeOf(Special.titled("x").toArray()).toEqualTypeOf<Promise<Special[]>>();
  expectTypeOf(Special.published().toArray()).toEqualTypeOf<Promise<Special[]>>();
  class Replaced extends Post {
    static override published = this.scope((q) => q.where({ title: "x" }));
  }
  expectTypeOf(Replaced.published().toArray()).toEqualTypeOf<Promise<Replaced[]>>();

  // ScopeStatic with no arguments, optional and rest arguments.
  class Shaped extends GeneratedApplicationRecord("users") {
    static everyone: ScopeStatic<[]> = this.scope((q) => q.merge(Shaped.all()));
    static aged = this.scope((q, age?: number) => q.where({ age: age ?? null }));
    static named = this.scope((q, ...names: string[]) => q.where({ name: names }));
    static older: ScopeStatic<[age: number]> = this.scope((q, age: number) => q.where({ age: gt(age) }).merge(Shaped.everyone()));
  }
  expectTypeOf(Shaped.everyone().toArray()).toEqualTypeOf<Promise<Shaped[]>>();
  expectTypeOf(Shaped.older(3).aged().named("a", "b").toArray()).toEqualTypeOf<Promise<Shaped[]>>();
  // @ts-expect-error: names are strings
  Shaped.named(1);

  // A written-out ScopeStatic must agree with the body's arguments.
  class Mismatched extends GeneratedApplicationRecord("users") {
    // @ts-expect-error: the body takes a string, the type says a number
    static s: ScopeStatic<[n: number]> = this.scope((q, s: string) => q.where({ name: s }));
  }
  void Mismatched;

  // Inside a scope, q has the Relation methods but not the Model's other scopes.
  class Inner extends GeneratedApplicationRecord("posts") {
    static a = this.scope((q) => q.where({ published: true }));
    // @ts-expect-error: q has no scopes
    static b = this.scope((q) => q.a());
  }
  void Inner;

  // Scopes are on a hasMany Relation of the target.
  expectTypeOf(user.posts().published().toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(user.posts().titled("x").toArray()).toEqualTypeOf<Promise<Post[]>>();
}
void scopes;
