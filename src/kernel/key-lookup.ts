import { compileSelect } from "./compiler.js";
import type { ResolvedModel } from "./resolve.js";
import { Statement, type StatementReader } from "./statement.js";

const lookupSql = new WeakMap<ResolvedModel, { sql: string; sources: ReturnType<typeof compileSelect>["sources"] }>();

/** The SELECT of one row by primary key, compiled once per Model: `find(id)` is the hottest path there is. */
export function findByKeyStatement<Result = Record<string, unknown> | undefined>(
  model: ResolvedModel,
  key: unknown,
  read: StatementReader<Result> = (rows) => rows[0] as Result,
): Statement<Result> {
  let compiled = lookupSql.get(model);
  if (!compiled) {
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
    compiled = { sql: query.sql, sources: query.sources };
    lookupSql.set(model, compiled);
  }
  return new Statement({ sql: compiled.sql, params: [key], sources: compiled.sources }, model, "rows", read);
}
