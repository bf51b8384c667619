/**
 * Compile-time checks of Relations (SPEC.md: "Querying", "Results", "Scopes"): conditions, ordering, select and
 * pluck take attribute names only, values are typed, results are the Model's records. Only type-checked by
 * `tsc --noEmit`; nothing here runs, and no function below is ever called.
 */
import { expectTypeOf } from "vitest";
import { Base, between, column, connect, gt, gte, lt, lte, Model, sql, type QueryPlanStep, type SqlQuery } from "../../src/index.js";
import type { Relation } from "../../src/plugin.js";
import { schema } from "../models/schema.js";
import { assertTrue, type Equal } from "./assert.js";

/** Declared with `Model({...})` (the declarations of the test schema's users), unlike fixtures.ts, and with scopes. */
class User extends Model(schema.users) {
  static override binding = "DB";
  static adults = this.scope((q) => q.where({ age: gte(18) }));
  static olderThan = this.scope((q, years: number) => q.where({ age: gt(years) }));
}

// ---- where ---------------------------------------------------------------------------------------------

function whereConditions(name: string, since: Date) {
  // Values, null, lists, cast forms.
  User.where({ name: "Ada" });
  User.where({ name: "Ada", age: 36 });
  User.where({ email: null });
  User.where({ age: [1, 2, 3] });
  User.where({ age: [1, null] });
  User.where({ name: ["Ada", "Grace"] });
  User.where({ age: "36" });
  User.where({ admin: true });
  User.where({ admin: "1" });
  User.where({ bornAt: since });
  User.where({ bornAt: "2020-01-01" });
  User.where({ settings: { theme: "dark" } });
  // A number in a condition on a string attribute is read as its digits.
  User.where({ name: 42 });
  User.whereNot({ name });
  User.findBy({ email: "a@example.com" });
  User.findByOrThrow({ name });
  User.exists({ admin: true });
  User.where({ admin: true }).where({ age: 3 }).whereNot({ email: null });
  User.all().findBy({ name });

  // Unknown names.
  // @ts-expect-error: nope is not an attribute
  User.where({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  User.where({ name: "Ada", nope: 1 });
  // @ts-expect-error: a column name is not an attribute name
  User.where({ created_at: since });
  // @ts-expect-error: nope is not an attribute
  User.all().where({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  User.whereNot({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  User.where({ admin: true }).whereNot({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  void User.findBy({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  void User.all().findByOrThrow({ nope: 1 });
  // @ts-expect-error: nope is not an attribute
  void User.exists({ nope: 1 });

  // Values of the wrong type.
  // @ts-expect-error: an object is not a condition on a number attribute
  User.where({ age: { min: 1 } });
  // @ts-expect-error: an object is not a condition on a number attribute
  User.all().where({ score: {} });
  // @ts-expect-error: an object is not a condition on a string attribute
  User.where({ name: { like: "A%" } });
  // @ts-expect-error: a Date is not a condition on a string attribute
  User.where({ name: since });
  // @ts-expect-error: an object is not a condition on a boolean attribute
  User.where({ admin: {} });
  // @ts-expect-error: a number is not a condition on a datetime attribute
  User.where({ bornAt: 1 });
  // @ts-expect-error: a list of objects is not a condition on a number attribute
  User.where({ age: [{}] });

  // A plain string is rejected (SPEC: `where(sql fragment)`; a plain string is rejected).
  // @ts-expect-error: a plain string is not a condition
  User.where("age > 18");
  // @ts-expect-error: a plain string is not a condition
  User.all().where("age > 18");
  // @ts-expect-error: a plain string is not a condition
  User.whereNot("age > 18");

  // sql fragments.
  User.where(sql`${column("age")} > ${18}`);
  User.all().where(sql`name LIKE ${"A%"}`);
  User.whereNot(sql`age IS NULL`);
}
void whereConditions;

// ---- comparison helpers ------------------------------------------------------------------------------

function comparisons(since: Date, until: Date) {
  // Number attributes.
  User.where({ age: gt(18) });
  User.where({ age: gte(18), score: lt(1.5) });
  User.where({ score: lte(2) });
  User.where({ age: between(18, 65) });
  User.where({ age: between(18, 65, { excludeEnd: true }) });
  // String attributes.
  User.where({ name: gt("M") });
  User.where({ name: between("A", "M") });
  User.where({ email: lte("m") });
  // Datetime attributes.
  User.where({ bornAt: gt(since) });
  User.where({ createdAt: between(since, until) });
  User.where({ createdAt: between(since, until, { excludeEnd: true }) });
  User.all().whereNot({ bornAt: lt(since) });
  User.findBy({ age: gte(1) });

  // SPEC: comparison helpers are for number, string and datetime attributes.
  // @ts-expect-error: not for boolean attributes
  User.where({ admin: gt(true) });
  // @ts-expect-error: not for boolean attributes
  User.where({ admin: between(false, true) });
  // @ts-expect-error: excludeEnd is a boolean
  User.where({ age: between(1, 2, { excludeEnd: "yes" }) });
  // @ts-expect-error: between takes a low and a high value
  User.where({ age: between(1) });
}
void comparisons;

// ---- order ---------------------------------------------------------------------------------------------

function ordering() {
  User.order({ name: "asc" });
  User.order({ createdAt: "desc", name: "asc" });
  User.order({ age: { direction: "desc", nulls: "last" } });
  User.order({ age: { direction: "asc", nulls: "first" } });
  User.order({ age: { direction: "asc" } });
  User.all().order({ name: "asc" }).order({ age: "desc" });
  User.reorder({ name: "desc" });
  User.where({ admin: true }).reorder();
  User.order(sql`lower(name) ASC`);
  User.order(sql`${column("createdAt")} DESC`);
  User.all().reorder(sql`random()`);

  // @ts-expect-error: nope is not an attribute
  User.order({ nope: "asc" });
  // @ts-expect-error: nope is not an attribute
  User.all().order({ name: "asc", nope: "desc" });
  // @ts-expect-error: nope is not an attribute
  User.reorder({ nope: "asc" });
  // @ts-expect-error: a column name is not an attribute name
  User.order({ created_at: "desc" });
  // @ts-expect-error: "ascending" is not a direction
  User.order({ name: "ascending" });
  // @ts-expect-error: directions are lowercase
  User.order({ name: "ASC" });
  // @ts-expect-error: "dsc" is not a direction
  User.all().order({ name: "dsc" });
  // @ts-expect-error: "dsc" is not a direction
  User.order({ age: { direction: "dsc" } });
  // @ts-expect-error: nulls is first or last
  User.order({ age: { direction: "asc", nulls: "top" } });
  // @ts-expect-error: a plain string is not an order
  User.order("name ASC");
  // @ts-expect-error: a plain string is not an order
  User.all().order("name");
}
void ordering;

// ---- select / pluck ----------------------------------------------------------------------------------

async function selectingAndPlucking() {
  User.select("name", "age");
  User.where({ admin: true }).select("email");
  // @ts-expect-error: nope is not an attribute
  User.select("nope");
  // @ts-expect-error: nope is not an attribute, even beside known ones
  User.all().select("name", "nope");
  // @ts-expect-error: a column name is not an attribute name
  User.select("created_at");

  expectTypeOf(User.pluck("name")).toEqualTypeOf<Promise<string[]>>();
  expectTypeOf(User.pluck("age")).toEqualTypeOf<Promise<(number | null)[]>>();
  expectTypeOf(User.pluck("bornAt")).toEqualTypeOf<Promise<(Date | null)[]>>();
  expectTypeOf(User.pluck("createdAt")).toEqualTypeOf<Promise<Date[]>>();
  expectTypeOf(User.pluck("name", "age")).toEqualTypeOf<Promise<[string, number | null][]>>();
  expectTypeOf(User.pluck("id", "admin", "bornAt")).toEqualTypeOf<Promise<[string, boolean, Date | null][]>>();
  expectTypeOf(User.where({ admin: true }).pluck("name")).toEqualTypeOf<Promise<string[]>>();
  expectTypeOf(User.where({ admin: true }).pluck("name", "age")).toEqualTypeOf<Promise<[string, number | null][]>>();
  expectTypeOf(User.all().order({ name: "asc" }).limit(3).pluck("email")).toEqualTypeOf<Promise<(string | null)[]>>();

  const names = await User.pluck("name");
  assertTrue<Equal<typeof names, string[]>>();
  const pairs = await User.all().pluck("name", "age");
  assertTrue<Equal<typeof pairs, [string, number | null][]>>();

  // @ts-expect-error: nope is not an attribute
  void User.pluck("nope");
  // @ts-expect-error: nope is not an attribute
  void User.all().pluck("nope");
  // @ts-expect-error: nope is not an attribute, even beside known ones
  void User.pluck("name", "nope");
  // @ts-expect-error: nope is not an attribute, even beside known ones
  void User.where({ admin: true }).pluck("name", "nope");
}
void selectingAndPlucking;

// ---- results --------------------------------------------------------------------------------------------

async function results(id: string) {
  expectTypeOf(User.toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.all().toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ admin: true }).order({ name: "asc" }).toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ admin: true }).find(id)).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.where({ admin: true }).find(id, id)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ admin: true }).findBy({ name: "Ada" })).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.where({ admin: true }).findByOrThrow({ name: "Ada" })).toEqualTypeOf<Promise<User>>();
  expectTypeOf(User.where({ admin: true }).first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.where({ admin: true }).last()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.where({ admin: true }).take()).toEqualTypeOf<Promise<User | null>>();
  // Given a count, Rails' first(n), last(n) and take(n): a list, on a Relation and as statics.
  expectTypeOf(User.where({ admin: true }).first(2)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ admin: true }).last(2)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.where({ admin: true }).take(2)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.first(2)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.last()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.last(2)).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.take()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.take(2)).toEqualTypeOf<Promise<User[]>>();
  // @ts-expect-error: the count is a number
  User.first("2");
  // @ts-expect-error: first takes one count at most
  User.where({ admin: true }).first(1, 2);
  // @ts-expect-error: deleteAll takes no conditions: narrow with where first
  User.deleteAll({ admin: true });
  // @ts-expect-error: updateAll takes the attributes alone
  User.updateAll({ age: 1 }, { admin: true });
  expectTypeOf(User.where({ admin: true }).count()).toEqualTypeOf<Promise<number>>();
  expectTypeOf(User.where({ admin: true }).exists()).toEqualTypeOf<Promise<boolean>>();
  expectTypeOf(User.where({ admin: true }).isEmpty()).toEqualTypeOf<Promise<boolean>>();
  expectTypeOf(User.where({ admin: true }).hasAny()).toEqualTypeOf<Promise<boolean>>();
  expectTypeOf(User.where({ admin: true }).size()).toEqualTypeOf<Promise<number>>();
  expectTypeOf(User.where({ admin: true }).toSql()).toEqualTypeOf<SqlQuery>();
  expectTypeOf(User.where({ admin: true }).explain()).toEqualTypeOf<Promise<QueryPlanStep[]>>();
  expectTypeOf(User.explain()).toEqualTypeOf<Promise<QueryPlanStep[]>>();
  expectTypeOf(User.where({ admin: true }).build()).toEqualTypeOf<User>();
  expectTypeOf(User.where({ admin: true }).create({ name: "Ada" })).toEqualTypeOf<Promise<User>>();

  const page = await User.where({ admin: true }).paginate({ page: "2", perPage: 10 });
  expectTypeOf(page.records).toEqualTypeOf<User[]>();
  expectTypeOf(page.total).toEqualTypeOf<number>();
  expectTypeOf(page.hasNext).toEqualTypeOf<boolean>();

  const users = await User.where({ admin: true }).limit(10).offset(5).distinct().toArray();
  assertTrue<Equal<typeof users, User[]>>();
  expectTypeOf(users[0]!.name).toEqualTypeOf<string>();

  // Relations have no `then` (SPEC: Relation).
  // @ts-expect-error: a Relation is not awaitable as records
  const notRecords: User[] = await User.where({ admin: true });
  void notRecords;
  // @ts-expect-error: relation.build takes attribute names only
  User.where({ admin: true }).build({ nope: 1 });
  // @ts-expect-error: relation.build takes attribute names only
  User.all().build({ nope: 1 });
  // @ts-expect-error: relation.create takes attribute names only
  void User.where({ admin: true }).create({ nope: 1 });
  // @ts-expect-error: limit takes a number
  User.limit("10");
}
void results;

// ---- or / merge / none ---------------------------------------------------------------------------------

function combining() {
  class Note extends Model({ id: "string", body: "string" }) {}
  User.where({ admin: true }).or(User.where({ age: gt(65) }));
  User.where({ admin: true }).merge(User.order({ name: "asc" }));
  User.none().where({ name: "Ada" });
  // @ts-expect-error: or takes a Relation of the same Model
  User.or(Note.where({ body: "x" }));
  // @ts-expect-error: merge takes a Relation of the same Model
  User.merge(Note.all());
  // @ts-expect-error: or takes a Relation of the same Model
  User.where({ admin: true }).or(Note.where({ body: "x" }));
  // @ts-expect-error: merge takes a Relation of the same Model
  User.where({ admin: true }).merge(Note.all());
}
void combining;

// ---- scopes ---------------------------------------------------------------------------------------------

function scopes() {
  expectTypeOf(User.adults().toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(User.olderThan(30).first()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(User.where({ admin: true }).adults().pluck("name")).toEqualTypeOf<Promise<string[]>>();
  User.adults().olderThan(40).order({ name: "asc" });
  // @ts-expect-error: olderThan takes a number
  User.olderThan("thirty");
  // @ts-expect-error: nope is not an attribute
  User.adults().where({ nope: 1 });
}
void scopes;

// ---- connect's budgets -----------------------------------------------------------------------------------

function budgets(binding: D1Database) {
  connect(binding, { maxQueries: 50, maxRowsRead: 10_000 });
  // @ts-expect-error a budget is a number
  connect(binding, { maxQueries: "50" });
}

// ---- one declaration per method: the kernel's Relation and Base are the typed faces -----------------------

function kernelClassesTyped(relation: Relation<User>, anyRelation: Relation, base: Base<{ name: string }>) {
  // A Model's Relation is the kernel's Relation of its records (with the plugins' methods).
  expectTypeOf(User.where({ admin: true })).toMatchTypeOf<Relation<User>>();
  expectTypeOf(relation.where({ name: "Ada" }).toArray()).toEqualTypeOf<Promise<User[]>>();
  expectTypeOf(relation.find("u1")).toEqualTypeOf<Promise<User>>();
  expectTypeOf(relation.first()).toEqualTypeOf<Promise<User | null>>();
  // @ts-expect-error: nope is not an attribute of User
  relation.where({ nope: 1 });
  // A plugin's Relation (Relation<any>) takes any attribute name.
  anyRelation.where({ anything: 1 }).order({ anything: "asc" });
  // A record's kernel methods are Base's, typed for its attributes.
  expectTypeOf(base.readAttribute("name")).toEqualTypeOf<string>();
  expectTypeOf(base.attributes()).toEqualTypeOf<{ name: string }>();
  // @ts-expect-error: nope is not an attribute
  base.readAttribute("nope");
  expectTypeOf(new User().readAttribute("name")).toEqualTypeOf<User["name"]>();
}
void kernelClassesTyped;
