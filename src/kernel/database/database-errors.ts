import { CheckViolation, InvalidForeignKey, InvalidModel, NotNullViolation, RecordNotUnique } from "../errors.js";
import { isReadOnlySql } from "../sql/read-only-sql.js";
import type { Statement, StatementModel } from "../sql/statement.js";

const UNIQUE = /UNIQUE constraint failed: ([^:]+?)(?::|$)/;
const NO_TABLE = /no such table: ([^\s:]+)/;
const NOT_NULL = /NOT NULL constraint failed: ([^\s:]+)/;
// The expression (or the constraint's name) runs up to SQLite's result code, when D1 adds it.
const CHECK = /CHECK constraint failed: (.+?)(?:: SQLITE_CONSTRAINT|$)/;

/** The Model of the statement that writes `table`: in a batch, D1 does not say which statement failed. */
function modelOfTable(statements: readonly Statement[], table: string): StatementModel | undefined {
  return statements.find((statement) => statement.model?.tableName === table)?.model;
}

/**
 * Names the Models whose rows the writing statements sent write, as the start of a message (`User: `): D1 names no
 * table for these constraints, and in a batch that writes several Models' rows (a destroy with its dependents) it
 * does not say which statement failed, so each is named as the one it may be (`Comment or Post or User: `).
 */
function ownerPrefix(statements: readonly Statement[]): string {
  const models = new Set(statements.filter((statement) => statement.model && !isReadOnlySql(statement.sql)).map((statement) => statement.model!.name));
  return models.size > 0 ? `${[...models].join(" or ")}: ` : "";
}

function notNullError(statements: readonly Statement[], qualified: string, cause: unknown): NotNullViolation {
  const [table, column] = qualified.split(".");
  const model = modelOfTable(statements, table!);
  const attribute = model?.byColumn.get(column!)?.name;
  const subject = model && attribute ? `${model.name}.${attribute}` : qualified;
  return new NotNullViolation(`${subject} cannot be NULL (${qualified} is NOT NULL)`, { cause });
}

function uniqueError(statements: readonly Statement[], columns: string, cause: unknown): RecordNotUnique {
  const [table, inTable] = columns.trim().split(".");
  // A unique index on an expression is reported as index '<name>', without its table: then the Model is known only
  // when every statement is of the same one.
  const oneModel = statements.every((statement) => statement.model === statements[0]!.model);
  const model = inTable === undefined && oneModel ? statements[0]!.model : modelOfTable(statements, table!);
  const names = columns.split(",").map((qualified) => {
    const column = qualified.trim().split(".").pop()!;
    return model?.byColumn.get(column)?.name ?? column;
  });
  const owner = model ? `${model.name}.` : "";
  return new RecordNotUnique(`${owner}${names.join(", ")} has already been taken (${columns.trim()} must be unique)`, { cause });
}

/**
 * Translates a database error of one statement, or of a batch of them, into the error recordflare promises:
 * `RecordNotUnique`, `InvalidForeignKey`, `NotNullViolation` or `CheckViolation` for a constraint, `InvalidModel` for
 * a missing table whose name was inferred, `TypeError` for an upsert's `uniqueBy` that no unique index covers. Any
 * other error is returned unchanged.
 */
export function translateError(error: unknown, statements: readonly Statement[]): unknown {
  const messages = error instanceof Error ? [error.message, (error.cause as Error | undefined)?.message ?? ""] : [];
  const message = messages.join(" ");
  const unique = UNIQUE.exec(message);
  if (unique) return uniqueError(statements, unique[1]!, error);
  if (message.includes("FOREIGN KEY constraint failed")) {
    const reason = "a key refers to no row, or a row still referred to was deleted (D1 does not say which key)";
    return new InvalidForeignKey(`${ownerPrefix(statements)}a FOREIGN KEY constraint failed: ${reason}`, { cause: error });
  }
  const notNull = NOT_NULL.exec(message);
  if (notNull) return notNullError(statements, notNull[1]!, error);
  // Read from one message: the expression runs to its end, where the other message would follow.
  const check = messages.map((text) => CHECK.exec(text.trim())).find((match) => match !== null);
  if (check) return new CheckViolation(`${ownerPrefix(statements)}CHECK constraint failed: ${check[1]}`, { cause: error });
  if (message.includes("ON CONFLICT clause does not match")) {
    return new TypeError(`${ownerPrefix(statements)}uniqueBy names no unique index of the table`, { cause: error });
  }
  const missing = NO_TABLE.exec(message);
  const model = missing ? modelOfTable(statements, missing[1]!) : undefined;
  if (model?.tableInferred) {
    return new InvalidModel(
      `${model.name}: the inferred table ${model.tableName} does not exist; if a bundler renamed the class, set static tableName`,
      { cause: error },
    );
  }
  return error;
}

/**
 * The `meta` D1 reported with a failed call (on the error, or on its cause), so that the rows the failed statement
 * read are counted as D1 bills them; undefined when the error carries none.
 */
export function metaOfError(error: unknown): Record<string, unknown> | undefined {
  const metaOf = (value: unknown) => (value !== null && typeof value === "object" ? (value as { meta?: unknown }).meta : undefined);
  const meta = metaOf(error) ?? metaOf((error as { cause?: unknown } | null | undefined)?.cause);
  return meta !== null && typeof meta === "object" ? (meta as Record<string, unknown>) : undefined;
}
