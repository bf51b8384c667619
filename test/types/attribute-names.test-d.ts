/** Compile-time checks: unknown attribute names in build, create, assign, update and permit are compile errors. Only type-checked by tsc --noEmit. */
import { hasOne, Model } from "../../src/index.js";
import { assertTrue, type Equal } from "./assert.js";
import { User } from "./generated-app.js";

class Note extends Model({ id: "string", body: "string" }) {}

// ---- unknown names in build / create / assign / update / permit ----------------------------------------

async function unknownNames(user: User, input: FormData) {
  // @ts-expect-error: nope is not an attribute
  void User.createOrThrow({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  void User.where({ admin: true }).createOrThrow({ nope: 1 });
  // @ts-expect-error: nope is not an attribute (a child built through an association)
  user.posts().build({ nope: 1 });
  // @ts-expect-error: nope is not an attribute (a hasOne child)
  user.profile.build({ nope: 1 });
  // @ts-expect-error: an association field is not an attribute
  User.build({ posts: [] });
  // @ts-expect-error: nope is not an attribute of a hand-declared Model either
  Note.build({ nope: 1 });

  // SPEC permit: "a name that is not an attribute is a compile error", however the names are given.
  const names = ["name", "nope"] as const;
  // @ts-expect-error: nope is not an attribute
  User.permit(input, ...names);
  const someNames: string[] = ["name"];
  // @ts-expect-error: any string may not be an attribute
  User.permit(input, ...someNames);
  // @ts-expect-error: an association name is not an attribute
  User.permit(input, "posts");
  // @ts-expect-error: nope is not an attribute of Note
  Note.permit(input, "nope");
  const permitted = User.permit(input, "name", "email");
  assertTrue<Equal<typeof permitted, { name?: string; email?: string | null }>>();
  User.build(permitted);
  await user.update(User.permit(input, "age", "bornAt"));
}
void unknownNames;
