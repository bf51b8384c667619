/** Compile-time checks of paginate: total and totalPages are numbers unless count: false. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { type Page, type UncountedPage } from "../../src/index.js";
import { Author } from "./authors-and-books.js";

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
