/** Compile-time checks of the error classes: every class SPEC lists is exported; RecordInvalid's record is a record. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { AssociationNotLoaded, CastError, CheckViolation, ConstraintViolation, IncompatibleRelation, InvalidForeignKey, NotNullViolation, InvalidModel, IrreversibleOrder, MissingAttribute, Model, NoDatabase, RecordDestroyed, RecordflareError, RecordInvalid, RecordNotDestroyed, RecordNotFound, RecordNotSaved, RecordNotUnique, UnknownAttribute, type AnyRecord } from "../../src/index.js";
import { Author } from "./authors-and-books.js";

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
    ConstraintViolation,
    InvalidForeignKey,
    NotNullViolation,
    CheckViolation,
    IrreversibleOrder,
    IncompatibleRelation,
    AssociationNotLoaded,
    NoDatabase,
  ]) {
    expectTypeOf(ErrorClass.prototype).toMatchTypeOf<RecordflareError>();
  }

  // Every constraint the database refuses is caught by its kind or all at once.
  for (const ViolationClass of [RecordNotUnique, InvalidForeignKey, NotNullViolation, CheckViolation]) {
    expectTypeOf(ViolationClass.prototype).toMatchTypeOf<ConstraintViolation>();
  }

  // A CastError says what it refused; an sql fragment's has no Model, a refused permit input no attribute.
  if (error instanceof CastError) {
    expectTypeOf(error).toMatchTypeOf<TypeError>();
    expectTypeOf(error.model).toEqualTypeOf<Function | undefined>();
    expectTypeOf(error.attribute).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.value).toEqualTypeOf<unknown>();
    // @ts-expect-error: the refused value is read-only
    error.value = "other";
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
