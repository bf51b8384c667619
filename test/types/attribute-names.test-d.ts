/** Compile-time checks: unknown attribute names in build, create, assign, update and permit are compile errors. Only type-checked by tsc --noEmit. */
import {
  ActiveRecord,
  belongsTo,
  defineApplicationRecord,
  hasMany,
  hasOne,
  Model,
  type ScopeStatic,
} from "../../src/index.js";
import { assertTrue, type Equal } from "./assert.js";

/** A schema as `recordflare g model` writes it. */
const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    age: "integer",
    admin: { type: "boolean", null: false, default: false },
    bornAt: "datetime",
    settings: "json",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  posts: {
    id: { type: "string", null: false, generateId: true },
    userId: { type: "string", null: false },
    title: { type: "string", null: false },
    published: { type: "boolean", null: false, default: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  profiles: {
    id: { type: "string", null: false, generateId: true },
    userId: { type: "string", null: false },
    bio: "string",
  },
  counters: {
    id: { type: "integer", null: false },
    value: { type: "integer", null: false },
  },
} as const;

class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
}

const GeneratedApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

class User extends GeneratedApplicationRecord("users") {
  posts = hasMany(Post, { dependent: "destroy" });
  profile = hasOne(Profile);
}

class Post extends GeneratedApplicationRecord("posts") {
  user = belongsTo(User);
  static published = this.scope((q) => q.where({ published: true }));
  // SPEC Scopes 6: a scope whose body names its own class has its type written as ScopeStatic<[...args]>.
  static titled: ScopeStatic<[title: string]> = this.scope((q, title: string) => q.where({ title }).merge(Post.published()));
}

class Profile extends GeneratedApplicationRecord("profiles") {
  user = belongsTo(User);
}

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
