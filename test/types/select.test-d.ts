/** Compile-time checks of select(...names). Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { assertTrue, type Equal } from "./assert.js";
import { User, Profile } from "./generated-app.js";

// ---- SPEC Querying: select(...names) loads those attributes; reading another throws (at run time) -----------

async function selecting() {
  const user = await User.select("name").first();
  assertTrue<Equal<typeof user, User | null>>();
  expectTypeOf(user!.name).toEqualTypeOf<string>();
  // Reading another attribute is not refused by the compiler: SPEC says it throws MissingAttribute.
  expectTypeOf(user!.age).toEqualTypeOf<number | null>();
  expectTypeOf(User.select("name", "email").distinct().toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.select("name").pluck("name", "age")).toEqualTypeOf<Promise<[string, number | null][]>>();
  // @ts-expect-error: nope is not an attribute
  User.select("nope");
  // @ts-expect-error: a column name is not an attribute name
  User.where({ admin: true }).select("born_at");
  // @ts-expect-error: createdAt is not an attribute of profiles
  Profile.select("createdAt");
  // @ts-expect-error: select needs at least one name (it throws TypeError without)
  User.select();
  // @ts-expect-error: on a Relation too
  User.where({ admin: true }).select();
}
void selecting;
