/**
 * Compile-time checks of `ApplicationRecord('<table>', overrides?)` over a generated schema (SPEC.md: "Model",
 * "Overrides"), and of a custom base class. Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { ActiveRecord, attributeFiltering, Base, defineApplicationRecord, findMany, idGeneration, pagination } from "../../src/index.js";
// The schema as the generator writes it (this file declares its own base class and Models over it).
import { schema } from "../models/fixtures.js";
import { assertTrue, type Equal } from "./assert.js";

/** The app's base class, with a static and an instance method of its own. */
class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
  static override perPage = 20;

  /** An app-wide static. */
  static describeModel(): string {
    return `Model ${this.name}`;
  }

  /** An app-wide instance method. */
  summary(): string {
    return "record";
  }
}

const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);

class User extends ApplicationRecord("users") {
  greeting(): string {
    return `Hello, ${this.name}`;
  }
}
class Post extends ApplicationRecord("posts") {}
class Counter extends ApplicationRecord("counters") {}

// ---- attributes from the schema ----------------------------------------------------------------------

function schemaAttributes(user: User, post: Post, counter: Counter) {
  expectTypeOf(user.id).toEqualTypeOf<string>();
  expectTypeOf(user.name).toEqualTypeOf<string>();
  expectTypeOf(user.email).toEqualTypeOf<string | null>();
  expectTypeOf(user.age).toEqualTypeOf<number | null>();
  expectTypeOf(user.score).toEqualTypeOf<number | null>();
  expectTypeOf(user.admin).toEqualTypeOf<boolean>();
  expectTypeOf(user.bornAt).toEqualTypeOf<Date | null>();
  expectTypeOf(user.settings).toEqualTypeOf<unknown>();
  expectTypeOf(user.createdAt).toEqualTypeOf<Date>();
  expectTypeOf(user.updatedAt).toEqualTypeOf<Date>();
  expectTypeOf(post.userId).toEqualTypeOf<string>();
  expectTypeOf(post.body).toEqualTypeOf<string | null>();
  expectTypeOf(post.published).toEqualTypeOf<boolean>();
  expectTypeOf(counter.id).toEqualTypeOf<number>();
  expectTypeOf(counter.value).toEqualTypeOf<number>();
  expectTypeOf(counter.label).toEqualTypeOf<string | null>();

  // Each Model has its own table's attributes only.
  // @ts-expect-error: title is an attribute of posts, not users
  void user.title;
  // @ts-expect-error: name is an attribute of users, not posts
  void post.name;
  // @ts-expect-error: nope is not an attribute
  User.build({ nope: 1 });
  // @ts-expect-error: title is not an attribute of users
  User.build({ title: "x" });
  // @ts-expect-error: nope is not an attribute
  User.permit({}, "nope");
}
void schemaAttributes;

// ---- a table absent from the schema is a compile error -----------------------------------------------

function absentTable() {
  // @ts-expect-error: no table "comments" in the schema
  ApplicationRecord("comments");
  // @ts-expect-error: table names are exact
  ApplicationRecord("Users");
  // @ts-expect-error: not a table even with overrides
  ApplicationRecord("comments", { body: "string" });
  // @ts-expect-error: a class cannot extend an absent table either
  class Comment extends ApplicationRecord("comments") {}
  void Comment;
}
void absentTable;

// ---- subclass statics return the subclass --------------------------------------------------------------

async function subclassStatics(id: string) {
  expectTypeOf(User.find(id)).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.build()).toEqualTypeOf<User>();
  expectTypeOf(User.where({ admin: true }).first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(Post.find(id)).toEqualTypeOf<Promise<Post>>();
  expectTypeOf(new User()).toEqualTypeOf<User>();
  const user = await User.find(id);
  assertTrue<Equal<typeof user, User>>();
  expectTypeOf(user.greeting()).toEqualTypeOf<string>();
}
void subclassStatics;

// ---- a custom base class's statics and instance methods are on the Model -------------------------------

async function customBase(id: string) {
  expectTypeOf(User.describeModel()).toEqualTypeOf<string>();
  expectTypeOf(Post.describeModel()).toEqualTypeOf<string>();
  expectTypeOf(User.binding).toEqualTypeOf<string | undefined>();
  expectTypeOf(User.perPage).toEqualTypeOf<number>();
  expectTypeOf(new User().summary()).toEqualTypeOf<string>();
  expectTypeOf(User.build().summary()).toEqualTypeOf<string>();
  expectTypeOf((await User.find(id)).summary()).toEqualTypeOf<string>();
  expectTypeOf((await Post.findByOrThrow({ title: "t" })).summary()).toEqualTypeOf<string>();

  // The hand-declared form of the app's function keeps the base class too.
  class Tag extends ApplicationRecord({ id: { type: "string", null: false }, name: "string" }) {}
  expectTypeOf(Tag.describeModel()).toEqualTypeOf<string>();
  expectTypeOf(new Tag().summary()).toEqualTypeOf<string>();
  expectTypeOf(new Tag().name).toEqualTypeOf<string | null>();
  expectTypeOf(Tag.find(id)).toEqualTypeOf<Promise<Tag>>();

  // @ts-expect-error: not a static of the base class
  User.notAStatic();
  // @ts-expect-error: not a method of the base class
  new User().notAMethod();
}
void customBase;

// ---- the plugins' settings are typed on every Model ----------------------------------------------------

function pluginSettings() {
  // Declared by the plugins that read them (pagination, attribute filtering, id generation), not by the kernel.
  expectTypeOf(Post.perPage).toEqualTypeOf<number>();
  expectTypeOf(Post.maxPerPage).toEqualTypeOf<number>();
  expectTypeOf(Post.filterAttributes).toEqualTypeOf<(string | RegExp)[]>();
  expectTypeOf(Post.generateId).toEqualTypeOf<(attributeName: string) => string>();

  class Tuned extends ApplicationRecord("posts") {
    static override perPage = 10;
    static override maxPerPage = 50;
    static override filterAttributes = ["title", /secret/];
    static override generateId = (attributeName: string) => `${attributeName}-1`;
  }
  void Tuned;

  // @ts-expect-error: perPage is a number
  class TextPage extends ApplicationRecord("posts") {
    static override perPage = "x";
  }
  // @ts-expect-error: maxPerPage is a number
  class TextMax extends ApplicationRecord("posts") {
    static override maxPerPage = "100";
  }
  void [TextPage, TextMax];
}
void pluginSettings;

/** A base class on the kernel that registers the plugins itself: their settings come from the plugins' declarations alone. */
class KernelBase extends Base {
  static {
    this.use(pagination, attributeFiltering, idGeneration, findMany);
  }
}
const KernelRecord = defineApplicationRecord(schema, KernelBase);

function pluginSettingsOnTheKernel(id: string) {
  class Note extends KernelRecord("posts") {
    static override perPage = 10;
  }
  expectTypeOf(Note.perPage).toEqualTypeOf<number>();
  expectTypeOf(Note.maxPerPage).toEqualTypeOf<number>();
  expectTypeOf(Note.filterAttributes).toEqualTypeOf<(string | RegExp)[]>();
  expectTypeOf(Note.generateId).toEqualTypeOf<(attributeName: string) => string>();
  // findMany's overloads are tried before the kernel's find of one id.
  expectTypeOf(Note.find(id)).toEqualTypeOf<Promise<Note>>();
  expectTypeOf(Note.find([id])).toEqualTypeOf<Promise<Note[]>>();
  expectTypeOf(Note.find(id, id)).toEqualTypeOf<Promise<Note[]>>();
  // @ts-expect-error: find needs an id
  void Note.find();

  // @ts-expect-error: perPage is a number
  class TextPage extends KernelRecord("posts") {
    static override perPage = "x";
  }
  // @ts-expect-error: filterAttributes holds strings and RegExps
  class NumberFilters extends KernelRecord("posts") {
    static override filterAttributes = [1];
  }
  // @ts-expect-error: generateId makes a string
  class NumberIds extends KernelRecord("posts") {
    static override generateId = () => 1;
  }
  void [TextPage, NumberFilters, NumberIds];
}
void pluginSettingsOnTheKernel;

// ---- overrides ---------------------------------------------------------------------------------------

function overrides() {
  // A type name changes the attribute's type, keeping its nullability.
  class Typed extends ApplicationRecord("users", { settings: "string", age: "real", admin: "integer" }) {}
  const typed = new Typed();
  expectTypeOf(typed.settings).toEqualTypeOf<string | null>();
  expectTypeOf(typed.age).toEqualTypeOf<number | null>();
  expectTypeOf(typed.admin).toEqualTypeOf<number>();
  expectTypeOf(typed.name).toEqualTypeOf<string>();
  // The override is also the assignable type (SPEC: reads and writes the attribute as that type).
  Typed.build({ settings: "dark" });
  // @ts-expect-error: settings is now a string attribute
  Typed.build({ settings: { theme: "dark" } });

  // `{ type }` in the long form.
  class LongTyped extends ApplicationRecord("users", { settings: { type: "boolean" } }) {}
  expectTypeOf(new LongTyped().settings).toEqualTypeOf<boolean | null>();

  // `null: false` makes the attribute non-null.
  class Required extends ApplicationRecord("users", { email: { null: false }, bornAt: { type: "datetime", null: false } }) {}
  const required = new Required();
  expectTypeOf(required.email).toEqualTypeOf<string>();
  expectTypeOf(required.bornAt).toEqualTypeOf<Date>();
  expectTypeOf(required.age).toEqualTypeOf<number | null>();
  assertTrue<Equal<Required["email"], string>>();

  // `null: false` together with a type change.
  class RequiredTyped extends ApplicationRecord("users", { settings: { type: "integer", null: false } }) {}
  expectTypeOf(new RequiredTyped().settings).toEqualTypeOf<number>();

  // `default` and `generateId` in an override; a default is not type-checked at compile time (Overrides rule 4).
  class Defaulted extends ApplicationRecord("users", { age: { default: () => 18 }, email: { generateId: true } }) {}
  expectTypeOf(new Defaulted().age).toEqualTypeOf<number | null>();
  expectTypeOf(new Defaulted().email).toEqualTypeOf<string | null>();
  ApplicationRecord("users", { age: { default: "not a number" } });

  // `false` removes the attribute from the type.
  class Ignoring extends ApplicationRecord("users", { bornAt: false, settings: false }) {}
  const ignoring = new Ignoring();
  expectTypeOf(ignoring.name).toEqualTypeOf<string>();
  expectTypeOf(ignoring.age).toEqualTypeOf<number | null>();
  assertTrue<Equal<"bornAt" extends keyof Ignoring ? true : false, false>>();
  assertTrue<Equal<"settings" extends keyof ReturnType<Ignoring["attributes"]> ? true : false, false>>();
  // @ts-expect-error: bornAt is ignored
  void ignoring.bornAt;
  // @ts-expect-error: settings is ignored
  void ignoring.settings;
  // @ts-expect-error: bornAt is ignored
  Ignoring.build({ bornAt: new Date() });
  // @ts-expect-error: bornAt is ignored
  ignoring.assign({ bornAt: new Date() });
  // @ts-expect-error: bornAt is ignored
  Ignoring.permit({}, "bornAt");
  // @ts-expect-error: bornAt is ignored
  Ignoring.where({ bornAt: null });
  // @ts-expect-error: bornAt is ignored
  Ignoring.order({ bornAt: "asc" });
  // @ts-expect-error: bornAt is ignored
  void Ignoring.pluck("bornAt");
  // @ts-expect-error: bornAt is ignored
  Ignoring.select("bornAt");
  // @ts-expect-error: bornAt is ignored
  ignoring.readAttribute("bornAt");

  // Overrides of another table do not leak.
  expectTypeOf(new User().bornAt).toEqualTypeOf<Date | null>();
  expectTypeOf(new User().email).toEqualTypeOf<string | null>();

  // An override key that is not an attribute is a compile error.
  // @ts-expect-error: nope is not an attribute of users
  ApplicationRecord("users", { nope: "string" });
  // @ts-expect-error: nope is not an attribute of users, even beside known ones
  ApplicationRecord("users", { email: { null: false }, nope: false });
  // @ts-expect-error: title is an attribute of posts, not users
  ApplicationRecord("users", { title: { null: false } });
  // @ts-expect-error: a column name is not an attribute name
  ApplicationRecord("users", { born_at: false });

  // An override value must be a type name, false, or the long form.
  // @ts-expect-error: "float" is not a type name
  ApplicationRecord("users", { age: "float" });
  // @ts-expect-error: true is not an override
  ApplicationRecord("users", { age: true });
  // @ts-expect-error: "text" is not a type name
  ApplicationRecord("users", { age: { type: "text" } });
}
void overrides;
