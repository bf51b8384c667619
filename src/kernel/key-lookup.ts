import { compileSelect, type RelationData } from "./compiler.js";
import { instantiate } from "./hydrate.js";
import type { ResolvedModel } from "./resolve.js";
import { Statement, type StatementReader } from "./statement.js";

type Row = Record<string, unknown>;

/** What every lookup of one Model by key shares: its SQL, and how a found row becomes a record. */
interface Lookup {
  readonly sql: string;
  readonly sources: ReturnType<typeof compileSelect>["sources"];
  readonly readRecord: StatementReader<unknown>;
}

const lookups = new WeakMap<ResolvedModel, Lookup>();

function lookup(model: ResolvedModel, key: unknown): RelationData {
  return {
    conditions: [{ kind: "equal", attribute: model.primaryKey, value: key }],
    order: [],
    limit: 1,
    offset: undefined,
    select: undefined,
    distinct: false,
    none: false,
    includes: [],
  };
}

/** Whether plugins change how this Model's queries compile (then nothing compiled may be reused). */
export function hasCompileHooks(model: ResolvedModel): boolean {
  const { hooks } = model;
  return hooks.has("relation:select") || hooks.has("relation:where") || hooks.has("relation:order") || hooks.has("relation:paging");
}

/**
 * `find(id)` and `reload()` are the hottest paths there are, so what their lookups share is made once per Model:
 * the SQL (used unless relation hooks may change it per query) and the reader that makes a record of the row.
 */
function lookupOf(model: ResolvedModel, key: unknown): Lookup {
  let found = lookups.get(model);
  if (!found) {
    const { sql, sources } = compileSelect(lookup(model, key), model);
    const readRecord: StatementReader<unknown> = (rows, _meta, database) =>
      rows[0] === undefined ? null : instantiate(model.model, model, rows[0], database);
    lookups.set(model, (found = { sql, sources, readRecord }));
  }
  return found;
}

function statementOf<Result>(model: ResolvedModel, key: unknown, read: StatementReader<Result>): Statement<Result> {
  if (hasCompileHooks(model)) return new Statement(compileSelect(lookup(model, key), model), model, "rows", read);
  const { sql, sources } = lookupOf(model, key);
  return new Statement({ sql, params: [key], sources }, model, "rows", read);
}

/** The SELECT of the row with this primary key (already cast), read as the row or undefined. */
export function findByKeyStatement(model: ResolvedModel, key: unknown): Statement<Row | undefined> {
  return statementOf(model, key, (rows) => rows[0]);
}

/** The SELECT of the record with this primary key (already cast), read as a record of the Model or null. */
export function findRecordStatement(model: ResolvedModel, key: unknown): Statement<unknown> {
  return statementOf(model, key, lookupOf(model, key).readRecord);
}
