/**
 * Compile-time checks of Models declared by hand with `Model({...})` (SPEC.md: "Attribute declarations and types",
 * "Building and creating", "Results"). Only type-checked by `tsc --noEmit`; nothing here runs, and no function
 * below is ever called.
 */
import { expectTypeOf } from "vitest";
import { Model } from "../../src/index.js";
import { assertTrue, type Equal } from "./assert.js";
import { schema, GeneratedApplicationRecord } from "./generated-app.js";
import { Author } from "./authors-and-books.js";

/** Declared by hand, unlike test/models/fixtures.ts: more attribute forms, hidden attributes and a method of its own. */
class User extends Model({
  id: { type: "string", null: false, generateId: true },
  name: { type: "string", null: false },
  email: "string",
  age: "integer",
  score: "real",
  admin: { type: "boolean", null: false, default: false },
  verified: "boolean",
  bornAt: "datetime",
  settings: "json",
  nickname: { type: "string", column: "nick_name_text" },
  rank: { type: "integer", default: () => 1 },
  ratio: { type: "real", null: false, default: 0.5 },
  lastSeenAt: { type: "datetime", null: true },
  createdAt: { type: "datetime", null: false },
  updatedAt: { type: "datetime", null: false },
}) {
  static override binding = "DB";
  static override tableName = "users";
  static override hiddenAttributes = ["email"];

  /** A method of the subclass, to tell `User` from its base. */
  greeting(): string {
    return `Hello, ${this.name}`;
  }
}

// ---- every type name maps to its JavaScript type, nullable unless `null: false` ----------------------------

function instanceAttributeTypes(user: User) {
  expectTypeOf(user.id).toEqualTypeOf<string>();
  expectTypeOf(user.name).toEqualTypeOf<string>();
  expectTypeOf(user.email).toEqualTypeOf<string | null>();
  expectTypeOf(user.age).toEqualTypeOf<number | null>();
  expectTypeOf(user.score).toEqualTypeOf<number | null>();
  expectTypeOf(user.admin).toEqualTypeOf<boolean>();
  expectTypeOf(user.verified).toEqualTypeOf<boolean | null>();
  expectTypeOf(user.bornAt).toEqualTypeOf<Date | null>();
  // json: any value (null included).
  expectTypeOf(user.settings).toEqualTypeOf<unknown>();
  // `column` maps to another column; the attribute keeps its own name and type.
  expectTypeOf(user.nickname).toEqualTypeOf<string | null>();
  // A default does not make an attribute non-null; only `null: false` does.
  expectTypeOf(user.rank).toEqualTypeOf<number | null>();
  expectTypeOf(user.ratio).toEqualTypeOf<number>();
  // `null: true` is the same as leaving `null` out.
  expectTypeOf(user.lastSeenAt).toEqualTypeOf<Date | null>();
  expectTypeOf(user.createdAt).toEqualTypeOf<Date>();
  expectTypeOf(user.updatedAt).toEqualTypeOf<Date>();

  assertTrue<Equal<User["name"], string>>();
  assertTrue<Equal<User["age"], number | null>>();

  // The column name is not an attribute.
  // @ts-expect-error: nick_name_text is a column, not an attribute
  void user.nick_name_text;
  // @ts-expect-error: no such attribute
  void user.nope;

  // A non-null attribute cannot be read as nullable-free when it is nullable.
  // @ts-expect-error: email is string | null
  const email: string = user.email;
  void email;

  // Properties are writable with their own type.
  user.name = "Ada";
  user.age = null;
  user.bornAt = new Date();
  // @ts-expect-error: age is a number attribute
  user.age = {};

  // attributes() is the plain object of all attributes.
  const attributes = user.attributes();
  expectTypeOf(attributes.name).toEqualTypeOf<string>();
  expectTypeOf(attributes.bornAt).toEqualTypeOf<Date | null>();
  expectTypeOf(user.readAttribute("age")).toEqualTypeOf<number | null>();
  // @ts-expect-error: readAttribute takes attribute names only
  user.readAttribute("nope");

  // Subclass methods are on the instance.
  expectTypeOf(user.greeting()).toEqualTypeOf<string>();
}

void instanceAttributeTypes;

// ---- every declaration form --------------------------------------------------------------------------

function declarationForms() {
  class Everything extends Model({
    s: "string",
    i: "integer",
    r: "real",
    b: "boolean",
    d: "datetime",
    j: "json",
    sNN: { type: "string", null: false },
    iNN: { type: "integer", null: false },
    rNN: { type: "real", null: false },
    bNN: { type: "boolean", null: false },
    dNN: { type: "datetime", null: false },
    withColumn: { type: "integer", column: "other_column", null: false },
    withDefault: { type: "string", default: "x" },
    withGenerated: { type: "string", generateId: true },
  }) {}
  const e = new Everything();
  expectTypeOf(e.s).toEqualTypeOf<string | null>();
  expectTypeOf(e.i).toEqualTypeOf<number | null>();
  expectTypeOf(e.r).toEqualTypeOf<number | null>();
  expectTypeOf(e.b).toEqualTypeOf<boolean | null>();
  expectTypeOf(e.d).toEqualTypeOf<Date | null>();
  expectTypeOf(e.j).toEqualTypeOf<unknown>();
  expectTypeOf(e.sNN).toEqualTypeOf<string>();
  expectTypeOf(e.iNN).toEqualTypeOf<number>();
  expectTypeOf(e.rNN).toEqualTypeOf<number>();
  expectTypeOf(e.bNN).toEqualTypeOf<boolean>();
  expectTypeOf(e.dNN).toEqualTypeOf<Date>();
  expectTypeOf(e.withColumn).toEqualTypeOf<number>();
  expectTypeOf(e.withDefault).toEqualTypeOf<string | null>();
  expectTypeOf(e.withGenerated).toEqualTypeOf<string | null>();

  // An unknown type name is not a declaration.
  // @ts-expect-error: "strng" is not a type name
  Model({ id: "string", title: "strng" });
  // @ts-expect-error: "text" is not a type name in the long form either
  Model({ id: "string", title: { type: "text" } });
  // @ts-expect-error: the long form needs a type
  Model({ id: "string", title: { null: false } });
}

void declarationForms;

// ---- new <Model>() -----------------------------------------------------------------------------------

function construction() {
  const user = new User();
  expectTypeOf(user).toEqualTypeOf<User>();
  expectTypeOf(user.name).toEqualTypeOf<string>();
  expectTypeOf(user.isNewRecord()).toEqualTypeOf<boolean>();
  // @ts-expect-error: the constructor takes no attributes; use User.build(...)
  new User({ name: "Ada" });
}

void construction;

// ---- subclass statics return the subclass ------------------------------------------------------------

async function subclassStatics(id: string) {
  expectTypeOf(User.find(id)).toEqualTypeOf<Promise<User>>();
  // SPEC "Results": find([id, ...]) gives records (an array).
  expectTypeOf(User.find([id, id])).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.find([id])).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.all().find([id, id])).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.find(id, id)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.build()).toEqualTypeOf<User>();
  expectTypeOf(User.build({ name: "Ada" })).toEqualTypeOf<User>();
  expectTypeOf(User.create({ name: "Ada" })).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.createOrThrow({ name: "Ada" })).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.findBy({ name: "Ada" })).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.findByOrThrow({ name: "Ada" })).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.last()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.take()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ name: "Ada" }).first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.where({ name: "Ada" }).build()).toEqualTypeOf<User>();
  expectTypeOf(User.all().find(id)).toEqualTypeOf<Promise<User>>();

  const found = await User.find(id);
  assertTrue<Equal<typeof found, User>>();
  expectTypeOf(found.greeting()).toEqualTypeOf<string>();
  expectTypeOf(found.name).toEqualTypeOf<string>();

  const first = await User.where({ admin: true }).order({ name: "asc" }).first();
  assertTrue<Equal<typeof first, User | null>>();

  // Record methods returning the record keep the subclass.
  const user = User.build();
  expectTypeOf(user.assign({ name: "Ada" })).toEqualTypeOf<User>();
  expectTypeOf(user.reload()).toEqualTypeOf<Promise<User>>();
  expectTypeOf(user.destroy()).toEqualTypeOf<Promise<User | false>>();
  expectTypeOf(user.destroyOrThrow()).toEqualTypeOf<Promise<User>>();
  expectTypeOf(user.save()).toEqualTypeOf<Promise<boolean>>();

  // isAttributeChanged takes what a condition takes: "36" for an integer, null.
  user.isAttributeChanged("age", { from: "36", to: 37 });
  user.isAttributeChanged("bornAt", { from: null, to: "1990-01-01" });
  // @ts-expect-error: an object is not an integer's value
  user.isAttributeChanged("age", { from: {} });
  // @ts-expect-error: nope is not an attribute
  user.isAttributeChanged("nope");

  // A second Model's statics return its own records, not User.
  class Note extends Model({ id: "string", body: "string" }) {}
  expectTypeOf(Note.find(id)).toEqualTypeOf<Promise<Note>>();
  // @ts-expect-error: a Note is not a User
  const wrong: User = await Note.find(id);
  void wrong;
}

void subclassStatics;

// ---- build / create / assign / update reject unknown names and wrongly typed values ---------------

async function assignment(user: User) {
  // Known names with values that cast (SPEC "Casting of assigned values").
  User.build({ name: "Ada", age: 36, score: 1.5, admin: true, bornAt: new Date(), settings: { theme: "dark" } });
  User.build({ age: "36", score: "1.5", admin: "on", verified: 1, bornAt: "1815-12-10" });
  User.build({ email: null, age: null, settings: null });
  await User.create({ name: "Ada" });
  await User.createOrThrow({ name: "Ada" });
  user.assign({ name: "Grace", age: 85 });
  await user.update({ email: "grace@example.com" });
  await user.updateOrThrow({ age: 86 });
  user.writeAttribute("age", 1);

  // @ts-expect-error: nope is not an attribute
  User.build({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await User.create({ name: "Ada", nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await User.createOrThrow({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  user.assign({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await user.update({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  await user.updateOrThrow({ nope: 1 });
  // @ts-expect-error: the column name is not an attribute name
  User.build({ nick_name_text: "x" });
  // @ts-expect-error: snake_case column names are not attribute names
  User.build({ created_at: new Date() });
  // @ts-expect-error: writeAttribute takes attribute names only
  user.writeAttribute("nope", 1);

  // Values of the wrong type (SPEC: a number, boolean or Date is refused for `string`; numbers for `datetime`).
  // @ts-expect-error: name is a string attribute
  User.build({ name: 5 });
  // @ts-expect-error: name is a string attribute
  user.assign({ name: new Date() });
  // @ts-expect-error: bornAt is a datetime attribute
  User.build({ bornAt: 1234567890 });
  // @ts-expect-error: age is an integer attribute
  User.build({ age: {} });
  // @ts-expect-error: admin is a boolean attribute
  await user.update({ admin: [] });
}

void assignment;

// ---- permit -------------------------------------------------------------------------------------------

function permitting(input: FormData, query: URLSearchParams, body: Record<string, unknown>, user: User) {
  const permitted = User.permit(input, "name", "age", "bornAt");
  assertTrue<Equal<typeof permitted, { name?: string; age?: number | null; bornAt?: Date | null }>>();
  expectTypeOf(User.permit(query, "email")).toEqualTypeOf<{ email?: string | null }>();
  expectTypeOf(User.permit(body, "admin")).toEqualTypeOf<{ admin?: boolean }>();

  // Ready for build, create, assign and update.
  User.build(permitted);
  void User.create(User.permit(body, "name"));
  user.assign(User.permit(body, "email"));
  void user.update(permitted);

  // Keys not named are not in the result.
  // @ts-expect-error: email was not permitted
  void permitted.email;

  // @ts-expect-error: nope is not an attribute
  User.permit(input, "nope");
  // @ts-expect-error: nope is not an attribute, even next to known names
  User.permit(body, "name", "nope");
  // @ts-expect-error: a column name is not an attribute name
  User.permit(body, "nick_name_text");
}

void permitting;

// ---- editors show attributes, not declarations --------------------------------------------------------------

function readableAttributes(author: Author) {
  // attributes() is the plain attribute object (the alias resolves to it exactly).
  assertTrue<
    Equal<
      ReturnType<Author["attributes"]>,
      {
        id: string;
        name: string;
        nickname: string | null;
        age: number | null;
        score: number | null;
        admin: boolean | null;
        bornAt: Date | null;
        settings: unknown;
      }
    >
  >();
  expectTypeOf(author.changes().age).toEqualTypeOf<[number | null, number | null] | undefined>();
}
void readableAttributes;

// ---- SPEC Model: "A table absent from the schema is a compile error." ----------------------------------

function absentTables(table: string) {
  // @ts-expect-error: any string might name an absent table
  GeneratedApplicationRecord(table);
  // @ts-expect-error: the empty string is not a table
  GeneratedApplicationRecord("");
  const maybe = table.length > 3 ? "users" : "comments";
  // @ts-expect-error: one member of the union is absent
  GeneratedApplicationRecord(maybe);
  // @ts-expect-error: a column name is not a table
  GeneratedApplicationRecord("user_id");
  // Every table of the schema is accepted.
  GeneratedApplicationRecord("users");
  GeneratedApplicationRecord("counters", {});
}
void absentTables;
