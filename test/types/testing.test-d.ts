/** Compile-time checks of recordflare/testing's factories. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { defineFactory } from "../../src/testing/index.js";
import { Post, User } from "../models/fixtures.js";

const users = defineFactory(User, (n) => ({ name: `User ${n}` }), { traits: { admin: { admin: true } } });
const posts = defineFactory(Post, (n) => ({ title: `Post ${n}`, userId: users }));

async function factories() {
  expectTypeOf(users.build()).toEqualTypeOf<User>();
  expectTypeOf(await users.createList(2, {}, "admin")).toEqualTypeOf<User[]>();
  expectTypeOf(await posts.create()).toEqualTypeOf<Post>();
  // @ts-expect-error: traits are the factory's own
  users.build({}, "moderator");
  // @ts-expect-error: attributes are the Model's
  users.build({ nickname: "x" });
  // @ts-expect-error: an attribute takes its type
  defineFactory(User, () => ({ age: "old" }));
}
void factories;
