/** Compile-time checks of conditions: comparison helpers take values of the attribute's type. Only type-checked by tsc --noEmit; nothing here runs. */
import { between, gt, gte, ignoringCase, lt, lte } from "../../src/index.js";
import { Author } from "./authors-and-books.js";

// ---- comparison helpers take values of the attribute's type ------------------------------------------------

function comparisonValues(since: Date, text: string, count: number) {
  // Numbers (and a number's literal text) on number attributes, text on string attributes, Dates and date text on
  // datetime attributes.
  Author.where({ age: gt(18), score: between(0.5, 1.5) });
  Author.where({ age: gte("18"), score: lte(".5e1"), id: gt(text) });
  Author.where({ age: between(count, "20") });
  Author.where({ name: lt("M"), nickname: lte(text) });
  Author.where({ bornAt: gt(since), id: between("a", "m") });
  Author.where({ bornAt: between("2020-01-01", since) });
  Author.where({ name: ignoringCase("ada"), nickname: ignoringCase("x") });
  Author.whereNot({ age: lt(3) });
  void Author.findBy({ score: gte(1) });
  void Author.exists({ bornAt: lte(since) });

  // @ts-expect-error: "x" is not a number's text: no integer compares with it (guide: a compile error)
  Author.where({ age: gt("x") });
  // @ts-expect-error: nor with text of unknown content (convert it with Number first)
  Author.where({ age: gte(text) });
  // @ts-expect-error: either end of between is checked
  Author.where({ score: between(1, "high") });
  // @ts-expect-error: a number on a string attribute would order by its digits
  Author.where({ nickname: lte(5) });
  // @ts-expect-error: a number on a string attribute would order by its digits
  Author.where({ name: between(count, "z") });
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
