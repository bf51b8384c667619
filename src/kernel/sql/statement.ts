import { argumentError, countArgument, optionsArgument } from "../records/arguments.js";
import type { Attribute } from "../records/attributes.js";
import { INSPECT } from "../records/inspect-symbol.js";
import type { ParamSource } from "./param-source.js";
import { shiftPlaceholders } from "./placeholders.js";
import { printQuery } from "./query-event.js";

export type { ParamSource };

/**
 * The Model a Statement reads or writes, as the database layer knows it: its name and table, to name it in errors.
 * The kernel's `ResolvedModel` is one.
 */
export interface StatementModel {
  readonly model: Function;
  readonly name: string;
  readonly tableName: string;
  /** Whether the table name was inferred from the class name (a bundler may have renamed the class). */
  readonly tableInferred: boolean;
  readonly byColumn: ReadonlyMap<string, Attribute>;
}

/**
 * The database that runs a Statement, as the Statement knows it: the kernel's `Database` is the one kind there is.
 * Named here by what it does for a Statement, since `Database` imports this module.
 */
export interface StatementDatabase {
  run<Result>(statement: Statement<Result>): Promise<Result>;
  runAll(statements: readonly Statement[]): Promise<unknown[]>;
}

/** What a Statement's result is read as: rows, the first row, or D1's `meta` of a write. */
export type StatementResult = "rows" | "meta";

/**
 * Reads what D1 returned for a Statement; `database` is the one it ran on, for the records it makes. It may return a
 * promise (the load stage of the records it makes may be async): running the Statement resolves to what it fulfils.
 */
export type StatementReader<Result> = (
  rows: Record<string, unknown>[],
  meta: Record<string, unknown>,
  database: StatementDatabase,
) => Result | Promise<Result>;

/** SQL text with its bound values. */
export interface SqlQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** What `defineStatement` makes a Statement of. */
export interface StatementDefinition<Result> {
  /** The SQL text, with a placeholder for each bound value: `?N` (what a `ParamWriter` returns), or only plain `?`. */
  readonly sql: string;
  /** The bound values, in the order the SQL reads them; at most 100 (bind lists as JSON with a `ParamWriter`). */
  readonly params?: readonly unknown[];
  /** Where each bound value came from (a `ParamWriter`'s `sources`), so that query events hide filtered values. */
  readonly sources?: ReadonlyArray<ParamSource | undefined>;
  /** The Model it reads or writes (a hook context's `model`, a Relation's `model`): names it in errors. */
  readonly model?: StatementModel;
  /** Read as rows (the default, for a SELECT or a RETURNING) or as D1's `meta` (a write's `changes`, ...). */
  readonly result?: StatementResult;
  /** Turns D1's answer into what running the Statement resolves to; by default the rows, or the `meta`. */
  readonly read?: StatementReader<Result>;
  /** The number of rows it must change (see `Statement.expectedChanges`); undefined for any. */
  readonly expectedChanges?: number;
  /**
   * Whether sending it twice has the effect and the result of sending it once (an UPDATE that sets values by key,
   * a DELETE by key, an INSERT ... ON CONFLICT DO NOTHING of a key made in code), so that a connection may send it
   * again after one of D1's transient errors, which may come after D1 committed it. Reads are retried without it;
   * `n = n + 1` is never idempotent. Default false.
   */
  readonly idempotent?: boolean;
  /**
   * The database of a bound Model (`databaseOfRelation(relation)`, `databaseOfModel(db.model(M))`): a top-level
   * `batch([...])` runs the Statement there, as it runs the kernel's Statements of that Model. Undefined for none.
   */
  readonly database?: StatementDatabase | undefined;
}

/**
 * What `defineStatementOfParts` makes a Statement sent as several of: `parts`, sent in one atomic D1 batch (one round trip,
 * all or nothing), whatever else the batch holds. For a write too big for one statement (a bulk insert over D1's
 * limit for one value): running it resolves to one result, read from the rows of all parts together and their
 * `meta` summed (`changes`, `rows_read`, ...; the rest is the last part's).
 */
export interface StatementOfPartsDefinition<Result> {
  /** The statements sent in its place, in order: at least one, none made of parts itself. */
  readonly parts: readonly Statement[];
  /** Read as the parts' rows together (the default) or as their `meta` summed. */
  readonly result?: StatementResult;
  /** Turns D1's answer into what running the Statement resolves to; by default the rows, or the `meta`. */
  readonly read?: StatementReader<Result>;
  /** As `StatementDefinition.database`. */
  readonly database?: StatementDatabase | undefined;
}

/** A prepared read or write, for `db.batch([...])` or to run alone. `toSql()` shows what it sends. */
export class Statement<Result = unknown> {
  // Its fields are declared only: the constructor sets every one, in the order they are listed.
  /** @internal */ declare readonly sql: string;
  /** @internal */ declare readonly sources: ReadonlyArray<ParamSource | undefined>;
  /** @internal */ declare readonly model: StatementModel | undefined;
  /** @internal */ declare readonly result: StatementResult;
  /** @internal Turns D1's result into what running the Statement resolves to; records keep `database`. */
  declare readonly read: StatementReader<Result>;
  /** @internal The database of the bound Model (`db.model(M)`) that made it: where a top-level `batch` runs it. */
  declare readonly database: StatementDatabase | undefined;
  /**
   * @internal The statements sent in its place, in one atomic batch, when it is too big for one (a bulk write over
   * D1's limit for one value); `read` then gets their rows together and their `meta` summed. Undefined otherwise.
   */
  declare readonly parts: readonly Statement[] | undefined;
  /** @internal The parts a plugin added to a write (an audit entry): sent with it, but left out of what `read` gets. */
  declare readonly extras: ReadonlySet<Statement> | undefined;
  /**
   * The number of rows the Statement must change, or undefined for any. Run alone, a different `meta.changes` throws
   * `WriteConflict`; in a batch with others, a guard right after it fails the whole batch, so nothing is written.
   */
  declare readonly expectedChanges: number | undefined;
  /** Whether it may be sent again after a transient error (see `StatementDefinition.idempotent`). */
  declare readonly idempotent: boolean;
  /**
   * @internal The SQL sent in its place, with the same values, when a connection retries it after a transient error:
   * a form whose second try has the effect and result of one (the INSERT of a key made in code, which finds its own
   * row if the first try was committed). Undefined when it is sent again as it is, or not at all.
   */
  declare readonly retrySql: string | undefined;
  /**
   * @internal How a write reports that it, or the batch it ran in, failed with `error` (its `write:outcome` hooks):
   * returns the error to throw in its place. Set by the kernel on the writes without records; undefined otherwise.
   */
  declare reportFailure: ((error: unknown) => unknown) | undefined;

  // Private, so that spreading or listing a Statement's keys never shows values of filtered attributes.
  readonly #params: readonly unknown[];

  /** @internal The bound values, unfiltered. */
  get params(): readonly unknown[] {
    return this.#params;
  }

  /** @internal Plugins use `defineStatement`. */
  constructor(
    query: {
      sql: string;
      params: readonly unknown[];
      sources?: ReadonlyArray<ParamSource | undefined>;
      expectedChanges?: number | undefined;
      idempotent?: boolean;
      retrySql?: string;
    },
    model: StatementModel | undefined,
    result: StatementResult,
    read: StatementReader<Result>,
    database?: StatementDatabase,
    parts?: readonly Statement[],
    extras?: ReadonlySet<Statement>,
  ) {
    this.sql = query.sql;
    this.#params = query.params;
    this.sources = query.sources ?? [];
    this.model = model;
    this.result = result;
    this.read = read;
    this.database = database;
    this.parts = parts;
    this.extras = extras;
    this.expectedChanges = query.expectedChanges;
    this.idempotent = query.idempotent ?? query.retrySql !== undefined;
    this.retrySql = query.retrySql;
    this.reportFailure = undefined;
  }

  /**
   * @internal A Statement sent as `parts` in one atomic batch (one round trip, all or nothing). It shows as their
   * SQL texts joined by `;` with all their values, each part's placeholders numbered after the values before it.
   */
  static ofParts<Result>(parts: readonly Statement[], read: StatementReader<Result>, database?: StatementDatabase, extras?: ReadonlySet<Statement>): Statement<Result> {
    const texts: string[] = [];
    let offset = 0;
    for (const part of parts) {
      texts.push(shiftPlaceholders(part.sql, offset));
      offset += part.params.length;
    }
    const query = {
      sql: texts.join(";\n"),
      params: parts.flatMap((part) => part.params),
      sources: parts.flatMap((part) => part.params.map((_, index) => part.sources[index])),
    };
    return new Statement(query, parts[0]?.model, "meta", read, database, parts, extras);
  }

  /** The SQL and its bound values, unfiltered. */
  toSql(): SqlQuery {
    return { sql: this.sql, params: [...this.params] };
  }

  /** Prints the SQL and the bound values as query events show them, filtered attributes as `[FILTERED]`. */
  toString(): string {
    return `#<Statement ${printQuery(this)}>`;
  }

  /** Serializes as printed: a Statement's JSON never holds a filtered value. */
  toJSON(): string {
    return this.toString();
  }

  /** What `console.log` and `util.inspect` print: the same text as `toString()`. */
  [INSPECT](): string {
    return this.toString();
  }
}

/** The options of a definition that are each part's own when a Statement is made of parts. */
const OWN_OF_A_PART = ["sql", "params", "sources", "expectedChanges", "idempotent"];
/** The options of a definition that say how its Statement is read and run (see `checkedReading`). */
const READING = ["result", "read", "database"];

const readRows: StatementReader<unknown> = (rows) => rows;
const readMeta: StatementReader<unknown> = (_rows, meta) => meta;

/** What a definition says of how a Statement is read and run, checked: the reader it asks for, and its database. */
function checkedReading<Result>(method: string, given: Partial<Pick<StatementDefinition<Result>, "result" | "read" | "database">>) {
  const { result = "rows", read, database } = given;
  if (result !== "rows" && result !== "meta") throw argumentError(`${method}: result`, '"rows" or "meta"', result);
  if (read !== undefined && typeof read !== "function") throw argumentError(`${method}: read`, "a function", read);
  // What a Database runs Statements with, which a D1 binding lacks (`Database` itself, imported here, would loop).
  if (database !== undefined && typeof (database as Partial<StatementDatabase> | null)?.runAll !== "function") {
    throw argumentError(`${method}: database`, "a Database", database);
  }
  return { result, reader: (read ?? (result === "rows" ? readRows : readMeta)) as StatementReader<Result>, database };
}

/**
 * Makes a Statement of SQL and bound values, for `db.run`, `db.batch([...])` and the hooks that take Statements.
 * Plugin API. Throws `TypeError` for a definition it cannot send.
 */
export function defineStatement<Result = Record<string, unknown>[]>(definition: StatementDefinition<Result>): Statement<Result> {
  const given = optionsArgument("defineStatement", definition, [...OWN_OF_A_PART, "model", ...READING]);
  const { sql, params = [], sources, model, expectedChanges, idempotent = false } = given;
  if (typeof sql !== "string" || sql.trim() === "") throw argumentError("defineStatement: sql", "SQL text", sql);
  if (!Array.isArray(params)) throw argumentError("defineStatement: params", "a list of values", params);
  const { result, reader, database } = checkedReading("defineStatement", given);
  if (expectedChanges !== undefined) countArgument("defineStatement: expectedChanges", expectedChanges);
  if (typeof idempotent !== "boolean") throw argumentError("defineStatement: idempotent", "a boolean", idempotent);
  return new Statement({ sql, params, sources, expectedChanges, idempotent }, model, result, reader, database);
}

/**
 * Makes the Statement that reads the rows of a SELECT the kernel compiled (`queryOfParts` of a Relation's
 * `selectParts`, or a `joinSelect` of them wrapped in SQL of the plugin's own), for `relation.run`; `read` turns the
 * rows into what running it resolves to. Plugin API: `pluck` and the aggregates use it. Unlike `defineStatement` it
 * checks nothing, since the compiler made the query: a Statement of SQL or values from elsewhere goes through
 * `defineStatement`.
 */
export function compiledStatement<Result>(query: SqlQuery & Pick<Partial<Statement>, "sources">, model: StatementModel, read: StatementReader<Result>): Statement<Result> {
  return new Statement(query, model, "rows", read);
}

/**
 * Makes one Statement of several, sent as its `parts` in one atomic D1 batch (see `StatementOfPartsDefinition`).
 * Plugin API. Throws `TypeError` for parts it cannot send, and for SQL, values or `expectedChanges` given beside
 * them (they are each part's own).
 */
export function defineStatementOfParts<Result = Record<string, unknown>[]>(definition: StatementOfPartsDefinition<Result>): Statement<Result> {
  // A part's own options are known names too, refused below with what to do instead.
  const given = optionsArgument("defineStatementOfParts", definition, ["parts", ...OWN_OF_A_PART, ...READING]);
  const own = OWN_OF_A_PART.find((name) => name in given);
  if (own) throw new TypeError(`defineStatementOfParts: ${own} is each part's own; give it to the parts`);
  const { parts } = given;
  const isPart = (part: unknown) => part instanceof Statement && part.parts === undefined;
  if (!Array.isArray(parts) || parts.length === 0 || !parts.every(isPart)) {
    throw argumentError("defineStatementOfParts: parts", "a non-empty list of Statements, none made of parts", parts);
  }
  const { reader, database } = checkedReading("defineStatementOfParts", given);
  return Statement.ofParts(parts, reader, database);
}
