/** Base class of every error recordflare throws, apart from the built-in `TypeError` for bad values. */
export class RecordflareError extends Error {
  /** The class's name, shown before the message; each subclass sets its own. */
  override name = "RecordflareError";

  /** Serializes the name and message only: nothing the error refers to (a record, a cause) is written out. */
  toJSON(): { name: string; message: string } {
    return { name: this.name, message: this.message };
  }
}

/**
 * Request input was refused: a value that cannot be cast to its attribute's type was assigned, permitted, written in
 * bulk, used in a condition or given to a comparison helper (or `undefined` was); `permit` got input no form or JSON
 * object gives; `paginate` got a page or page size that is no whole number from 1; an order direction is not `"asc"`
 * or `"desc"`. A `TypeError`, as every bad value is, that also says where: an app can answer bad request input with a
 * 400 by catching this class alone, without hiding its own `TypeError`s (a wrong argument in its code).
 */
export class CastError extends TypeError {
  override name = "CastError";
  // `model` and `attribute` are declared only: the constructor sets them.
  /** The Model the value was meant for; undefined for a value of an `sql` fragment, which has no Model. */
  declare readonly model: Function | undefined;
  /**
   * The attribute the value was meant for, or the option that took it (`paginate`'s `page` or `perPage`); undefined
   * when `permit` refused the whole input, or for a value of an `sql` fragment.
   */
  declare readonly attribute: string | undefined;
  // A private field, as the value may be a secret: no printing, logging or serializing of the error shows it.
  readonly #value: unknown;
  constructor(message: string, model: Function | undefined, attribute: string | undefined, value?: unknown) {
    super(message);
    this.model = model;
    this.attribute = attribute;
    this.#value = value;
  }

  /**
   * What was refused, as given, for the app to read. It may be a secret, so no printing (`inspect`, even with hidden
   * properties), logging or `JSON.stringify` of the error shows it; the message shows at most 60 characters of it,
   * and none of a filtered attribute.
   */
  get value(): unknown {
    return this.#value;
  }
}

/** An attribute name that the Model does not have was assigned or permitted, or named in a condition, order, `select` or `pluck`. */
export class UnknownAttribute extends RecordflareError {
  override name = "UnknownAttribute";
}

/** An attribute that a partial `select` did not load was read or assigned (in hooks too). */
export class MissingAttribute extends RecordflareError {
  override name = "MissingAttribute";
}

/** A Model's declaration is wrong; thrown at the Model's first use or when the override is declared. */
export class InvalidModel extends RecordflareError {
  override name = "InvalidModel";
}

/** `find` (also for an uncastable id), `findByOrThrow` or `reload` (of a deleted or never-saved record) found no row. */
export class RecordNotFound extends RecordflareError {
  override name = "RecordNotFound";
}

/**
 * An `OrThrow` save, or a record in a `batch`, was aborted by a callback; the message is the abort reason. Also a
 * `hasMany`'s `set` or `setIds` that would leave out a child whose foreign key is NOT NULL, with no `dependent` that
 * removes it (nothing is written).
 */
export class RecordNotSaved extends RecordflareError {
  override name = "RecordNotSaved";
}

/** `destroyOrThrow`, or a `toDestroy()` in a `batch`, was aborted by a callback or refused by a `restrictWithError` association. */
export class RecordNotDestroyed extends RecordflareError {
  override name = "RecordNotDestroyed";
}

/**
 * A record's save or destroy was started while another save or destroy of it was in progress (`Promise.all([r.save(),
 * r.save()])`): await the first. Nothing of the second was run; an after-callback may save the record again.
 */
export class WriteInProgress extends RecordflareError {
  override name = "WriteInProgress";
}

/** A destroyed record was changed, saved, updated, destroyed or reloaded. */
export class RecordDestroyed extends RecordflareError {
  override name = "RecordDestroyed";
}

/**
 * The database refused a write for one of the table's constraints; each kind has its subclass. The database's own
 * error is `cause`. A bug or a race, not bad input: validations are what refuse bad input.
 */
export class ConstraintViolation extends RecordflareError {
  /** The class's name, shown before the message; each kind of constraint sets its own. */
  override name = "ConstraintViolation";
}

/** The database refused a write for a unique constraint. The database's own error is `cause`. */
export class RecordNotUnique extends ConstraintViolation {
  /** The error class's name, as `error.name` shows it. */
  override name = "RecordNotUnique";
}

/**
 * The database refused a write for a FOREIGN KEY constraint: a key refers to no row, or a row that others still refer
 * to was deleted. D1 does not say which constraint; the message names the Model when the statements sent tell it.
 */
export class InvalidForeignKey extends ConstraintViolation {
  /** The error class's name, as `error.name` shows it. */
  override name = "InvalidForeignKey";
}

/** The database refused a write for a NOT NULL constraint; the message names the Model and attribute. */
export class NotNullViolation extends ConstraintViolation {
  /** The error class's name, as `error.name` shows it. */
  override name = "NotNullViolation";
}

/** The database refused a write for a CHECK constraint; the message gives the constraint's expression. */
export class CheckViolation extends ConstraintViolation {
  /** The error class's name, as `error.name` shows it. */
  override name = "CheckViolation";
}

/**
 * D1 failed with one of its transient errors (a lost connection, the database's restart) on a round trip holding a
 * write that is not safe to send twice (an INSERT whose key the database numbers, `n = n + 1`, a write a plugin
 * narrows), so it was not sent again: D1 may or may not have committed it. The message names the Model of that write;
 * D1's error is `cause`.
 */
export class UnconfirmedWrite extends RecordflareError {
  override name = "UnconfirmedWrite";
}

/** `last()` was called on a Relation ordered by an `sql` fragment, which cannot be reversed. */
export class IrreversibleOrder extends RecordflareError {
  override name = "IrreversibleOrder";
}

/**
 * Two Relations, or a Relation and an operation, do not fit together: `paginate` on a Relation with its own `limit`
 * or `offset`; `or` with a Relation of another Model or differing in more than conditions; `merge` with a Relation
 * of another Model; `updateAll` or `deleteAll` on a `distinct()` Relation; preloading a scope with `limit` or `offset`.
 */
export class IncompatibleRelation extends RecordflareError {
  override name = "IncompatibleRelation";
}

/** No database could be found for a query: no `withDatabase`, no `db.model()`, and no `binding` on the Model. */
export class NoDatabase extends RecordflareError {
  override name = "NoDatabase";
}

/**
 * A query was about to be sent past a budget given to `connect` (`maxQueries` or `maxRowsRead`); it was not sent.
 * The message names the budget, its limit, what was used and the query's SQL.
 */
export class QueryBudgetExceeded extends RecordflareError {
  override name = "QueryBudgetExceeded";
  // `budget`, `limit` and `sql` are declared only: the constructor sets them.
  /** The budget passed: `"maxQueries"` or `"maxRowsRead"`. */
  declare readonly budget: "maxQueries" | "maxRowsRead";
  /** The budget's limit, as given to `connect`. */
  declare readonly limit: number;
  /** The SQL of the query that was refused (the first statement, for a batch). */
  declare readonly sql: string;
  constructor(budget: "maxQueries" | "maxRowsRead", limit: number, used: number, sql: string) {
    const spent = budget === "maxQueries" ? `${used} queries sent, and this one would pass it` : `${used} rows read so far`;
    super(`${budget} of ${limit} exceeded (${spent}); refused before sending: ${sql}`);
    this.budget = budget;
    this.limit = limit;
    this.sql = sql;
  }
}
