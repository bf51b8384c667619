import type { ResolvedModel, WriteExtra, WriteKind, WriteOperation, WritePlan } from "../plugin-api/hooks.js";
import { countArgument } from "../records/arguments.js";
import { splitAtPlaceholders } from "../sql/placeholders.js";
import { SqlFragment } from "../sql/sql.js";

const NO_ROWS: readonly Map<string, unknown>[] = [];

/** The plan of one write. Its lists of extra statements are made only when a hook adds one. */
export class PlannedWrite<R = any> implements WritePlan<R> {
  readonly where: SqlFragment[] = [];
  expectedChanges: number | undefined = undefined;
  prepared = false;
  /** The method asked, where the operation does not tell it (see `WritePlan.method`). */
  method: string | undefined;
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

  /** Adds a statement sent in the same batch, just before the write (see `WritePlan.before`). */
  before(build: () => SqlFragment): void {
    if (typeof build !== "function") throw new TypeError(`${this.model.name}: plan.before takes a function returning an sql fragment`);
    (this.befores ??= []).push(build);
  }

  /** Adds a statement that reads the rows written, placed by the kernel (see `WritePlan.after`). */
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

/**
 * Runs the `write:plan` hooks of a write (sync): they may narrow it, add statements, or throw to refuse it. The
 * `expectedChanges` a hook (this one or `write:prepare`) set is checked here, where every write passes, as
 * `defineStatement` checks its own.
 */
export function planWrite(plan: PlannedWrite): PlannedWrite {
  const { hooks } = plan.model;
  if (hooks.has("write:plan")) hooks.callSync("write:plan", plan);
  if (plan.expectedChanges !== undefined) countArgument(`${plan.model.name}: expectedChanges`, plan.expectedChanges);
  return plan;
}

/**
 * An `sql` fragment of compiled SQL and its bound values (`?N` placeholders, as a ParamWriter writes them), so that
 * a SELECT the kernel compiled can be embedded in a plugin's fragment and bound again there.
 */
export function fragmentOf(text: string, params: readonly unknown[]): SqlFragment {
  const { texts, numbers } = splitAtPlaceholders(text);
  return new SqlFragment(texts, numbers.map((number) => params[number - 1]));
}
