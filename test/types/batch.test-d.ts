/** Compile-time checks of batch: it resolves to each item's result. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { batch, connect, Statement, type Batchable, type D1DatabaseLike, type WriteMeta } from "../../src/index.js";
import { Author, Book } from "./authors-and-books.js";

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
