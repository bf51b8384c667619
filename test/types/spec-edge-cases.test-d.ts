/**
 * Compile-time edge cases of SPEC.md's type-level promises, beyond application-record/models/relation.test-d.ts:
 * a table absent from the schema, unknown override keys, unknown attribute names, nullability (`null: false`),
 * `ScopeStatic`, association field types, `pluck` tuples, and `select` with reading. Only type-checked by
 * `tsc --noEmit`; nothing here runs, and no function below is ever called.
 */
import { expectTypeOf } from "vitest";
import {
  ActiveRecord,
  belongsTo,
  defineApplicationRecord,
  gt,
  hasMany,
  hasOne,
  Model,
  type RelationOf,
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
const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

class User extends ApplicationRecord("users") {
  posts = hasMany(Post, { dependent: "destroy" });
  profile = hasOne(Profile);
}

class Post extends ApplicationRecord("posts") {
  user = belongsTo(User);
  static published = this.scope((q) => q.where({ published: true }));
  // SPEC Scopes 6: a scope whose body names its own class has its type written as ScopeStatic<[...args]>.
  static titled: ScopeStatic<[title: string]> = this.scope((q, title: string) => q.where({ title }).merge(Post.published()));
}

class Profile extends ApplicationRecord("profiles") {
  user = belongsTo(User);
}

class Counter extends ApplicationRecord("counters") {}

class Note extends Model({ id: "string", body: "string" }) {}

// ---- SPEC Model: "A table absent from the schema is a compile error." ----------------------------------

function absentTables(table: string) {
  // @ts-expect-error: any string might name an absent table
  ApplicationRecord(table);
  // @ts-expect-error: the empty string is not a table
  ApplicationRecord("");
  const maybe = table.length > 3 ? "users" : "comments";
  // @ts-expect-error: one member of the union is absent
  ApplicationRecord(maybe);
  // @ts-expect-error: a column name is not a table
  ApplicationRecord("user_id");
  // Every table of the schema is accepted.
  ApplicationRecord("users");
  ApplicationRecord("counters", {});
}
void absentTables;

// ---- SPEC Overrides: "Keys are attribute names; an unknown name is a compile error." --------------------

function overrideKeys() {
  // Held in a variable next to a known key, an unknown key is still refused.
  const mixed = { email: { null: false }, nope: false } as const;
  // @ts-expect-error: nope is not an attribute of users
  ApplicationRecord("users", mixed);
  // @ts-expect-error: name is an attribute of users, not of posts
  ApplicationRecord("posts", { name: false });
  // @ts-expect-error: id of counters exists, but not bio
  ApplicationRecord("counters", { id: "integer", bio: "string" });
  // Held in a variable, cast, or passed in, an object of unknown keys only is refused too.
  const unknownOnly = { nope: "string" } as const;
  // @ts-expect-error: nope is not an attribute of users
  ApplicationRecord("users", unknownOnly);
  // @ts-expect-error: nope is not an attribute of users
  ApplicationRecord("users", { nope: "string" } as { nope: "string" });
  // @ts-expect-error: nope is not an attribute of users
  const passedIn = (overrides: { nope: false }) => ApplicationRecord("users", overrides);
  void passedIn;

  // `null` in an override: false makes it non-null, true nullable; a type name keeps the generated nullability.
  class Relaxed extends ApplicationRecord("users", { name: { null: true } }) {}
  expectTypeOf(new Relaxed().name).toEqualTypeOf<string | null>();
  class Retyped extends ApplicationRecord("users", { name: "integer", email: { type: "boolean" } }) {}
  expectTypeOf(new Retyped().name).toEqualTypeOf<number>();
  expectTypeOf(new Retyped().email).toEqualTypeOf<boolean | null>();
  class AsJson extends ApplicationRecord("users", { name: { type: "json" } }) {}
  expectTypeOf(new AsJson().name).toEqualTypeOf<unknown>();

  // An ignored column (`false`) is never typed, read or written.
  class Ignoring extends ApplicationRecord("users", { email: false }) {}
  // @ts-expect-error: email is ignored
  void Ignoring.create({ email: "x" });
  // @ts-expect-error: email is ignored
  void new Ignoring().update({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.findBy({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.insert({ email: "x" });
  // @ts-expect-error: email is ignored
  void Ignoring.pluck("name", "email");
}
void overrideKeys;

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
  class Declared extends ApplicationRecord({ a: { type: "integer", null: false }, b: { type: "integer", null: true }, c: "integer" }) {}
  const declared = new Declared();
  expectTypeOf(declared.a).toEqualTypeOf<number>();
  expectTypeOf(declared.b).toEqualTypeOf<number | null>();
  expectTypeOf(declared.c).toEqualTypeOf<number | null>();
}
void nullability;

// ---- SPEC Scopes 5 and 6: ScopeStatic, and q without the Model's other scopes ----------------------------

function scopes(user: User) {
  expectTypeOf(Post.titled("x").toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(Post.published().titled("x").first()).toEqualTypeOf<Promise<Post | null>>();
  expectTypeOf(Post.where({ published: true }).titled("x").pluck("title")).toEqualTypeOf<Promise<string[]>>();
  const relation: RelationOf<typeof Post> = Post.titled("x");
  void relation;
  // @ts-expect-error: titled takes a string
  Post.titled(1);
  // @ts-expect-error: titled takes one argument
  Post.titled();
  // @ts-expect-error: scopes belong to their Model
  User.published();

  // Inherited scopes return the subclass's records; a subclass may replace one with `static override`.
  class Special extends Post {}
  expectTypeOf(Special.titled("x").toArray()).toEqualTypeOf<Promise<Special[]>>();
  expectTypeOf(Special.published().toArray()).toEqualTypeOf<Promise<Special[]>>();
  class Replaced extends Post {
    static override published = this.scope((q) => q.where({ title: "x" }));
  }
  expectTypeOf(Replaced.published().toArray()).toEqualTypeOf<Promise<Replaced[]>>();

  // ScopeStatic with no arguments, optional and rest arguments.
  class Shaped extends ApplicationRecord("users") {
    static everyone: ScopeStatic<[]> = this.scope((q) => q.merge(Shaped.all()));
    static aged = this.scope((q, age?: number) => q.where({ age: age ?? null }));
    static named = this.scope((q, ...names: string[]) => q.where({ name: names }));
    static older: ScopeStatic<[age: number]> = this.scope((q, age: number) => q.where({ age: gt(age) }).merge(Shaped.everyone()));
  }
  expectTypeOf(Shaped.everyone().toArray()).toEqualTypeOf<Promise<Shaped[]>>();
  expectTypeOf(Shaped.older(3).aged().named("a", "b").toArray()).toEqualTypeOf<Promise<Shaped[]>>();
  // @ts-expect-error: names are strings
  Shaped.named(1);

  // A written-out ScopeStatic must agree with the body's arguments.
  class Mismatched extends ApplicationRecord("users") {
    // @ts-expect-error: the body takes a string, the type says a number
    static s: ScopeStatic<[n: number]> = this.scope((q, s: string) => q.where({ name: s }));
  }
  void Mismatched;

  // Inside a scope, q has the Relation methods but not the Model's other scopes.
  class Inner extends ApplicationRecord("posts") {
    static a = this.scope((q) => q.where({ published: true }));
    // @ts-expect-error: q has no scopes
    static b = this.scope((q) => q.a());
  }
  void Inner;

  // Scopes are on a hasMany Relation of the target.
  expectTypeOf(user.posts().published().toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(user.posts().titled("x").toArray()).toEqualTypeOf<Promise<Post[]>>();
}
void scopes;

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

// ---- SPEC Results: pluck(name) gives an array of values, pluck(a, b) an array of tuples ---------------------

async function plucking() {
  expectTypeOf(User.pluck("name", "age", "bornAt", "settings")).toEqualTypeOf<Promise<[string, number | null, Date | null, unknown][]>>();
  expectTypeOf(User.where({ admin: true }).order({ name: "asc" }).pluck("id", "admin")).toEqualTypeOf<Promise<[string, boolean][]>>();
  expectTypeOf(User.pluck("name", "name")).toEqualTypeOf<Promise<[string, string][]>>();
  expectTypeOf(Counter.pluck("id")).toEqualTypeOf<Promise<number[]>>();
  expectTypeOf(Post.published().pluck("title", "userId")).toEqualTypeOf<Promise<[string, string][]>>();
  // Overrides change what pluck gives.
  class Overridden extends ApplicationRecord("users", { age: "real", email: { null: false } }) {}
  expectTypeOf(Overridden.pluck("age", "email")).toEqualTypeOf<Promise<[number | null, string][]>>();
  const rows = await User.all().pluck("email", "createdAt");
  assertTrue<Equal<typeof rows, [string | null, Date][]>>();
}
void plucking;

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
