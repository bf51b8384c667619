/** Compile-time checks: an attribute may be null unless declared null: false. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import {
  ActiveRecord,
  belongsTo,
  defineApplicationRecord,
  hasMany,
  hasOne,
  type ScopeStatic,
} from "../../src/index.js";

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

class Counter extends GeneratedApplicationRecord("counters") {}

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
