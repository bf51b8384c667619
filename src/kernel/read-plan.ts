import type { ParamWriter } from "./param-writer.js";
import type { Statement } from "./statement.js";

/**
 * A query whose rows another statement of the same batch reads as a subquery (the main query of a Relation, or a
 * level of preloads below it): it compiles its SELECT into that statement's values and returns the SQL text. The
 * text must come before everything else the statement binds (see `withSource`), as `?` placeholders are read in
 * the order they appear.
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

/** Context of the `relation:plan` hook. */
export interface RelationPlanContext {
  /** The Relation whose records are loaded. */
  readonly relation: any;
  /**
   * Its SELECT as a subquery source, with its order, limit, offset and distinct. SQLite runs it again there and may
   * choose other rows when the SELECT leaves a choice (ties or `random()` under a limit): a read that must match the
   * records returned checks them in `receive` and reads what it missed with `readNext`.
   */
  readonly source: QuerySource;
  /** The paths of `includes` not yet planned (nested names joined with dots); a hook deletes those it plans. */
  readonly pending: Set<string>;
  /** Reads sent in the same D1 batch as the SELECT, after it; a hook pushes to it. */
  readonly reads: PlannedRead[];
}

/** The name the rows of a source take in the statement that reads them (`WITH <name> AS (...)`). */
const SOURCE_NAME = '"recordflare_source"';

/**
 * A statement's SQL that reads the rows of `source` as a common table expression: `WITH <name> AS (<source>)`,
 * then what `body` builds, given the name to select from (`... IN (SELECT "id" FROM <name>)`). The source is
 * compiled first, so its values are bound before the body's, in the order of the text.
 */
export function withSource(source: QuerySource, params: ParamWriter, body: (name: string) => string): string {
  return `WITH ${SOURCE_NAME} AS (${source(params)}) ${body(SOURCE_NAME)}`;
}
