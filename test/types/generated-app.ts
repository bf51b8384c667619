/**
 * The Models of an app made by the generator (`recordflare g model`), for the type tests: users with posts and a
 * profile, posts with scopes, and counters. Only type-checked (tsc --noEmit).
 */
import { ActiveRecord, belongsTo, defineApplicationRecord, hasMany, hasOne, type ScopeStatic } from "../../src/index.js";

/** A schema as `recordflare g model` writes it. */
export const schema = {
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

export class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
}

export const GeneratedApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

export class User extends GeneratedApplicationRecord("users") {
  posts = hasMany(Post, { dependent: "destroy" });
  profile = hasOne(Profile);
}

export class Post extends GeneratedApplicationRecord("posts") {
  user = belongsTo(User);
  static published = this.scope((q) => q.where({ published: true }));
  // SPEC Scopes 6: a scope whose body names its own class has its type written as ScopeStatic<[...args]>.
  static titled: ScopeStatic<[title: string]> = this.scope((q, title: string) => q.where({ title }).merge(Post.published()));
}

export class Profile extends GeneratedApplicationRecord("profiles") {
  user = belongsTo(User);
}

export class Counter extends GeneratedApplicationRecord("counters") {}
