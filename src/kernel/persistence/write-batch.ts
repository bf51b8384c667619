import { rowsChanged } from "../database/changes-check.js";
import type { ParamWriter } from "../sql/param-writer.js";
import type { ResolvedModel } from "../records/resolve.js";
import type { SqlFragment } from "../sql/sql.js";
import { type ParamSource, Statement, type StatementDatabase, type StatementReader } from "../sql/statement.js";
import type { OutcomeReport } from "./write-outcome.js";
import type { PlannedWrite } from "./write-plan.js";

/** A write's own statement as compiled, before it is placed among the statements hooks added. */
export interface CompiledWrite {
  readonly query: {
    readonly sql: string;
    readonly params: readonly unknown[];
    readonly sources: readonly (ParamSource | undefined)[];
    /** Whether it may be sent again after a transient error (see `Statement.idempotent`); false when not given. */
    readonly idempotent?: boolean;
  };
  /** The SELECT of the keys of the rows it writes, for the after-statements' builders. */
  readonly keys: () => SqlFragment;
  /**
   * Whether `keys` reads the rows the write targets (a WHERE), so it holds only before the write: its
   * after-statements are then placed directly before it.
   */
  readonly keysBefore: boolean;
}

/**
 * The rows a set-based write targets: a WITH clause it needs (or ""), compiled first, then its WHERE, compiled after
 * the values the write sets. Both bind with `params`.
 */
export interface SetTarget {
  readonly prefix?: (params: ParamWriter) => string;
  readonly where: (params: ParamWriter) => string;
  /**
   * Whether it selects a page of the rows (a LIMIT or OFFSET): sent again after its write committed, it would select
   * the next page, so such a write is never retried after a transient error. Default false.
   */
  readonly paged?: boolean;
}

const ignored = () => undefined;

/**
 * What `installWritePlans` installs for the writes without records: the checks of the `where` terms hooks add, the
 * placing of the statements they add around them (see `placeExtras`), and their reports to the `write:outcome` hooks
 * (see `outcomeReport`).
 */
export interface BulkWritePlans {
  /** Refuses the `where` terms hooks added that cannot be sent (see `assertWhereTerms`). */
  assertWhere(plan: PlannedWrite): void;
  place(plan: PlannedWrite, own: readonly Statement[], keysOf: (index: number) => CompiledWrite): { statements: Statement[]; extras: Set<Statement> };
  report(plan: PlannedWrite, statement: Statement): OutcomeReport | undefined;
  /** The SELECT of the key of the row an INSERT just made, for its after-statements. */
  newestRowKey(model: ResolvedModel): SqlFragment;
  /** The SELECT of the keys of the rows a set-based write targets, for its after-statements. */
  setWriteKeys(plan: PlannedWrite, target: SetTarget): SqlFragment;
}

/** @internal The installed planning of the writes without records, if any. */
export const bulkWritePlansSlot: { plans?: BulkWritePlans } = {};

/** The installed planning of the writes without records; `TypeError` naming the Model and operation when `need` has none. */
function installedPlans(plan: PlannedWrite, need: string): BulkWritePlans {
  const { plans } = bulkWritePlansSlot;
  if (plans === undefined) throw new TypeError(`${plan.model.name}.${plan.operation}: ${need}, which needs installWritePlans() (plugin API), called in its plugin's setup`);
  return plans;
}

/** Refuses the `where` terms a write's hooks added that cannot be sent; none were added unless a hook did. */
export function assertPlannedWhere(plan: PlannedWrite): void {
  if (plan.where.length > 0) installedPlans(plan, "a write:plan hook added where terms").assertWhere(plan);
}

/** The statements of a write with those its hooks added, if any. */
function withExtras(plan: PlannedWrite, own: Statement[], writes: readonly CompiledWrite[]): { statements: Statement[]; extras?: Set<Statement> } {
  if (plan.befores === undefined && plan.afters === undefined) return { statements: own };
  return installedPlans(plan, "a write:plan hook added statements").place(plan, own, (index) => writes[index]!);
}

/**
 * One Statement of a write without records (bulk inserts and upserts, `updateAll`, `deleteAll`, dependents): its
 * own statements with those hooks added, sent in one atomic batch; `read` gets only the own statements' rows and
 * summed `meta`. The `write:outcome` hooks see the rows changed, or the error it or its batch failed with.
 */
export function planStatement<T>(plan: PlannedWrite, writes: readonly CompiledWrite[], read: StatementReader<T>, database: StatementDatabase | undefined): Statement<T> {
  let report: OutcomeReport | undefined;
  const reported: StatementReader<T> = !plan.model.hooks.has("write:outcome")
    ? read
    : (rows, meta, db) => {
        report!.succeeded(rowsChanged(meta), []);
        return read(rows, meta, db);
      };
  const { expectedChanges } = plan;
  if (expectedChanges !== undefined && writes.length > 1) {
    throw new TypeError(`${plan.model.name}.${plan.operation}: a write:plan hook set expectedChanges, which a write sent as ${writes.length} statements cannot check; write fewer rows at once`);
  }
  let statement: Statement<T>;
  if (writes.length === 1 && plan.befores === undefined && plan.afters === undefined) {
    statement = new Statement({ ...writes[0]!.query, expectedChanges }, plan.model, "meta", reported, database);
  } else {
    const own = writes.map((write) => new Statement({ ...write.query, expectedChanges }, plan.model, "meta", ignored));
    const { statements, extras } = withExtras(plan, own, writes);
    statement = Statement.ofParts(statements, reported, database, extras);
  }
  if (plan.model.hooks.has("write:outcome")) {
    report = installedPlans(plan, "a write:outcome hook awaits its outcome").report(plan, statement);
    statement.reportFailure = report?.failed;
  }
  return statement;
}
