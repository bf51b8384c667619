import { compileSelect } from "./compiler.js";
import type { ResolvedModel } from "./resolve.js";
import { Statement } from "./statement.js";

/** The SELECT of one row by its stored primary key; resolves to the row or undefined. */
export function findByKeyStatement(model: ResolvedModel, key: unknown): Statement<Record<string, unknown> | undefined> {
  const query = compileSelect(
    {
      conditions: [{ kind: "equal", attribute: model.primaryKey, value: key }],
      order: [],
      limit: 1,
      offset: undefined,
      select: undefined,
      distinct: false,
      none: false,
      includes: [],
    },
    model,
  );
  return new Statement(query, model, "rows", (rows) => rows[0]);
}
