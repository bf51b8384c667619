import type { ParamWriter } from "../sql/param-writer.js";
import type { QueryPurpose } from "./relation-data.js";
import { injectedName } from "../sql/reserved-names.js";
import type { Statement } from "../sql/statement.js";

/**
 * A query whose rows another statement of the same batch reads as a subquery (the main query of a Relation, or a
 * level of preloads below it): it compiles its SELECT into that statement's values and returns the SQL text. Its
 * placeholders are numbered, so it may be compiled before or after anything else the statement binds.
 */
export type QuerySource = (params: ParamWriter) => string;

/** A read added to the batch of a Relation's SELECT, and what receives its result once the records are loaded. */
export interface PlannedRead<Result = any> {
  readonly statement: Statement<Result>;
  /**
   * Gets the statement's result and the records of the main query, after they are loaded (hydrated). Sync. Reads it
   * still needs (a preload whose subquery chose other rows than the SELECT returned reads the missing ones by their
   * keys) it gives to `readNext`: the reads of every receiver go together in one more round trip, received the same
   * way.
   */
  readonly receive: (result: Result, records: readonly any[], readNext: (reads: readonly PlannedRead[]) => void) => void;
}

/**
 * What records are loaded for, told to `relation:plan`: `load` (a Relation's records, `find`, the finders, a page),
 * `reload` (`record.reload()`: the record itself is the one record) or `preload` (an association's records read
 * for `includes`, in the batch of the owners' SELECT).
 */
export type LoadPurpose = Extract<QueryPurpose, "load" | "reload" | "preload">;

/** Context of the `relation:plan` hook; `Q` is the Relation's type (a Model's hook gets its Model's). */
export interface RelationPlanContext<Q = any> {
  /** The Relation whose records are loaded (for a preload, the association's target with its scope). */
  readonly relation: Q;
  /**
   * Its SELECT as a subquery source, with its order, limit, offset and distinct. SQLite runs it again there and may
   * choose other rows when the SELECT leaves a choice (ties or `random()` under a limit): a read that must match the
   * records returned checks them in `receive` and reads what it missed with `readNext`.
   */
  readonly source: QuerySource;
  /** What the records are loaded for. */
  readonly purpose: LoadPurpose;
  /** The paths of `includes` not yet planned (nested names joined with dots); a hook deletes those it plans. */
  readonly pending: Set<string>;
  /** Reads sent in the same D1 batch as the SELECT, after it; a hook pushes to it. */
  readonly reads: PlannedRead[];
}

/**
 * The name the rows of a source take in the statement that reads them (`WITH <name> AS (...)`): one of recordflare's
 * own, so that it never shadows a table the statement reads.
 */
const SOURCE_NAME = injectedName("source");

/**
 * A statement's SQL that reads the rows of `source` as a common table expression: `WITH <name> AS (<source>)`,
 * then what `body` builds, given the name to select from (`... IN (SELECT "id" FROM <name>)`).
 */
export function withSource(source: QuerySource, params: ParamWriter, body: (name: string) => string): string {
  return `WITH ${SOURCE_NAME} AS (${source(params)}) ${body(SOURCE_NAME)}`;
}
