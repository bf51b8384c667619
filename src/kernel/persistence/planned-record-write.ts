/**
 * A record's planned write: the save or destroy of a Model with a `write:prepare`, `write:plan` or `write:outcome`
 * hook. Its plan is checked (a hook may have left it unsendable), compiled, and placed among the statements its hooks
 * added. Only plugins make records' writes planned, so the kernel keeps a slot and `installWritePlans` fills it: a
 * Worker whose plugins never plan a record's write bundles none of this.
 */
import type { Attribute } from "../records/attributes.js";
import { attributeNamed } from "../records/assign.js";
import { rowsChanged } from "../database/changes-check.js";
import { previewText } from "../records/display.js";
import { type RecordState, storedValue } from "../records/record-state.js";
import { installBindableCheck } from "../sql/bindable-values.js";
import { compileFragment } from "../sql/compiler.js";
import { ParamWriter } from "../sql/param-writer.js";
import { SqlFragment } from "../sql/sql.js";
import type { Statement } from "../sql/statement.js";
import type { SaveOperation, WritePlan } from "../plugin-api/hooks.js";
import { currentValues, type OwnWrite, pendingAttributes, type RecordOutcomeReport, recordWritePlansSlot } from "./record-write.js";
import { installBulkWritePlans, placeExtras } from "./write-extras.js";
import { newestRowKey } from "./written-keys.js";
import {
  assertWhereTerms,
  deleteStatement,
  insertStatement,
  placeholdersOf,
  type QueryCompiler,
  storedKey,
  storedValues,
  updateStatement,
  writeQuery,
} from "./write-compiler.js";
import { outcomeReport } from "./write-outcome.js";
import { PlannedWrite, planWrite, prepareAndPlan } from "./write-plan.js";

/** The attributes a plan's values name, refused with `UnknownAttribute` when one is not the Model's. */
function attributesOfValues(write: WritePlan): Attribute[] {
  return [...write.values.keys()].map((name) => attributeNamed(write.model, name));
}

/** The statements a record's operation may be written as: a hook may turn only a destroy's DELETE into an UPDATE. */
const KINDS: Readonly<Record<string, readonly string[]>> = { create: ["insert"], update: ["update"], destroy: ["delete", "update"] };

/**
 * The SELECT of a record write's key, for its after-statements: the key bound when known before sending (an update's
 * or delete's, a create's that was assigned one), else the row the INSERT just made: SQLite numbers a new row past the
 * highest rowid, and nothing else of the batch writes to the table between the INSERT and its after-statements
 * (unlike `last_insert_rowid()`, which another after-statement's INSERT would move).
 */
function recordKeys(write: WritePlan, state: RecordState): SqlFragment {
  const { model } = write;
  // An UPDATE that sets the key leaves the row under the new one. A key the INSERT computes is read from its row: computed
  // again after it, it would name another.
  const key = write.kind === "delete" ? undefined : write.values.get(model.primaryKey.name);
  if (key !== undefined && key !== null && !(key instanceof SqlFragment)) return new SqlFragment(["SELECT ", ' AS "key"'], [storedValue(model.primaryKey, key)]);
  if (write.kind !== "insert") return new SqlFragment(["SELECT ", ' AS "key"'], [storedKey(model, state)]);
  return newestRowKey(model);
}

/** Refuses with `TypeError` naming the Model a plan its hooks left unsendable; returns the attributes of its values. */
function checkedPlan(write: WritePlan): Attribute[] {
  const { model, kind } = write;
  assertWhereTerms(write);
  const allowed = KINDS[write.operation]!;
  if (!allowed.includes(kind)) {
    throw new TypeError(`${model.name}: the kind of ${write.operation === "update" ? "an" : "a"} ${write.operation}'s write is ${allowed.map((each) => `"${each}"`).join(" or ")}, not ${previewText(kind)}`);
  }
  const attributes = attributesOfValues(write);
  if (kind === "update" && attributes.length === 0) throw new TypeError(`${model.name}: an UPDATE needs values; a write:plan hook left none`);
  return attributes;
}

const isComputed = (value: unknown): boolean => value instanceof SqlFragment;

/**
 * How a planned write's query is compiled: as the kernel's own write (see `writeQuery`), with the `expectedChanges`
 * of its plan, or, when the plan adds `where` terms or a value the database computes, whole with them. A write that a
 * plugin narrows (`where` terms, `expectedChanges`: a tenant's, optimistic locking's) is never sent again after a
 * transient error: its terms are SQL the kernel cannot read, a value computed again may differ from the first try's
 * (the next position, a free slug), and a second try of a committed write would find its row changed (a lock version
 * moved on, 0 rows where 1 is demanded).
 */
function plannedQuery(write: WritePlan): QueryCompiler {
  return (model, form, attributes, params) => {
    const { where, expectedChanges } = write;
    if (where.length === 0 && !params.some(isComputed)) {
      const query = writeQuery(model, form, attributes, params);
      return expectedChanges === undefined ? query : { ...query, expectedChanges, idempotent: false, retrySql: undefined };
    }
    const writer = new ParamWriter();
    let sql = form.text(model, attributes, placeholdersOf(model, attributes, params, writer));
    for (const term of where) sql += ` AND (${compileFragment(term, model, writer)})`;
    return { sql, params: writer.params, sources: writer.sources, expectedChanges, idempotent: false, retrySql: undefined, keyAt: -1 };
  };
}

/**
 * Compiles a record's own write, as its `write:plan` hooks left it, into its Statement. `attributes` are those
 * of `write.values` when the caller knows them (a save's, which no hook changed: its plan is then the kernel's own,
 * well-formed by construction, and skips the checks). Throws `TypeError` for a plan that cannot be sent.
 */
function compileWrite(write: WritePlan, state: RecordState, attributes: readonly Attribute[] = checkedPlan(write)): Statement<unknown> {
  const { model, values } = write;
  const compile = plannedQuery(write);
  if (write.kind === "insert") return insertStatement(model, attributes, storedValues(model, attributes, values, true), state.generatedKey, compile);
  if (write.kind === "delete") return deleteStatement(model, state, compile);
  return updateStatement(model, state, attributes, storedValues(model, attributes, values), compile);
}

/**
 * Plans a record's own write (the `write:prepare` and `write:plan` hooks may change it) and compiles it, with the
 * statements the hooks added. `attributes` are those of the plan's values; they are worked out again only when a
 * hook may have changed them.
 */
function plannedWrite(state: RecordState, write: PlannedWrite, attributes: readonly Attribute[]): OwnWrite | Promise<OwnWrite> {
  const { hooks } = state.model;
  if (hooks.has("write:prepare")) {
    // A write:prepare hook with nothing to await returns nothing: the plan is then ready at once.
    const prepared = prepareAndPlan(write);
    return prepared instanceof Promise ? prepared.then(() => compileOwn(state, write, undefined)) : compileOwn(state, write, undefined);
  }
  const planned = hooks.has("write:plan");
  if (planned) planWrite(write);
  return compileOwn(state, write, planned ? undefined : attributes);
}

/** Compiles a planned record write with the statements its hooks added; `attributes` when no hook may have changed them. */
function compileOwn(state: RecordState, write: PlannedWrite, attributes: readonly Attribute[] | undefined): OwnWrite {
  const statement = compileWrite(write, state, attributes);
  const report = recordOutcomeReport(write, statement);
  if (write.befores === undefined && write.afters === undefined) return { statements: [statement], at: 0, report };
  const { statements } = placeExtras(write, [statement], () => ({ keys: () => recordKeys(write, state), keysBefore: false }));
  return { statements, at: statements.indexOf(statement), report };
}

/**
 * A record's own write reports its result: an INSERT the row it returned (one row changed), an UPDATE or DELETE
 * D1's `meta`.
 */
function recordOutcomeReport(plan: PlannedWrite, statement: Statement): RecordOutcomeReport | undefined {
  const report = outcomeReport(plan, statement);
  if (!report) return undefined;
  return {
    succeeded(result) {
      if (plan.kind === "insert") report.succeeded(1, [result as Record<string, unknown>]);
      else report.succeeded(rowsChanged(result as Record<string, unknown>), []);
    },
    failed: report.failed,
  };
}

/**
 * The values of the plan the kernel would have started a record's write from (see `unplannedFailure`): none for a
 * destroy, the current values of the attributes a save writes; undefined for a write that would have written nothing
 * (a destroy of a new record, an update with nothing to write), which reports nothing.
 */
function unplannedValues(state: RecordState, operation: SaveOperation | "destroy"): Map<string, unknown> | undefined {
  if (operation === "destroy") return state.isNew ? undefined : new Map();
  const attributes = pendingAttributes(state, operation);
  return operation === "update" && attributes.length === 0 ? undefined : currentValues(state, attributes);
}

/**
 * Installs the planning of records' own writes. Plugin API: a plugin with a `write:prepare`, `write:plan` or
 * `write:outcome` hook calls it in its `setup` (it is idempotent and cheap); a record's save or destroy on a Model
 * with such a hook and none installed throws `TypeError`. Bulk writes (`insertAll`, `updateAll`, ...) are always
 * planned; the statements a hook adds around one (`before`, `after`) and its reports to `write:outcome` hooks are
 * what this installs for them.
 */
export function installWritePlans(): void {
  // A write:plan hook may set a value D1 cannot bind.
  installBindableCheck();
  // A hook may add statements around any write, or await its outcome: a bulk one's too.
  installBulkWritePlans();
  recordWritePlansSlot.plans ??= {
    save: (record, state, operation, attributes) =>
      plannedWrite(state, new PlannedWrite(state.model, operation, operation === "create" ? "insert" : "update", record, currentValues(state, attributes)), attributes),
    destroy: (record, state) => plannedWrite(state, new PlannedWrite(state.model, "destroy", "delete", record), []),
    unplanned: (record, state, operation, error) => {
      const values = unplannedValues(state, operation);
      if (values === undefined) return error;
      const kind = operation === "destroy" ? "delete" : operation === "create" ? "insert" : "update";
      return outcomeReport(new PlannedWrite(state.model, operation, kind, record, values), undefined)?.failed(error) ?? error;
    },
  };
}
