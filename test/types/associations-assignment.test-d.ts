/**
 * Compile-time checks of a `belongsTo` assigned by its name (`Entry.create({ author: writer })`): every method that
 * takes an object of attributes for a record takes a record of its target (of a listed Model for a polymorphic one)
 * or null; a key value, a list, a record of another Model, or another kind of association is a compile error. Only
 * type-checked by `tsc --noEmit`; nothing here runs.
 */
import { expectTypeOf } from "vitest";
import { Bio, Entry, Note, Photo, Writer } from "./writers-and-entries.js";

async function assignments(writer: Writer, entry: Entry, photo: Photo, note: Note, bio: Bio) {
  // A record or null, beside attributes, in every method that assigns an object of attributes.
  expectTypeOf(Entry.build({ author: writer, title: "x" })).toEqualTypeOf<Entry>();
  expectTypeOf(Entry.create({ author: null })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(Entry.createOrThrow({ author: Writer.build({ name: "new" }) })).resolves.toEqualTypeOf<Entry>();
  expectTypeOf(entry.assign({ author: writer })).toEqualTypeOf<Entry>();
  expectTypeOf(entry.update({ title: "y", author: null })).resolves.toEqualTypeOf<boolean>();
  await entry.updateOrThrow({ author: writer });
  expectTypeOf(Entry.where({ title: "x" }).build({ author: writer })).toEqualTypeOf<Entry>();
  await Entry.all().create({ author: writer });
  await Entry.all().createOrThrow({ author: writer });
  expectTypeOf(writer.posts().build({ author: writer })).toEqualTypeOf<Entry>();
  await writer.posts().create({ author: writer });
  expectTypeOf(writer.profile.build({ writer })).toEqualTypeOf<Bio>();
  await Entry.findOrCreateBy({ title: "x" }, { author: writer });
  await Entry.all().findOrInitializeBy({ author: writer }, { author: writer, title: "x" });
  await Entry.findOrCreateByOrThrow({ title: "x" }, { author: null });

  // Polymorphic: a record of any listed Model.
  Note.build({ notable: entry });
  note.assign({ notable: photo });
  await note.update({ notable: null, body: "x" });

  // @ts-expect-error a key goes under the foreign key, not the association
  Entry.build({ author: 1 });
  // @ts-expect-error a record of another Model
  entry.assign({ author: bio });
  // @ts-expect-error a list: one parent
  await Entry.create({ author: [writer] });
  // @ts-expect-error a Model the polymorphic belongsTo does not list
  Note.build({ notable: writer });
  // @ts-expect-error a hasMany is not assigned by its name
  Writer.build({ posts: [entry] });
  // @ts-expect-error nor a hasOne
  await writer.update({ profile: bio });
  // @ts-expect-error a name that is neither attribute nor association
  Entry.all().build({ writer });
  // @ts-expect-error bulk writes take attributes alone
  await Entry.insertAll([{ author: writer, title: "x" }]);
}
void assignments;
