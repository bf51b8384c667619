/**
 * The SELECTs of the keys a write without records wrote, which the statements hooks add after it read
 * (`WritePlan.after`, `written.keys`): bundled only with `installWritePlans` (see write-extras.ts).
 */
import type { Attribute } from "../records/attributes.js";
import type { ResolvedModel } from "../records/resolve.js";
import { quoteIdentifier } from "../sql/naming.js";
import { ParamWriter } from "../sql/param-writer.js";
import { SqlFragment } from "../sql/sql.js";
import { type InsertChunk, jsonPick, rowJson, type RowsWrite } from "./row-inserts.js";
import { plannedWhere } from "./set-writes.js";
import type { SetTarget } from "./write-batch.js";
import { fragmentOf, type PlannedWrite } from "./write-plan.js";

/** The SELECT of a table's keys, as `key`. */
const SELECT_KEY = (model: ResolvedModel) => `SELECT ${quoteIdentifier(model.primaryKey.column)} AS "key" FROM ${model.quotedTable}`;

/**
 * The key of the row an INSERT just made: SQLite numbers a new row past the highest rowid, and nothing else of the
 * batch writes to the table between the INSERT and its after-statements.
 */
export function newestRowKey(model: ResolvedModel): SqlFragment {
  return new SqlFragment([`${SELECT_KEY(model)} WHERE rowid = (SELECT max(rowid) FROM ${model.quotedTable})`], []);
}

/** The keys of the rows a set-based write targets, selected by its WHERE (so read before it writes). */
export function setWriteKeys(plan: PlannedWrite, target: SetTarget): SqlFragment {
  const params = new ParamWriter();
  const prefix = target.prefix?.(params) ?? "";
  return fragmentOf(`${prefix}${SELECT_KEY(plan.model)} WHERE ${plannedWhere(plan, target.where(params), params)}`, params.params);
}

/**
 * The SELECT of the keys a chunk wrote, read right after it: the keys bound when the rows give them; an upsert's rows
 * by its conflict target (and the plan's `where`); else the newest rows, since SQLite numbers new rows past the
 * highest rowid.
 */
export function insertedKeys(write: RowsWrite, attributes: readonly Attribute[], chunk: InsertChunk): SqlFragment {
  const { model, conflictTarget } = write.plan;
  const position = (name: string) => attributes.findIndex((attribute) => attribute.name === name);
  const rows = (names: readonly string[]) => chunk.rows.map((row) => names.map((name) => row[position(name)]));
  const json = (names: readonly string[]) => `[${rows(names).map((row) => rowJson(names.map((name) => attributes[position(name)]!), row)).join(",")}]`;
  if (conflictTarget) {
    // The rows an upsert left as they were, of another value of a matchedOnUpsert attribute, are not among them.
    const names = [...conflictTarget, ...attributes.filter((attribute) => attribute.matchedOnUpsert).map((attribute) => attribute.name)];
    const columns = names.map((name) => quoteIdentifier(model.byName.get(name)!.column));
    const picks = names.map((_, index) => jsonPick(rows(names), index)).join(", ");
    const where = write.plan.where.length > 0 ? new SqlFragment([" AND ", ""], [andAll(write.plan.where)]) : new SqlFragment([""], []);
    return new SqlFragment([`${SELECT_KEY(model)} WHERE (${columns.join(", ")}) IN (SELECT ${picks} FROM json_each(`, "))", ""], [json(names), where]);
  }
  if (position(model.primaryKey.name) >= 0) {
    const key = [model.primaryKey.name];
    return new SqlFragment([`SELECT ${jsonPick(rows(key), 0)} AS "key" FROM json_each(`, ")"], [json(key)]);
  }
  if (write.skipsDuplicates) {
    throw new TypeError(`${model.name}.${write.plan.operation}: a write:plan hook reads the keys written, which onDuplicate: "skip" cannot tell when the rows give no ${model.primaryKey.name}`);
  }
  return new SqlFragment([`${SELECT_KEY(model)} WHERE rowid > (SELECT max(rowid) FROM ${model.quotedTable}) - `, ""], [chunk.rows.length]);
}

/** The terms ANDed in one fragment. */
function andAll(terms: readonly SqlFragment[]): SqlFragment {
  return new SqlFragment(["(", ...terms.slice(1).map(() => ") AND ("), ")"], terms);
}

