/**
 * Compile-time checks added by the types audit, beyond the other files here: comparison helpers typed by their
 * attribute, `includes` and `reloadAssociation` taking association names, `pluck` needing a name, `paginate`'s
 * counted and uncounted pages, `batch` results, `RecordInvalid`'s record, every error class, `inclusion` values,
 * callbacks, and what editors show for attributes. Only type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import {
  AssociationNotLoaded,
  batch,
  belongsTo,
  between,
  connect,
  gt,
  gte,
  hasMany,
  hasOne,
  ignoringCase,
  IncompatibleRelation,
  InvalidModel,
  IrreversibleOrder,
  lt,
  lte,
  MissingAttribute,
  Model,
  NoDatabase,
  RecordDestroyed,
  RecordflareError,
  RecordInvalid,
  RecordNotDestroyed,
  RecordNotFound,
  RecordNotSaved,
  RecordNotUnique,
  Statement,
  UnknownAttribute,
  type AnyRecord,
  type Batchable,
  type D1DatabaseLike,
  type Page,
  type UncountedPage,
  type WriteMeta,
} from "../../src/index.js";
import { ApplicationRecord } from "../models/fixtures.js";
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

// ---- comparison helpers take values of the attribute's type ------------------------------------------------

function comparisonValues(since: Date) {
  // Numbers (and numeric text) on number attributes, strings (and numbers, read as digits) on string attributes,
  // Dates and date text on datetime attributes: as conditions cast them.
  Author.where({ age: gt(18), score: between(0.5, 1.5) });
  Author.where({ age: gte("18") });
  Author.where({ name: lt("M"), nickname: lte(5) });
  Author.where({ bornAt: gt(since), id: between("a", "m") });
  Author.where({ bornAt: between("2020-01-01", since) });
  Author.where({ name: ignoringCase("ada"), nickname: ignoringCase("x") });
  Author.whereNot({ age: lt(3) });
  void Author.findBy({ score: gte(1) });
  void Author.exists({ bornAt: lte(since) });

  // @ts-expect-error: an object is not an integer to compare with
  Author.where({ age: gt({}) });
  // @ts-expect-error: a Date is not an integer to compare with
  Author.where({ age: between(since, since) });
  // @ts-expect-error: a number is not a datetime (SPEC: numbers are refused for datetime)
  Author.where({ bornAt: lt(5) });
  // @ts-expect-error: a Date is not a string to compare with
  Author.where({ name: gt(since) });
  // @ts-expect-error: a boolean is not a string to compare with
  Author.all().where({ name: gte(true) });
  // @ts-expect-error: a bigint is not a string to compare with
  Author.where({ name: lt(1n) });
  // @ts-expect-error: ignoringCase compares text, not integers
  Author.where({ age: ignoringCase("x") });
  // @ts-expect-error: ignoringCase compares text, not datetimes
  Author.where({ bornAt: ignoringCase("2020-01-01") });
  // @ts-expect-error: no comparison on a boolean attribute
  Author.where({ admin: ignoringCase("true") });
  // A json attribute takes any value, so a comparison on it compiles (and throws TypeError at run time): TypeScript
  // cannot say "any value but a Comparison".
  Author.where({ settings: gt(1) });
}
void comparisonValues;

// ---- includes and reloadAssociation take association names --------------------------------------------------

async function associationNames(author: Author, book: Book) {
  Author.includes("books");
  Author.where({ admin: true }).includes("books", "portrait");
  Book.all().includes("author");
  expectTypeOf(Author.includes("portrait").toArray()).toEqualTypeOf<Promise<Author[]>>();

  // @ts-expect-error: nope is not an association
  Author.includes("nope");
  // @ts-expect-error: an attribute is not an association
  Author.all().includes("name");
  // @ts-expect-error: a method is not an association
  Author.where({ admin: true }).includes("save");
  // @ts-expect-error: books is an association of Author, not of Book
  Book.includes("books");
  // @ts-expect-error: Portrait declares no association
  Portrait.includes("author");

  // reloadAssociation resolves to what the association holds.
  expectTypeOf(author.reloadAssociation("books")).toEqualTypeOf<Promise<Book[]>>();
  expectTypeOf(author.reloadAssociation("portrait")).toEqualTypeOf<Promise<Portrait | null>>();
  expectTypeOf(book.reloadAssociation("author")).toEqualTypeOf<Promise<Author | null>>();
  // @ts-expect-error: nope is not an association
  void author.reloadAssociation("nope");
  // @ts-expect-error: an attribute is not an association
  void book.reloadAssociation("title");

  // A subclass may redeclare an association with a subclass of its target, which adds associations of its own.
  class Volume extends Book {
    chapters = hasMany(Chapter);
  }
  class Prolific extends Author {
    override books = hasMany(Volume);
  }
  Prolific.includes("books", "portrait");
  expectTypeOf(new Prolific().books().includes("chapters").toArray()).toEqualTypeOf<Promise<Volume[]>>();
}
void associationNames;

class Chapter extends Model({ id: { type: "string", null: false }, volumeId: "string" }) {}

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

// ---- paginate: total and totalPages are numbers unless `count: false` ---------------------------------------

async function pages(count: boolean) {
  const counted = await Author.paginate();
  expectTypeOf(counted).toEqualTypeOf<Page<Author>>();
  expectTypeOf(counted.total).toEqualTypeOf<number>();
  expectTypeOf(counted.totalPages).toEqualTypeOf<number>();
  expectTypeOf(counted.records).toEqualTypeOf<Author[]>();
  expectTypeOf(counted.page).toEqualTypeOf<number>();
  expectTypeOf(counted.perPage).toEqualTypeOf<number>();
  expectTypeOf(counted.hasNext).toEqualTypeOf<boolean>();
  expectTypeOf(counted.hasPrevious).toEqualTypeOf<boolean>();
  expectTypeOf(Author.where({ admin: true }).paginate({ page: "2", count: true })).toEqualTypeOf<Promise<Page<Author>>>();

  const uncounted = await Author.all().paginate({ page: 2, count: false });
  expectTypeOf(uncounted).toEqualTypeOf<UncountedPage<Author>>();
  expectTypeOf(uncounted.total).toEqualTypeOf<undefined>();
  expectTypeOf(uncounted.records).toEqualTypeOf<Author[]>();
  expectTypeOf(Author.paginate({ count: false })).toEqualTypeOf<Promise<UncountedPage<Author>>>();

  // A count only known at run time gives either page; `total` tells them apart.
  const either = await Author.paginate({ count });
  expectTypeOf(either).toEqualTypeOf<Page<Author> | UncountedPage<Author>>();
  if (either.total !== undefined) expectTypeOf(either.totalPages).toEqualTypeOf<number>();

  // The page fields are read-only.
  // @ts-expect-error: a page is not written to
  counted.total = 3;
  // @ts-expect-error: count is a boolean
  void Author.paginate({ count: "no" });
  // @ts-expect-error: page is a number or text
  void Author.paginate({ page: [1] });
}
void pages;

// ---- batch resolves to each item's result --------------------------------------------------------------------

async function batches(binding: D1DatabaseLike, author: Author, book: Book) {
  expectTypeOf(author.toSave()).toEqualTypeOf<Batchable<Author>>();
  expectTypeOf(book.toDestroy()).toEqualTypeOf<Batchable<Book>>();
  expectTypeOf(Author.toInsert({ name: "x" })).toEqualTypeOf<Statement<WriteMeta>>();
  expectTypeOf(Author.toInsertAll([{ name: "x" }])).toEqualTypeOf<Statement<WriteMeta>>();
  expectTypeOf(Author.toUpsert({ id: "a", name: "x" })).toEqualTypeOf<Statement<WriteMeta>>();
  expectTypeOf(Author.where({ admin: true }).toUpdateAll({ admin: false })).toEqualTypeOf<Statement<number>>();
  expectTypeOf(Author.toDeleteAll()).toEqualTypeOf<Statement<number>>();

  const results = await batch([Author.toInsert({ name: "x" }), Book.where({ pages: 0 }).toDeleteAll(), author.toSave(), book.toDestroy()]);
  expectTypeOf(results).toEqualTypeOf<[WriteMeta, number, Author, Book]>();
  const [, deleted, saved] = results;
  expectTypeOf(deleted).toEqualTypeOf<number>();
  expectTypeOf(saved.name).toEqualTypeOf<string>();

  const db = connect(binding);
  expectTypeOf(await db.batch([db.model(Book).toUpdateAll({ title: "t" }), book.toSave()])).toEqualTypeOf<[number, Book]>();
  expectTypeOf(await batch([])).toEqualTypeOf<[]>();
  // A list of unknown length gives a list of the items' results.
  const saves: Batchable<Author>[] = [author.toSave()];
  expectTypeOf(await batch(saves)).toEqualTypeOf<Author[]>();

  // @ts-expect-error: a Relation is not a batch item (use toUpdateAll, toDeleteAll, ...)
  void batch([Author.where({ admin: true })]);
  // @ts-expect-error: a record is not a batch item (use toSave() or toDestroy())
  void batch([author]);
}
void batches;

// ---- errors: every class SPEC lists is exported; RecordInvalid's record is a record -------------------------

function errors(error: unknown) {
  for (const ErrorClass of [
    UnknownAttribute,
    MissingAttribute,
    InvalidModel,
    RecordNotFound,
    RecordInvalid,
    RecordNotSaved,
    RecordNotDestroyed,
    RecordDestroyed,
    RecordNotUnique,
    IrreversibleOrder,
    IncompatibleRelation,
    AssociationNotLoaded,
    NoDatabase,
  ]) {
    expectTypeOf(ErrorClass.prototype).toMatchTypeOf<RecordflareError>();
  }

  if (error instanceof RecordInvalid) {
    expectTypeOf(error.record).toEqualTypeOf<AnyRecord>();
    expectTypeOf(error.record.errors.fullMessages()).toEqualTypeOf<string[]>();
    expectTypeOf(error.record.isNewRecord()).toEqualTypeOf<boolean>();
    // instanceof narrows it to the Model's record; a cast is allowed too.
    if (error.record instanceof Author) expectTypeOf(error.record.name).toEqualTypeOf<string>();
    const author = error.record as Author;
    void author;
    // @ts-expect-error: the record is read-only on the error
    error.record = new Author();
  }
}
void errors;

// ---- validates: inclusion lists values of the attribute's type ------------------------------------------------

export class Checked extends Model({ id: { type: "string", null: false }, name: "string", age: "integer", admin: "boolean" }) {
  static {
    this.validates("name", { inclusion: ["a", "b", null] });
    this.validates("age", { inclusion: { in: [1, 2, 3], allowNil: true } });
    this.validates("admin", { inclusion: [true, false] });
    // @ts-expect-error: age is an integer; "1" never equals a stored number
    this.validates("age", { inclusion: ["1", "2"] });
    // @ts-expect-error: name is a string
    this.validates("name", { inclusion: { in: [1] } });
    // @ts-expect-error: admin is a boolean
    this.validates("admin", { inclusion: ["yes"] });
  }
}

// ---- every callback receives the record, and only functions -----------------------------------------------

export class Called extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static {
    this.beforeCreate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.beforeUpdate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterSave(async (record) => {
      expectTypeOf(record.name).toEqualTypeOf<string | null>();
    });
    this.afterCreate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterUpdate((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    this.afterDestroy((record) => {
      expectTypeOf(record).toEqualTypeOf<Called>();
    });
    // @ts-expect-error: a callback receives a Called, not an Author
    this.afterSave((record: Author) => void record);
    // @ts-expect-error: a callback is a function
    this.afterDestroy({});
  }
}

// ---- override forms: the record type after each -------------------------------------------------------------

function overrideForms() {
  // A type change with a default: the new type, the generated nullability.
  class Retyped extends ApplicationRecord("users", { settings: { type: "integer", default: 0 }, name: { type: "json" } }) {}
  expectTypeOf(new Retyped().settings).toEqualTypeOf<number | null>();
  expectTypeOf(new Retyped().name).toEqualTypeOf<unknown>();
  // `generateId: false`, `null` with a default: nullability follows `null` only.
  class Generated extends ApplicationRecord("users", { id: { generateId: false }, email: { null: false, default: "x" } }) {}
  expectTypeOf(new Generated().id).toEqualTypeOf<string>();
  expectTypeOf(new Generated().email).toEqualTypeOf<string>();
  // Writes follow the override too.
  Retyped.build({ settings: "3" });
  // @ts-expect-error: settings is now an integer
  Retyped.build({ settings: {} });
  // @ts-expect-error: email is now non-null
  new Generated().email = null;
  // @ts-expect-error: an override cannot change the column
  ApplicationRecord("users", { email: { column: "mail" } });
  // @ts-expect-error: null is true or false
  ApplicationRecord("users", { email: { null: "no" } });
}
void overrideForms;

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
