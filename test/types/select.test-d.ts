/** Compile-time checks of select(...names). Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import {
  ActiveRecord,
  belongsTo,
  defineApplicationRecord,
  hasMany,
  hasOne,
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
}
void selecting;
