/** Compile-time checks of pluck: a name is required; one name gives values, several give tuples. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import {
  belongsTo,
  hasMany,
  hasOne,
  Model,
  ActiveRecord,
  defineApplicationRecord,
  type ScopeStatic,
} from "../../src/index.js";
import { assertTrue, type Equal } from "./assert.js";

class Author extends Model({
  id: { type: "string", null: false },
  name: { type: "string", null: false },
  nickname: "string",
  age: "integer",
  score: "real",
  admin: "boolean",
  bornAt: "datetime",
  settings: "json",
}) {
  books = hasMany(Book);
  portrait = hasOne(Portrait);
}

class Book extends Model({ id: { type: "string", null: false }, authorId: "string", title: "string", pages: "integer" }) {
  author = belongsTo(Author);
}

class Portrait extends Model({ id: { type: "string", null: false }, authorId: "string", url: "string" }) {}

// ---- pluck needs at least one name (it throws TypeError without) ---------------------------------------------

function pluckNames() {
  expectTypeOf(Author.pluck("name")).toEqualTypeOf<Promise<string[]>>();
  expectTypeOf(Author.pluck("name", "admin")).toEqualTypeOf<Promise<[string, boolean | null][]>>();
  const names = ["name", "age"] as const;
  expectTypeOf(Author.pluck(...names)).toEqualTypeOf<Promise<[string, number | null][]>>();
  // @ts-expect-error: pluck needs an attribute name
  void Author.pluck();
  // @ts-expect-error: pluck needs an attribute name
  void Author.all().pluck();
}
void pluckNames;

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

// ---- SPEC Results: pluck(name) gives an array of values, pluck(a, b) an array of tuples ---------------------

async function plucking() {
  expectTypeOf(User.pluck("name", "age", "bornAt", "settings")).toEqualTypeOf<Promise<[string, number | null, Date | null, unknown][]>>();
  expectTypeOf(User.where({ admin: true }).order({ name: "asc" }).pluck("id", "admin")).toEqualTypeOf<Promise<[string, boolean][]>>();
  expectTypeOf(User.pluck("name", "name")).toEqualTypeOf<Promise<[string, string][]>>();
  expectTypeOf(Counter.pluck("id")).toEqualTypeOf<Promise<number[]>>();
  expectTypeOf(Post.published().pluck("title", "userId")).toEqualTypeOf<Promise<[string, string][]>>();
  // Overrides change what pluck gives.
  class Overridden extends GeneratedApplicationRecord("users", { age: "real", email: { null: false } }) {}
  expectTypeOf(Overridden.pluck("age", "email")).toEqualTypeOf<Promise<[number | null, string][]>>();
  const rows = await User.all().pluck("email", "createdAt");
  assertTrue<Equal<typeof rows, [string | null, Date][]>>();
}
void plucking;
