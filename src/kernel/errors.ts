import type { AnyRecord } from "./types.js";

/** Base class of every error recordflare throws, apart from the built-in `TypeError` for bad values. */
export class RecordflareError extends Error {
  override name = "RecordflareError";
}

/** An attribute name that the Model does not have was assigned or permitted. */
export class UnknownAttribute extends RecordflareError {
  override name = "UnknownAttribute";
}

/** An attribute that a partial `select` did not load was read. */
export class MissingAttribute extends RecordflareError {
  override name = "MissingAttribute";
}

/** A Model's declaration is wrong; thrown at the Model's first use or when the override is declared. */
export class InvalidModel extends RecordflareError {
  override name = "InvalidModel";
}

/** `find`, `findByOrThrow` or `reload` found no row. */
export class RecordNotFound extends RecordflareError {
  override name = "RecordNotFound";
}

/** An `OrThrow` save failed validation; the record is on `error.record`. */
export class RecordInvalid extends RecordflareError {
  override name = "RecordInvalid";
  /** The record that failed validation, with its `errors`; `error.record instanceof <Model>` narrows it to its Model. */
  readonly record: AnyRecord;
  constructor(message: string, record: AnyRecord) {
    super(message);
    this.record = record;
  }
}

/** An `OrThrow` save was aborted by a callback; the message is the abort reason. */
export class RecordNotSaved extends RecordflareError {
  override name = "RecordNotSaved";
}

/** `destroyOrThrow` was aborted by a callback or refused by an association. */
export class RecordNotDestroyed extends RecordflareError {
  override name = "RecordNotDestroyed";
}

/** A destroyed record was changed, saved, updated, destroyed or reloaded. */
export class RecordDestroyed extends RecordflareError {
  override name = "RecordDestroyed";
}

/** The database refused a write for a unique constraint. The database's own error is `cause`. */
export class RecordNotUnique extends RecordflareError {
  override name = "RecordNotUnique";
}

/** `last()` was called on a Relation ordered by an `sql` fragment, which cannot be reversed. */
export class IrreversibleOrder extends RecordflareError {
  override name = "IrreversibleOrder";
}

/** `paginate` was called on a Relation that already has its own `limit` or `offset`. */
export class IncompatibleRelation extends RecordflareError {
  override name = "IncompatibleRelation";
}

/** An association was read before it was loaded (`load()` or `includes`), or on a record made with `new`. */
export class AssociationNotLoaded extends RecordflareError {
  override name = "AssociationNotLoaded";
}

/** No database could be found for a query: no `withDatabase`, no `db.model()`, and no `binding` on the Model. */
export class NoDatabase extends RecordflareError {
  override name = "NoDatabase";
}
