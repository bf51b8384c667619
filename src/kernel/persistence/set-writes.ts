import { argumentError } from "../records/arguments.js";
import { rowsChanged } from "../database/changes-check.js";
import { attributeNamed, castValue } from "../records/assign.js";
import { compileFragment, joinSelect, joinWithAnd, type QueryPurpose, selectParts } from "../sql/compiler.js";
import { previewText } from "../records/display.js";
import { IncompatibleRelation } from "../errors.js";
import { databaseOfModel } from "../records/introspection.js";
import { quoteIdentifier } from "../sql/naming.js";
import { ParamWriter } from "../sql/param-writer.js";
import { isInspectable, isPlainObject } from "../records/plain-object.js";
import { SqlFragment } from "../sql/sql.js";
import type { Relation } from "../relations/relation.js";
import { prepareRelation, prepareRelationNow } from "../relations/relation-prepare.js";
import type { ResolvedModel } from "../records/resolve.js";
import type { Statement, StatementDatabase } from "../sql/statement.js";
import { storedWithinD1Limit } from "./write-compiler.js";
import { assertPlannedWhere, bulkWritePlansSlot, planStatement, type SetTarget } from "./write-batch.js";
import type { WritePlan } from "../plugin-api/hooks.js";
import { PlannedWrite, planWrite, prepareAndPlan } from "./write-plan.js";

/** The purposes of the set-based writes of a Relation's rows. */
type SetPurpose = Extract<QueryPurpose, "updateAll" | "deleteAll">;

/**
 * The WHERE of a set-based UPDATE or DELETE: the Relation's conditions, or its rows by key when it pages. Without a
 * page its order chooses no row, so none is compiled (nor held to D1's limit on ORDER BY terms).
 */
function targetRows(relation: Relation, params: ParamWriter, purpose: SetPurpose): string {
  const { data, model } = relation;
  if (data.distinct) throw new IncompatibleRelation(`${model.name}: updateAll and deleteAll cannot target a distinct Relation`);
  if (data.limit === undefined && data.offset === undefined) {
    const { where } = selectParts({ ...data, select: undefined, order: [] }, model, params, purpose);
    return where.length > 0 ? joinWithAnd(where) : "1 = 1";
  }
  // SQLite has no LIMIT on UPDATE or DELETE: target the page of rows by key instead.
  const parts = selectParts(data, model, params, purpose);
  parts.columns = quoteIdentifier(model.primaryKey.column);
  return `${parts.columns} IN (${joinSelect(parts)})`;
}

export type { SetTarget };

/**
 * Whether a set-based write may be sent again after one of D1's transient errors, which may come after D1 committed
 * it: it sets values (or deletes), so a second try leaves the rows it selects as one does, and rows it moved out of
 * its selection stay out. Not when it selects a page (the next page would be selected), holds an `sql` fragment or a
 * plugin's `where` term (SQL the kernel cannot read), or demands a count of rows (a second try changes none). Its
 * count of rows changed is the last try's: a retry of a committed write counts 0.
 */
function isRepeatable(plan: PlannedWrite, target: SetTarget, params: ParamWriter): boolean {
  return !target.paged && !params.fragments && plan.where.length === 0 && plan.expectedChanges === undefined;
}

/** The WHERE of a set-based write with the plan's `where` terms ANDed to it, each bound after what comes before. */
export function plannedWhere(plan: PlannedWrite, where: string, params: ParamWriter): string {
  assertPlannedWhere(plan);
  if (plan.where.length === 0) return where;
  return [`(${where})`, ...plan.where.map((term) => `(${compileFragment(term, plan.model, params)})`)].join(" AND ");
}

/**
 * `"a" = ?, "b" = ("b" + ?)`: each value set, in its stored form, bound on its own; an `sql` fragment is spliced in
 * parentheses, its values bound where they stand in the text.
 */
function setEach(plan: PlannedWrite, params: ParamWriter): string {
  if (plan.values.size === 0) throw new TypeError(`${plan.model.name}: an UPDATE needs values; a write:plan hook left none`);
  return [...plan.values].map(([name, value]) => {
    const attribute = attributeNamed(plan.model, name);
    const set = value instanceof SqlFragment
      ? `(${compileFragment(value, plan.model, params)})`
      : params.bind(storedWithinD1Limit(plan.model, attribute, value), { kind: "value", attribute });
    return `${quoteIdentifier(attribute.column)} = ${set}`;
  }).join(", ");
}

/**
 * Compiles a planned set-based write (`updateAll`, `deleteAll`, dependents' nullify and delete) of the rows `target`
 * selects: an UPDATE of `plan.values` or a DELETE, with the plan's `where` terms and the statements hooks added.
 * Resolves to the rows changed. Plugin API, for a plugin that writes rows by a WHERE of its own (dependents).
 */
export function setWriteStatement(plan: WritePlan, target: SetTarget, database: StatementDatabase | undefined): Statement<number> {
  const planned = plan as PlannedWrite;
  const { model, kind } = planned;
  if (kind !== "update" && kind !== "delete") throw new TypeError(`${model.name}: the kind of a ${planned.operation} is "update" or "delete", not ${previewText(kind)}`);
  const params = new ParamWriter();
  const prefix = target.prefix?.(params) ?? "";
  const set = kind === "update" ? setEach(planned, params) : "";
  const where = plannedWhere(planned, target.where(params), params);
  const sql = kind === "update" ? `${prefix}UPDATE ${model.quotedTable} SET ${set} WHERE ${where}` : `${prefix}DELETE FROM ${model.quotedTable} WHERE ${where}`;
  const idempotent = isRepeatable(planned, target, params);
  const keys = () => bulkWritePlansSlot.plans!.setWriteKeys(planned, target);
  const write = { query: { sql, params: params.params, sources: params.sources, idempotent }, keys, keysBefore: true };
  return planStatement(planned, [write], (_rows, meta) => rowsChanged(meta), database);
}

/**
 * The rows of a Relation a set-based write targets (its conditions, or its rows by key when it pages or orders), for
 * `setWriteStatement`. Plugin API: the associations' per-owner dependents write their children's rows so.
 */
export function relationTarget(relation: Relation, purpose: Extract<QueryPurpose, "updateAll" | "deleteAll">): SetTarget {
  const { limit, offset } = relation.data;
  return { where: (params) => targetRows(relation, params, purpose), paged: limit !== undefined || offset !== undefined };
}

/** Whether a value is an `sql` fragment; a revoked Proxy, which fails even `instanceof`, is left for casting to refuse. */
const isFragment = (value: unknown) => typeof value === "object" && value !== null && isInspectable(value) && value instanceof SqlFragment;

/**
 * The plan of `updateAll`: the attributes, cast, but an `sql` fragment kept as it is (the database computes that
 * value: `sql\`${column("score")} + 1\``); `TypeError` for anything but a non-empty plain object of them.
 */
function updateAllPlan(relation: Relation, attributes: Record<string, unknown>, method: string | undefined): PlannedWrite {
  const model = relation.model;
  if (!isPlainObject(attributes)) throw argumentError(`${model.name}.updateAll`, "a plain object of attribute values", attributes);
  const entries = Object.entries(attributes);
  if (entries.length === 0) throw new TypeError(`${model.name}.updateAll needs at least one attribute to set`);
  const values = new Map<string, unknown>();
  for (const [name, value] of entries) {
    const attribute = attributeNamed(model, name);
    values.set(attribute.name, isFragment(value) ? value : castValue(model, attribute, value));
  }
  const plan = new PlannedWrite(model, "updateAll", "update", undefined, values);
  plan.method = method;
  return plan;
}

/** The Statement of a planned `updateAll` or `deleteAll` of the rows a Relation, prepared already, matches. */
function relationWriteStatement(plan: PlannedWrite, relation: Relation, purpose: SetPurpose): Statement<number> {
  return setWriteStatement(plan, relationTarget(relation, purpose), databaseOfModel(relation.modelClass));
}

/**
 * The Statement of a planned `updateAll` or `deleteAll` built by its sync form `method`: the `relation:prepare` hooks
 * run now, and one that must await work is refused, suggesting `instead`.
 */
function setWriteNow(given: Relation, plan: PlannedWrite, purpose: SetPurpose, method: string, instead: string): Statement<number> {
  return relationWriteStatement(plan, prepareRelationNow(given, purpose, method, instead), purpose);
}

/**
 * The UPDATE of `updateAll`: sets the attributes, cast (an `sql` fragment is computed by the database), on every row
 * the Relation matches; reads the rows changed. Sync, so the `write:prepare` stage does not run (see
 * `updateAllWrite`), and a `relation:prepare` hook that must await work is refused. Plugin API: the bulk-writes
 * plugin's `toUpdateAll` builds it, with no validation or callback; `method` names another method that asked for it
 * (`WritePlan.method`: `Post.toUpdateCounters`). Throws `TypeError` for anything but a non-empty plain object of
 * attribute values.
 */
export function updateAllStatement(given: Relation, attributes: Record<string, unknown>, method?: string): Statement<number> {
  return setWriteNow(given, planWrite(updateAllPlan(given, attributes, method)), "updateAll", "toUpdateAll()", "use await updateAll(...) instead");
}

/**
 * Runs `updateAll` after the `write:prepare` stage; resolves to the rows changed, 0 on `none()` without a query (its
 * input checked all the same). Plugin API (bulk writes; counters, whose `method` the plan names).
 */
export async function updateAllWrite(relation: Relation, attributes: Record<string, unknown>, method?: string): Promise<number> {
  return await runSetWrite(relation, prepareAndPlan(updateAllPlan(relation, attributes, method)), "updateAll");
}

/**
 * Sends a planned `updateAll` or `deleteAll` of the rows the Relation matches, once the `write:prepare` stage (`planning`,
 * awaited when a hook must be) and `relation:prepare` have run.
 */
async function runSetWrite(given: Relation, planning: PlannedWrite | Promise<PlannedWrite>, purpose: SetPurpose): Promise<number> {
  const plan = planning instanceof Promise ? await planning : planning;
  const pending = prepareRelation(given, purpose);
  const relation = pending instanceof Promise ? await pending : pending;
  const statement = relationWriteStatement(plan, relation, purpose);
  return relation.data.none ? 0 : await relation.run(statement);
}

const deleteAllPlan = (relation: Relation) => new PlannedWrite(relation.model, "deleteAll", "delete", undefined);

/**
 * The DELETE of `deleteAll`: every row the Relation matches; reads the rows deleted. Sync, so the `write:prepare`
 * stage does not run (see `deleteAllWrite`), and a `relation:prepare` hook that must await work is refused. Plugin
 * API: the bulk-writes plugin's `toDeleteAll` builds it.
 */
export function deleteAllStatement(given: Relation): Statement<number> {
  return setWriteNow(given, planWrite(deleteAllPlan(given)), "deleteAll", "toDeleteAll()", "use await deleteAll() instead");
}

/** Runs `deleteAll` after the `write:prepare` stage, as `updateAllWrite` runs `updateAll`. Plugin API (bulk writes). */
export async function deleteAllWrite(relation: Relation): Promise<number> {
  return await runSetWrite(relation, prepareAndPlan(deleteAllPlan(relation)), "deleteAll");
}

/**
 * Plans a set-based write of a destroy's dependents (`nullify`'s UPDATE of `values`, or the DELETE of the rows
 * reached) through the `write:prepare` and `write:plan` hooks; compile it with `setWriteStatement`. `method` names
 * the method that asked for it (`WritePlan.method`: `Post#destroy`, `Post.comments.remove`). Plugin API (associations).
 */
export function dependentsWritePlan(model: ResolvedModel, operation: "nullify" | "deleteDependents", values?: ReadonlyMap<string, unknown>, method?: string): WritePlan | Promise<WritePlan> {
  const plan = new PlannedWrite(model, operation, operation === "nullify" ? "update" : "delete", undefined, new Map(values));
  plan.method = method;
  return prepareAndPlan(plan);
}
