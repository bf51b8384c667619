import type { ResolvedModel, SaveOperation } from "./hooks.js";
import { splitAtPlaceholders } from "./placeholders.js";
import { SqlFragment } from "./sql.js";

/** The statement a write becomes: an INSERT, an UPDATE, a DELETE, or an INSERT that updates on conflict. */
export type WriteKind = "insert" | "update" | "delete" | "upsert";

/**
 * What was asked: a record's save (`"create"`, `"update"`) or `"destroy"`; a bulk write (`"insert"`, `"insertAll"`,
 * `"upsert"`, `"upsertAll"`, `"updateAll"`, `"deleteAll"`); or a set-based write of dependents (`"nullify"`,
 * `"deleteDependents"`) made by a destroy.
 */
export type WriteOperation = SaveOperation | "destroy" | "insert" | "insertAll" | "upsert" | "upsertAll" | "updateAll" | "deleteAll" | "nullify" | "deleteDependents";

/** What an after-statement's builder gets: the rows the write wrote, as SQL it may embed. */
export interface WrittenRows {
  /**
   * A SELECT of the keys of the rows written, one column named `key`: the keys bound when known before sending (a
   * record's, or generated ones), else read from the database (`last_insert_rowid()`, the rows the write targets).
   * Embed it as `... FROM (${written.keys})`.
   */
  readonly keys: SqlFragment;
}

/** Builds a statement a plugin adds to a write (an `sql` fragment), sent in the write's batch. */
export type WriteExtra = (written: WrittenRows) => SqlFragment;

/**
 * Every write, before it becomes SQL: the context of `write:prepare` (async) and `write:plan` (sync). One compiler
 * then makes it its statements, with the statements hooks added before and after it in the same atomic batch.
 */
export interface WritePlan<R = any> {
  /** The Model written: its `name`, `quotedTable`, attributes with their columns (`byName`). */
  readonly model: ResolvedModel;
  readonly operation: WriteOperation;
  /**
   * The statement. A hook may turn a destroy's `"delete"` into an `"update"` of `values` (soft delete: the record
   * still ends destroyed); no other change of kind is allowed.
   */
  kind: WriteKind;
  /** The record of a save or destroy; undefined for the writes without records. */
  readonly record: R | undefined;
  /**
   * Attribute name to value: what a record's INSERT writes or its UPDATE sets, or what `updateAll` (or a nullify)
   * sets on every row; empty otherwise. `write:prepare` may replace a value (what is written, not the record's).
   */
  readonly values: Map<string, unknown>;
  /** The rows of a bulk insert or upsert, each attribute name to value; empty for the other writes. */
  readonly rows: readonly Map<string, unknown>[];
  /**
   * Conditions every row the write changes must meet, as `sql` fragments: ANDed to a record's key, to the WHERE of
   * `updateAll`/`deleteAll` and dependents' writes, made the WHERE of an upsert's `DO UPDATE`. Refused on an insert.
   */
  readonly where: SqlFragment[];
  /** The attributes of the unique key an upsert's conflict is decided on; undefined for the other kinds. */
  readonly conflictTarget: readonly string[] | undefined;
  /**
   * The number of rows a record's write must change (1 for a checked write), or undefined for any. A different count
   * throws `WriteConflict` (which `write:outcome` may replace); inside a batch it fails the whole batch first.
   */
  expectedChanges: number | undefined;
  /**
   * Whether the `write:prepare` stage ran: false on the sync `to...` forms (`toInsert`, `toUpdateAll`, ...), which
   * cannot await it. A plugin that must prepare every write throws from `write:plan` when it is false.
   */
  readonly prepared: boolean;
  /** Adds a statement sent in the same batch, just before the write. */
  before(build: () => SqlFragment): void;
  /**
   * Adds a statement sent in the same batch, that reads the rows written through `written.keys`. The kernel places it
   * where `keys` is sound: directly after the write's own statement (so `last_insert_rowid()` is the write's), or,
   * for writes that target rows by a WHERE (`updateAll`, `deleteAll`, dependents), directly before it, where the
   * WHERE still selects the rows the write is about to change.
   */
  after(build: WriteExtra): void;
}

const NO_ROWS: readonly Map<string, unknown>[] = [];

/** The plan of one write. Its lists of extra statements are made only when a hook adds one. */
export class PlannedWrite<R = any> implements WritePlan<R> {
  readonly where: SqlFragment[] = [];
  expectedChanges: number | undefined = undefined;
  prepared = false;
  /** @internal */ befores: (() => SqlFragment)[] | undefined;
  /** @internal */ afters: WriteExtra[] | undefined;

  /** @internal The kernel plans every write. */
  constructor(
    readonly model: ResolvedModel,
    readonly operation: WriteOperation,
    public kind: WriteKind,
    readonly record: R | undefined,
    readonly values: Map<string, unknown> = new Map(),
    readonly rows: readonly Map<string, unknown>[] = NO_ROWS,
    readonly conflictTarget: readonly string[] | undefined = undefined,
  ) {}

  before(build: () => SqlFragment): void {
    if (typeof build !== "function") throw new TypeError(`${this.model.name}: plan.before takes a function returning an sql fragment`);
    (this.befores ??= []).push(build);
  }

  after(build: WriteExtra): void {
    if (typeof build !== "function") throw new TypeError(`${this.model.name}: plan.after takes a function of the written rows returning an sql fragment`);
    (this.afters ??= []).push(build);
  }
}

/**
 * Runs the `write:prepare` hooks (async: they may replace the values written) then the `write:plan` hooks of a write
 * reached through an async method. Sync when no hook prepares writes, so that such a write is sent when called.
 */
export function prepareAndPlan(plan: PlannedWrite): PlannedWrite | Promise<PlannedWrite> {
  plan.prepared = true;
  const pending = plan.model.hooks.has("write:prepare") ? plan.model.hooks.callHook("write:prepare", plan) : undefined;
  return pending ? pending.then(() => planWrite(plan)) : planWrite(plan);
}

/** Runs the `write:plan` hooks of a write (sync): they may narrow it, add statements, or throw to refuse it. */
export function planWrite(plan: PlannedWrite): PlannedWrite {
  const { hooks } = plan.model;
  if (hooks.has("write:plan")) hooks.callSync("write:plan", plan);
  return plan;
}

/** Whether a plan needs more than its own statement: extra statements, or outcome hooks. */
export function hasExtras(plan: PlannedWrite): boolean {
  return plan.befores !== undefined || plan.afters !== undefined;
}

/**
 * An `sql` fragment of compiled SQL and its bound values (`?N` placeholders, as a ParamWriter writes them), so that
 * a SELECT the kernel compiled can be embedded in a plugin's fragment and bound again there.
 */
export function fragmentOf(text: string, params: readonly unknown[]): SqlFragment {
  const { texts, numbers } = splitAtPlaceholders(text);
  return new SqlFragment(texts, numbers.map((number) => params[number - 1]));
}
