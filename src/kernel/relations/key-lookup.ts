import { compileSelect, hasCompileHooks, type QueryPurpose, type RelationData } from "../sql/compiler.js";
import type { ResolvedModel } from "../records/resolve.js";
import { EMPTY_RELATION } from "./relation-data.js";
import { Statement, type StatementReader } from "../sql/statement.js";

const lookupSql = new WeakMap<ResolvedModel, { sql: string; sources: ReturnType<typeof compileSelect>["sources"] }>();

/** The description of a Relation of the one row whose primary key is `key` (as stored), at most one row. */
export function keyLookup(model: ResolvedModel, key: unknown): RelationData {
  return { ...EMPTY_RELATION, conditions: [{ kind: "equal", attribute: model.primaryKey, value: key }], limit: 1 };
}

/**
 * The SELECT of one row by primary key, for a `load` (`find(id)`) or a `reload`. These are the hottest paths there
 * are, so the SQL is compiled once per Model, unless relation hooks may change it per query.
 */
export function findByKeyStatement<Result>(
  model: ResolvedModel,
  key: unknown,
  read: StatementReader<Result>,
  purpose: Extract<QueryPurpose, "load" | "reload"> = "load",
): Statement<Result> {
  if (hasCompileHooks(model)) return new Statement(compileSelect(keyLookup(model, key), model, purpose), model, "rows", read);
  let compiled = lookupSql.get(model);
  if (!compiled) {
    const query = compileSelect(keyLookup(model, key), model);
    compiled = { sql: query.sql, sources: query.sources };
    lookupSql.set(model, compiled);
  }
  return new Statement({ sql: compiled.sql, params: [key], sources: compiled.sources }, model, "rows", read);
}
