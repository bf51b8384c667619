import { HookPoints } from "../plugin-api/hook-points.js";
import { argumentError, optionsArgument, refuseUninspectable } from "../records/arguments.js";
import { previewText } from "../records/display.js";
import { type Batchable, failedItem, failEach, finishCommitted, finishEach, isBatchable, type PlannedRead, ReadAfterCommit, readEach, reportedFailure, sendReads } from "./batchable.js";
import type { D1DatabaseLike, D1PreparedStatementLike } from "./d1.js";
import { changesGuardSlot, checkChanges, guardedBatch } from "./changes-check.js";
import { sendingSlot, sentSql } from "./sending.js";
import { metaOfError, translateError } from "./database-errors.js";
import { type Answered, QueryBudget, type QueryBudgets } from "./query-budget.js";
import { backoffMs, isRetrySafe, isTransientError, type RetryOptions, retrySettings, type RetrySettings, unconfirmedWrite, wait } from "./retries.js";
import { type QueryEvent, queryEvent, type RoundTrip } from "../sql/query-event.js";
import { assertSqlWithinD1Limit } from "../sql/sql-length.js";
import { Statement } from "../sql/statement.js";

/**
 * A Model class's check of its own declaration, which `db.model(M)` runs before binding it (the kernel's `Base`
 * resolves the Model there): the database layer does not import the Model layer above it.
 */
export const CHECK_MODEL = Symbol("recordflare.checkModel");

/** Hook points of a database object. */
export interface DatabaseHooks {
  /** After each query D1 answered, with its event. Sync. */
  query: (event: QueryEvent) => void;
}

/** Options of `connect`; `maxQueries` and `maxRowsRead` are opt-in budgets (see `QueryBudgetExceeded`). */
export interface ConnectOptions extends QueryBudgets {
  /** Receives an event for each query sent. */
  onQuery?: (event: QueryEvent) => void;
  /**
   * Opens a D1 session (read replication): `"first-primary"`, `"first-unconstrained"`, or a bookmark from an
   * earlier session's `db.bookmark()`.
   */
  session?: string;
  /**
   * Retries of a round trip that fails with one of D1's transient errors (a lost connection, the database's
   * restart), when every statement in it may be sent again: reads, and writes idempotent by construction. Default
   * `{ attempts: 3, delayMs: 100 }`; `false` sends each round trip once.
   */
  retries?: RetryOptions | false;
  /**
   * Text put as an SQL comment (`/* <text> *\/ `) before every statement this database sends, read at each round trip
   * (so it may come from an `AsyncLocalStorage` of the request): a route or job for D1's query insights. Undefined or
   * empty sends none. Query events show the SQL as sent.
   */
  comment?: () => string | undefined;
}

/** What D1 answers for one statement: the rows it read (for a SELECT or a RETURNING) and its `meta`. */
type D1Answer = { results?: Record<string, unknown>[]; meta: Record<string, unknown> };

/** Something `batch` runs: a Statement, or a record's `toSave()` / `toDestroy()`. */
export type BatchItem = Statement<any> | Batchable;

/** What `batch` resolves to for one item: a Statement's result, or the record of a `toSave()` / `toDestroy()`. */
export type BatchItemResult<Item> = Item extends Statement<infer Result> ? Result : Item extends Batchable<infer R> ? R : never;

/** What `batch(items)` resolves to: each item's result, in the items' order. */
export type BatchResults<Items extends readonly BatchItem[]> = { -readonly [I in keyof Items]: BatchItemResult<Items[I]> };

/** A database opened with `connect`: runs statements and batches, and binds Models with `model()`. */
export class Database {
  /** Hook points of this database (`query`). */
  readonly hooks = new HookPoints<DatabaseHooks>((name) => name === "query");
  readonly #binding: D1DatabaseLike;
  /** The binding given to `connect` (`#binding` may be a session of it), as the testing helpers know it. */
  readonly #connected: D1DatabaseLike;
  readonly #budget: QueryBudget | undefined;
  readonly #retries: RetrySettings;
  readonly #comment: (() => string | undefined) | undefined;
  /** Round trips sent so far: each one's events carry its number. */
  #roundTrips = 0;

  /** @internal Use `connect`. */
  constructor(binding: D1DatabaseLike, options: ConnectOptions = {}) {
    this.#retries = retrySettings(options.retries);
    this.#comment = options.comment;
    // Without a budget nothing is counted.
    this.#budget = options.maxQueries === undefined && options.maxRowsRead === undefined ? undefined : new QueryBudget(options);
    this.#connected = binding;
    this.#binding = options.session !== undefined && binding.withSession ? binding.withSession(options.session) : binding;
    if (options.onQuery) this.onQuery(options.onQuery);
  }

  /** Adds a query listener; returns a function that removes it. */
  onQuery(listener: (event: QueryEvent) => void): () => void {
    if (typeof listener !== "function") throw argumentError("onQuery", "a function receiving each query event", listener);
    return this.hooks.hook("query", listener);
  }

  /** The bookmark of a D1 session, to continue it in a later request; null outside a session. */
  bookmark(): string | null {
    return this.#binding.getBookmark?.() ?? null;
  }

  /**
   * The comment a call's statements start with: the `comment` option's text, read once per call so that every
   * statement of it, each try and its events carry the same one (and D1's limit on SQL counts it).
   */
  #commentPrefix(): string {
    const text = this.#comment?.();
    if (text === undefined || text === "") return "";
    if (typeof text !== "string" || text.includes("*/")) throw argumentError("connect: comment", "a function returning text without */", text);
    return `/* ${text} */ `;
  }

  /** The D1 statement of a Statement, as `sentSql` gives its SQL. */
  #prepare(statement: Statement, trip: RoundTrip): D1PreparedStatementLike {
    const prepared = this.#binding.prepare(sentSql(statement, trip));
    return statement.params.length === 0 ? prepared : prepared.bind(...statement.params);
  }

  /** Builds a query's event only when someone hears it: the query listeners, or the testing helpers' observer. */
  #emit(statement: Statement, meta: Record<string, unknown> | undefined, trip: RoundTrip, error?: unknown): void {
    const { observer } = sendingSlot;
    if (!observer && !this.hooks.has("query")) return;
    const event = queryEvent(statement, meta, trip, error);
    observer?.answered(this.#connected, event, trip);
    this.hooks.callSync("query", event);
  }

  /**
   * Admits a call (one statement, or a batch) under the budget, if one is set; resolves to what marks it answered.
   * Without a budget nothing is awaited: each needless await is a turn of the event loop on every query.
   */
  #admit(statements: readonly Statement[]): Promise<Answered> | undefined {
    return this.#budget?.admit(statements.map((statement) => statement.sql));
  }

  /**
   * Reports a call's answers to the budget and the query listeners, each statement's to every listener, even after one
   * threw: D1 has run the call, so its error is not the call's failure. Returns the first listener's error, if any.
   */
  #answered(statements: readonly Statement[], answers: readonly D1Answer[], trip: RoundTrip): Unheard | undefined {
    let unheard: Unheard | undefined;
    statements.forEach((statement, index) => {
      const { meta } = answers[index]!;
      this.#budget?.read(meta);
      try {
        this.#emit(statement, meta, trip);
      } catch (error) {
        unheard ??= { error };
      }
    });
    return unheard;
  }

  /**
   * Reports a failed call to the budget and the query listeners and returns `reported`, the error its events carry.
   * The rows it read, when D1's error reports them, are counted, and shown on the event of a call of one statement.
   */
  #failed(statements: readonly Statement[], trip: RoundTrip, error: unknown, reported: unknown): unknown {
    const meta = metaOfError(error);
    this.#budget?.read(meta);
    for (const statement of statements) this.#emit(statement, statements.length === 1 ? meta : undefined, trip, reported);
    return reported;
  }

  /** Sends one try of a call: a lone statement (not `batched`), or a batch. */
  async #call(statements: readonly Statement[], trip: RoundTrip): Promise<D1Answer[]> {
    sendingSlot.observer?.sent(this.#connected, statements, trip);
    if (trip.batched) return await this.#binding.batch(statements.map((statement) => this.#prepare(statement, trip)));
    const statement = statements[0]!;
    const prepared = this.#prepare(statement, trip);
    return [await (statement.result === "rows" ? prepared.all() : prepared.run())];
  }

  /**
   * The error to throw for a failed call: a changes guard's conflict (a batch of `sent` guarded), `UnconfirmedWrite`
   * for a transient error on a write not sent again, else D1's error translated (`RecordNotUnique`, ...).
   */
  #translated(error: unknown, statements: readonly Statement[], sent: readonly Statement[]): unknown {
    const conflict = statements === sent ? undefined : changesGuardSlot.guard!.conflict(error, sent);
    return conflict ?? unconfirmedWrite(error, sent) ?? translateError(error, sent);
  }

  /**
   * Sends a call (one statement, or a batch of `statements`: `sent` plus the guards of the changes it demands), and
   * again, after a backoff, while it fails with a transient error and every statement may be sent again (see
   * `ConnectOptions.retries`). Each try is one round trip, admitted by the budget and reported, answer or failure, to
   * the budget and the query listeners (see `Answers` for a listener that throws on an answer).
   */
  async #send(statements: readonly Statement[], batched: boolean, sent: readonly Statement[] = statements): Promise<Answers> {
    const comment = this.#commentPrefix();
    for (const statement of statements) assertSqlWithinD1Limit(statement, comment);
    for (let attempt = 1; ; attempt++) {
      // A retry waits for its backoff first: the failed try before it is answered, so a budget's next call may go.
      if (attempt > 1) await wait(backoffMs(this.#retries, attempt - 1));
      const trip: RoundTrip = { batched, number: ++this.#roundTrips, attempt, comment };
      const admitting = this.#admit(statements);
      const answered = admitting && (await admitting);
      try {
        let answers: D1Answer[];
        try {
          answers = await this.#call(statements, trip);
        } catch (error) {
          const retried = attempt < this.#retries.attempts && isTransientError(error) && statements.every(isRetrySafe);
          if (!retried) throw this.#failed(statements, trip, error, this.#translated(error, statements, sent));
          this.#failed(statements, trip, error, error);
          continue;
        }
        return { answers, unheard: this.#answered(statements, answers, trip) };
      } finally {
        answered?.();
      }
    }
  }

  /** Runs one Statement and resolves to what it reads. */
  async run<Result>(statement: Statement<Result>): Promise<Result> {
    assertBatchItems("db.run", [statement], false);
    if (statement.parts) return (await this.runAll([statement]))[0] as Result;
    return await this.#runOne(statement);
  }

  /**
   * Sends one Statement alone and reads its result. A failure is thrown as its write reports it (see
   * `reportedFailure`), or, sent `forRecords`, as D1's (see `runWrite`); a reader's error comes as `ReadAfterCommit`
   * when it is sent `forRecords` (see `readEach`).
   */
  async #runOne<Result>(statement: Statement<Result>, forRecords = false): Promise<Result> {
    let call: Answers;
    try {
      call = await this.#send([statement], false);
      checkChanges(statement, call.answers[0]!.meta);
    } catch (error) {
      throw forRecords ? error : reportedFailure([statement], error);
    }
    const [answer] = call.answers as [D1Answer];
    // The usual read, with no listener's error to put first: its answer read as it is (find's path), without the lists
    // the general reader builds.
    if (!call.unheard && !forRecords) return await statement.read(answer.results ?? [], answer.meta, this);
    return (await this.#readAnswers([statement], call, forRecords))[0] as Result;
  }

  /**
   * @internal Runs the statements of a record's save or destroy (one alone, several in one atomic batch) and resolves
   * to each one's result. D1's failure is thrown as it is: the save or destroy reports it to every write it holds, the
   * Statements among them too, whether they were sent or not, so that each write hears of it once. Once D1 has
   * committed them, a reader's error comes as `ReadAfterCommit`, with every statement's result.
   */
  async runWrite(statements: readonly Statement[]): Promise<unknown[]> {
    const [first] = statements;
    if (statements.length === 1 && !first!.parts) return [await this.#runOne(first!, true)];
    return statements.length === 0 ? [] : await this.#runAll(statements, true);
  }

  /**
   * Runs Statements in one atomic D1 batch (one round trip) and resolves to what each reads; a Statement made of
   * parts sends each of them. When it fails, each write among them reports the failure (see `reportedFailure`).
   */
  async runAll(statements: readonly Statement[]): Promise<unknown[]> {
    assertBatchItems("db.runAll", statements, false);
    if (statements.length === 0) return [];
    return await this.#runAll(statements);
  }

  /**
   * Sends Statements in one D1 batch and reads each one's result. A failure is thrown as their writes report it (see
   * `reportedFailure`), or, sent `forRecords`, as D1's (see `runWrite`); a reader's error comes as `ReadAfterCommit`
   * when they are sent `forRecords` (see `readEach`).
   */
  async #runAll(statements: readonly Statement[], forRecords = false): Promise<unknown[]> {
    const sent = statements.flatMap((statement) => statement.parts ?? [statement]);
    let call: Answers;
    try {
      // The guards are statements D1 runs and bills like any other: the budget counts them.
      const guarded = guardedBatch(sent);
      const { answers, unheard } = await this.#send(guarded, true, sent);
      call = { answers: guarded === sent ? answers : answers.filter((_, index) => !changesGuardSlot.guard!.isGuard(guarded[index]!)), unheard };
      if (sent.length === 1) checkChanges(sent[0]!, call.answers[0]!.meta);
    } catch (error) {
      throw forRecords ? error : reportedFailure(statements, error);
    }
    return await this.#readAnswers(statements, call, forRecords);
  }

  /**
   * Reads each Statement's result from the answers of what was sent for it (its parts' together, its extras left
   * out). A reader's error comes as `ReadAfterCommit` when they are sent `forRecords` (see `readEach`); a listener's
   * error on the answers is thrown first, or, `forRecords`, once every result is read (see `readThenThrow`).
   */
  #readAnswers(statements: readonly Statement[], { answers, unheard }: Answers, forRecords: boolean): unknown[] | Promise<unknown[]> {
    if (unheard && !forRecords) throw unheard.error;
    let offset = 0;
    // A reader whose records' load stage is async gives a promise: the call resolves once every one is done.
    const reading = () => readEach(statements, (statement) => {
      // A statement sent as itself reads its one answer as it is: no lists to slice, filter or sum.
      if (!statement.parts) {
        const answer = answers[offset++]!;
        return statement.read(answer.results ?? [], answer.meta, this);
      }
      const { parts, extras } = statement;
      const sentOf = answers.slice(offset, (offset += parts.length));
      const own = extras ? sentOf.filter((_, index) => !extras.has(parts[index]!)) : sentOf;
      return statement.read(own.flatMap((result) => result.results ?? []), summedMeta(own.map((result) => result.meta)), this);
    }, forRecords);
    // Deferred, so that even a reader that throws at once gives its results to the listener's error, which came first.
    return unheard ? readThenThrow(Promise.resolve().then(reading), unheard) : reading();
  }

  /**
   * Executes Statements and record writes atomically, in one round trip: every record's before-callbacks
   * run first, then one D1 batch, then every after-callback. Resolves to each item's result: a Statement's
   * result, or the record of a `toSave()` / `toDestroy()`. An error of one record's after-callbacks is thrown
   * once every record has been finished; so is a reader's (a `write:outcome` or `records:load` hook) once D1 has
   * committed the batch, every record then finished as written. When it fails (an item refused, a hook threw, or D1
   * refused the batch), every write it was given reports the failure once, in the items' order, whether or not it was
   * prepared or sent.
   */
  async batch<const Items extends readonly BatchItem[]>(items: Items): Promise<BatchResults<Items>> {
    assertBatchItems("db.batch", items);
    const statements: Statement[] = [];
    // Where each item's statements start among them, and so its results among theirs.
    const starts: number[] = [];
    let results: unknown[];
    let unread: ReadAfterCommit | undefined;
    try {
      await this.#readPlanned(items);
      for (const item of items) {
        starts.push(statements.length);
        for (const statement of isBatchable(item) ? await item.prepare() : [item]) statements.push(statement);
      }
      // Records with nothing to save prepare no statement: a batch of them sends nothing. A failure is reported below,
      // to every item alike, sent or not.
      results = statements.length === 0 ? [] : await this.#runAll(statements, true);
    } catch (error) {
      if (!(error instanceof ReadAfterCommit)) throw abandoned(items, error);
      // D1 committed the batch before a reader threw: every record still learns what it holds, then the error comes.
      unread = error;
      results = error.results;
    }
    await finishCommitted(finishEach(items, (item, index) => (isBatchable(item) ? item.finish(results, starts[index]) : undefined)), unread);
    return items.map((item, index) => (isBatchable(item) ? item.record : results[starts[index]!])) as BatchResults<Items>;
  }

  /**
   * Plans the destroys a batch starts with, in item order (each one's before-callbacks), then sends the reads their
   * checks need, all of them in one round trip. It stops at the first other record write (a save, checked whole
   * later), so that every item's before-callbacks still run in item order.
   */
  async #readPlanned(items: readonly BatchItem[]): Promise<void> {
    const reads: PlannedRead[] = [];
    for (const item of items) {
      if (!isBatchable(item)) continue;
      const planned = await item.plan?.();
      if (!planned) break;
      reads.push(...planned);
    }
    if (reads.length > 0) await sendReads(this, reads);
  }

  /** Binds a Model to this database: queries and records made through it use this database. */
  model<M extends Function>(model: M): M {
    refuseUninspectable("db.model", "a Model class", model);
    // A Model bound to another database is an object that inherits from the Model.
    const unbound = model != null && (unboundModel(model) as M & { [CHECK_MODEL]?: () => void });
    if (typeof unbound !== "function" || typeof unbound[CHECK_MODEL] !== "function") throw argumentError("db.model", "a Model class", model);
    unbound[CHECK_MODEL]();
    return bindModel(unbound, this);
  }
}

/**
 * A batch that failed before anything was written: each write's outcome hooks see `error`, and may replace it with
 * their own (the first replacement is returned, to throw); then every record is put back as it was (a refused item
 * keeps the reasons of its refusal).
 */
function abandoned(items: readonly BatchItem[], error: unknown): unknown {
  const thrown = failEach(items, error, (item) => failedItem(item, error));
  for (const item of items) if (isBatchable(item)) item.abandon();
  return thrown;
}

/** A query listener's error on the answers of a call D1 ran. */
interface Unheard {
  readonly error: unknown;
}

/**
 * The answers of a call, and the first error a query listener threw on them, if one did. D1 has run the call: a
 * records' write reads them all the same, so that its records learn what was written, then throws the error.
 */
interface Answers {
  readonly answers: D1Answer[];
  readonly unheard: Unheard | undefined;
}

/**
 * For a call made for records that a listener threw on: reads every result, then throws the listener's error as
 * `ReadAfterCommit` (it came before any reader's), so that the records finish as written before it propagates.
 */
async function readThenThrow(reading: unknown[] | Promise<unknown[]>, unheard: Unheard): Promise<never> {
  let results: unknown[];
  try {
    results = await reading;
  } catch (error) {
    // A records' call reads its results despite a reader's error, which it gives with them.
    if (!(error instanceof ReadAfterCommit)) throw error;
    results = error.results;
  }
  throw new ReadAfterCommit(results, unheard.error);
}

/** What D1 counts per statement, added up over the parts of a Statement sent as several. */
const SUMMED_META = ["changes", "duration", "rows_read", "rows_written"];

/** The `meta` of a Statement sent as several: their counts added up, the rest (`last_row_id`, ...) of the last. */
function summedMeta(metas: Record<string, unknown>[]): Record<string, unknown> {
  if (metas.length === 1) return metas[0]!;
  const meta = { ...metas.at(-1) };
  for (const key of SUMMED_META) meta[key] = metas.reduce((sum, part) => sum + Number(part[key] ?? 0), 0);
  return meta;
}

const BOUND_DATABASE = Symbol("recordflare.database");
const boundModels = new WeakMap<Database, WeakMap<Function, Function>>();

/**
 * A view of the Model whose statics query `database`. It inherits everything from the Model, so every static keeps
 * working; it is cached per database and Model. Not being a function, it answers `instanceof` as the Model does.
 */
function bindModel<M extends Function>(model: M, database: Database): M {
  let byModel = boundModels.get(database);
  if (!byModel) boundModels.set(database, (byModel = new WeakMap()));
  let bound = byModel.get(model);
  if (!bound) {
    bound = Object.create(model, {
      [BOUND_DATABASE]: { value: database },
      [Symbol.hasInstance]: { value: (value: unknown) => value instanceof model },
    }) as Function;
    byModel.set(model, bound);
  }
  return bound as M;
}

/** The database a bound Model view carries, if any. */
export function boundDatabase(model: object): Database | undefined {
  return (model as { [BOUND_DATABASE]?: Database })[BOUND_DATABASE];
}

/** The Model behind a bound view (or the Model itself). */
export function unboundModel<M extends Function>(model: M): M {
  return Object.hasOwn(model, BOUND_DATABASE) ? (Object.getPrototypeOf(model) as M) : model;
}

const BINDING = "a D1 binding (env.DB, not its name)";

/**
 * Refuses what is not a D1 binding (the binding's name, "DB", or any other value), naming `where` it was given; for
 * plugins and helpers that take a binding, as `connect` does.
 */
export function checkedBinding(where: string, binding: unknown): D1DatabaseLike {
  refuseUninspectable(where, BINDING, binding);
  const { prepare, batch } = (typeof binding === "object" && binding !== null ? binding : {}) as Partial<D1DatabaseLike>;
  if (typeof prepare !== "function" || typeof batch !== "function") throw argumentError(where, BINDING, binding);
  return binding as D1DatabaseLike;
}

/** Opens a database on a D1 binding of the Worker's env, with per-request options such as `onQuery`. */
export function connect(binding: D1DatabaseLike, options?: ConnectOptions): Database {
  // A misspelt binding name reads undefined from env: say so now, not as a failed property read at the first query.
  if (!binding) throw new TypeError(`connect: the D1 binding is ${previewText(binding)}; check its name`);
  // The binding's name ("DB") instead of env.DB, or any other object, is refused now too.
  checkedBinding("connect", binding);
  const given = optionsArgument("connect", options, ["onQuery", "session", "retries", "maxQueries", "maxRowsRead", "comment"]);
  if (given.onQuery !== undefined && typeof given.onQuery !== "function") throw argumentError("connect: onQuery", "a function", given.onQuery);
  if (given.comment !== undefined && typeof given.comment !== "function") throw argumentError("connect: comment", "a function returning text", given.comment);
  if (given.session !== undefined && typeof given.session !== "string") throw argumentError("connect: session", "a string", given.session);
  return new Database(binding, given);
}

/**
 * Refuses what `batch` cannot run, before anything is prepared: a list is needed, each item a Statement or (unless
 * `records` is false) a record's `toSave()` / `toDestroy()`.
 */
export function assertBatchItems(method: string, items: unknown, records = true): void {
  refuseUninspectable(method, "a list of Statements", items);
  if (!Array.isArray(items)) throw argumentError(method, "a list of Statements", items);
  const expected = records ? "Statements and record writes (toSave(), toDestroy())" : "Statements";
  for (const item of items) {
    refuseUninspectable(method, expected, item);
    if (!(item instanceof Statement) && !(records && isBatchable(item))) throw argumentError(method, expected, item);
  }
}
