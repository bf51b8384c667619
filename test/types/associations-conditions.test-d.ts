/**
 * Compile-time checks of conditions by association name (`Post.where({ author: user })`): a `belongsTo` takes a
 * record of its target (of a listed Model for a polymorphic one), null or a list of them, in every method that takes
 * a `where` object; a key value, a record of another Model, or any other association is a compile error. Only
 * type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { sql } from "../../src/index.js";
import { Entry, Note, Photo, Writer } from "./writers-and-entries.js";

function conditions(writer: Writer, other: Writer, entry: Entry, photo: Photo, note: Note) {
  // A record, null, a list (with null), beside attributes; every method that takes a where object.
  expectTypeOf(Entry.where({ author: writer })).toEqualTypeOf(Entry.all());
  Entry.where({ author: null });
  Entry.where({ author: [writer, other] });
  Entry.where({ author: [writer, null], title: "x" });
  Entry.all().where({ author: writer });
  Entry.whereNot({ author: writer });
  Entry.all().whereNot({ author: [writer] });
  expectTypeOf(Entry.findBy({ author: writer })).resolves.toEqualTypeOf<Entry | null>();
  expectTypeOf(Entry.all().findBy({ author: writer })).resolves.toEqualTypeOf<Entry | null>();
  expectTypeOf(Entry.findByOrThrow({ author: writer })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(Entry.all().findByOrThrow({ author: writer, title: "x" })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(Entry.exists({ author: writer })).resolves.toEqualTypeOf<boolean>();
  Entry.all().exists({ author: null });
  Entry.where({ author: writer }).or(Entry.where({ author: null }));
  writer.posts().where({ author: writer });
  // Attributes and sql fragments as before.
  Entry.where({ writerId: 1 });
  Entry.where(sql`title IS NULL`);

  // A polymorphic belongsTo takes a record of any listed Model, and lists of several.
  Note.where({ notable: entry });
  Note.where({ notable: photo });
  Note.where({ notable: [entry, photo, null] });
  Note.whereNot({ notable: null });
  Note.findBy({ notable: photo, body: "x" });

  // @ts-expect-error a key is given under the foreign key's attribute (writerId), not under the association
  Entry.where({ author: 1 });
  // @ts-expect-error a list of keys neither
  Entry.where({ author: [1, 2] });
  // @ts-expect-error a record of another Model
  Entry.where({ author: entry });
  // @ts-expect-error a list holding a record of another Model
  Entry.all().where({ author: [writer, photo] });
  // @ts-expect-error a record of a Model the polymorphic belongsTo does not list
  Note.where({ notable: writer });
  // @ts-expect-error whereNot is typed alike
  Entry.whereNot({ author: "1" });
  // @ts-expect-error findBy too
  Entry.findBy({ author: photo });
  // @ts-expect-error findByOrThrow too
  Entry.all().findByOrThrow({ author: 1 });
  // @ts-expect-error exists too
  Entry.exists({ author: note });
  // @ts-expect-error exists on a Relation too
  Entry.all().exists({ author: 1 });
  // @ts-expect-error a hasMany takes no condition
  Writer.where({ posts: [entry] });
  // @ts-expect-error a hasOne takes no condition
  Writer.all().where({ profile: null });
  // @ts-expect-error nor does a method of the record
  Entry.where({ save: null });
  // @ts-expect-error an unknown name beside an association is still refused
  Entry.where({ author: writer, nope: 1 });
  // @ts-expect-error and an attribute's value is still checked beside an association
  Entry.where({ author: writer, title: {} });
}
void conditions;

function findOrCreate(writer: Writer, entry: Entry, photo: Photo) {
  // find-or-create takes a belongsTo by name too, with one record or null: the new record starts with its key.
  expectTypeOf(Entry.findOrCreateBy({ author: writer, title: "x" })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(Entry.all().findOrCreateByOrThrow({ author: writer })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(writer.posts().findOrInitializeBy({ author: null }, { title: "x" })).resolves.toEqualTypeOf<Entry>();
  Note.findOrCreateBy({ notable: photo, body: "x" });

  // @ts-expect-error a key goes under the foreign key's attribute
  Entry.findOrCreateBy({ author: 1 });
  // @ts-expect-error a list is a condition, not a parent to create with
  Entry.all().findOrInitializeBy({ author: [writer] });
  // @ts-expect-error a record of another Model
  Entry.findOrCreateByOrThrow({ author: entry });
  // @ts-expect-error a hasMany is no condition
  Writer.findOrCreateBy({ posts: entry });
  // @ts-expect-error an attribute's value is still checked beside an association: a list is no value to create with
  Entry.findOrCreateBy({ author: writer, title: ["x"] });
}
void findOrCreate;
