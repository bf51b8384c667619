import type { Attribute } from "./attributes.js";
import type { Database } from "./database.js";
import type { ResolvedModel } from "./resolve.js";

/**
 * Where a bound value came from, so that query events can hide filtered values:
 * one attribute's value, a JSON list of one attribute's values, JSON rows keyed by column, or a JSON array of values
 * bound past the plain parameters (each with its own source).
 */
export type ParamSource =
  | { readonly kind: "value"; readonly attribute: Attribute }
  | { readonly kind: "spilled"; readonly values: readonly unknown[]; readonly sources: ReadonlyArray<ParamSource | undefined> }
  | { readonly kind: "list"; readonly attribute: Attribute }
  | { readonly kind: "rows"; readonly byKey: ReadonlyMap<string, Attribute> };

/** What a Statement's result is read as: rows, the first row, or D1's `meta` of a write. */
export type StatementResult = "rows" | "meta";

/** Reads what D1 returned for a Statement; `database` is the one it ran on, for the records it makes. */
export type StatementReader<Result> = (rows: Record<string, unknown>[], meta: Record<string, unknown>, database: Database) => Result;

/** SQL text with its bound values. */
export interface SqlQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** A prepared read or write, for `db.batch([...])` or to run alone. `toSql()` shows what it sends. */
export class Statement<Result = unknown> {
  /** @internal */ readonly sql: string;
  /** @internal */ readonly params: readonly unknown[];
  /** @internal */ readonly sources: ReadonlyArray<ParamSource | undefined>;
  /** @internal */ readonly model: ResolvedModel | undefined;
  /** @internal */ readonly result: StatementResult;
  /** @internal Turns D1's result into what running the Statement resolves to; records keep `database`. */
  readonly read: StatementReader<Result>;
  /** @internal The database of the bound Model (`db.model(M)`) that made it: where a top-level `batch` runs it. */
  readonly database: Database | undefined;

  /** @internal */
  constructor(
    query: { sql: string; params: readonly unknown[]; sources?: ReadonlyArray<ParamSource | undefined> },
    model: ResolvedModel | undefined,
    result: StatementResult,
    read: StatementReader<Result>,
    database?: Database,
  ) {
    this.sql = query.sql;
    this.params = query.params;
    this.sources = query.sources ?? [];
    this.model = model;
    this.result = result;
    this.read = read;
    this.database = database;
  }

  /** The SQL and its bound values, unfiltered. */
  toSql(): SqlQuery {
    return { sql: this.sql, params: [...this.params] };
  }
}
