/** Compile-time checks of association fields' types. Only type-checked by tsc --noEmit. */
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

// ---- SPEC Associations: field types --------------------------------------------------------------------

async function associations(user: User, post: Post, profile: Profile) {
  // hasMany: user.posts() finds records; user.posts().build(attrs) builds a child.
  expectTypeOf(user.posts().toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(user.posts().build({ title: "x" })).toEqualTypeOf<Post>();
  expectTypeOf(user.posts().where({ published: true }).first()).toEqualTypeOf<Promise<Post | null>>();
  expectTypeOf(user.posts().pluck("title", "published")).toEqualTypeOf<Promise<[string, boolean][]>>();
  expectTypeOf(user.posts().count()).toEqualTypeOf<Promise<number>>();
  // @ts-expect-error: nope is not an attribute of posts
  user.posts().where({ nope: 1 });
  // @ts-expect-error: title is a string attribute
  user.posts().build({ title: 5 });

  // belongsTo: post.user; post.user.set(record) assigns.
  expectTypeOf(post.user.load()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(post.user.get()).toEqualTypeOf<User | null>();
  post.user.set(user);
  post.user.set(null);
  // @ts-expect-error: a Post is not a User
  post.user.set(post);
  // @ts-expect-error: a Profile is not a User
  post.user.set(profile);

  // hasOne: user.profile.build() builds the child.
  expectTypeOf(user.profile.build()).toEqualTypeOf<Profile>();
  expectTypeOf(user.profile.build({ bio: "hi" })).toEqualTypeOf<Profile>();
  expectTypeOf(user.profile.load()).toEqualTypeOf<Promise<Profile | null>>();
  // @ts-expect-error: bio is a string attribute
  user.profile.build({ bio: 5 });

  // Association fields are not attributes.
  // @ts-expect-error: posts is not an attribute
  User.where({ posts: 1 });
  // @ts-expect-error: posts is not an attribute
  void User.pluck("posts");
  // @ts-expect-error: posts is not an attribute
  User.select("posts");
  // @ts-expect-error: attributes() has no associations
  void user.attributes().posts;
  // @ts-expect-error: toJSON() never includes associations
  void user.toJSON().posts;
}
void associations;
