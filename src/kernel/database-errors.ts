import { InvalidModel, RecordNotUnique } from "./errors.js";
import type { Statement, StatementModel } from "./statement.js";

const UNIQUE = /UNIQUE constraint failed: ([^:]+?)(?::|$)/;
const NO_TABLE = /no such table: ([^\s:]+)/;

/** The Model of the statement that writes `table`: in a batch, D1 does not say which statement failed. */
function modelOfTable(statements: readonly Statement[], table: string): StatementModel | undefined {
  return statements.find((statement) => statement.model?.tableName === table)?.model;
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
 * `RecordNotUnique` for a unique constraint, `InvalidModel` for a missing table whose name was inferred. Any other
 * error is returned unchanged.
 */
export function translateError(error: unknown, statements: readonly Statement[]): unknown {
  const message = error instanceof Error ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}` : "";
  const unique = UNIQUE.exec(message);
  if (unique) return uniqueError(statements, unique[1]!, error);
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
