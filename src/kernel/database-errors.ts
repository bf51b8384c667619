import { InvalidModel, RecordNotUnique } from "./errors.js";
import type { Statement } from "./statement.js";

const UNIQUE = /UNIQUE constraint failed: ([^:]+?)(?::|$)/;
const NO_TABLE = /no such table: ([^\s:]+)/;

function uniqueError(statement: Statement, columns: string, cause: unknown): RecordNotUnique {
  const model = statement.model;
  const names = columns.split(",").map((qualified) => {
    const column = qualified.trim().split(".").pop()!;
    return model?.byColumn.get(column)?.name ?? column;
  });
  const owner = model ? `${model.name}.` : "";
  return new RecordNotUnique(`${owner}${names.join(", ")} has already been taken (${columns.trim()} must be unique)`, { cause });
}

/**
 * Translates a database error into the error recordflare promises: `RecordNotUnique` for a unique constraint,
 * `InvalidModel` for a missing table whose name was inferred. Any other error is returned unchanged.
 */
export function translateError(error: unknown, statement: Statement): unknown {
  const message = error instanceof Error ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}` : "";
  const unique = UNIQUE.exec(message);
  if (unique) return uniqueError(statement, unique[1]!, error);
  const model = statement.model;
  const missing = NO_TABLE.exec(message);
  if (missing && model?.tableInferred && missing[1] === model.tableName) {
    return new InvalidModel(
      `${model.name}: the inferred table ${model.tableName} does not exist; if a bundler renamed the class, set static tableName`,
      { cause: error },
    );
  }
  return error;
}
