/**
 * Compile-time checks of destroyAll and destroyBy: they resolve to the records destroyed, and take conditions typed
 * like where's object. Only type-checked by tsc --noEmit; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { connect, type D1DatabaseLike } from "../../src/index.js";
import { Post, User } from "./generated-app.js";

function destroying(binding: D1DatabaseLike) {
  expectTypeOf(Post.destroyAll()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(Post.published().where({ userId: "u1" }).destroyAll()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(User.destroyBy({ admin: false, age: [1, 2] })).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(Post.where({ published: true }).destroyBy({ title: "x" })).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(connect(binding).model(User).destroyBy({ name: "Ada" })).toEqualTypeOf<Promise<User[]>>();
  // @ts-expect-error: destroyAll takes no conditions; narrow with where first, or use destroyBy
  void Post.destroyAll({ title: "x" });
  // @ts-expect-error: destroyBy needs its conditions
  void Post.destroyBy();
  // @ts-expect-error: an unknown attribute
  void Post.destroyBy({ titel: "x" });
}
void destroying;
