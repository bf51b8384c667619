import { argumentError } from "./arguments.js";
import { attributeNamed, castValue } from "./assign.js";
import type { Attribute } from "./attributes.js";
import { joinSelect, joinWithAnd, type QueryPurpose, selectParts } from "./compiler.js";
import { IncompatibleRelation } from "./errors.js";
import { databaseOfModel } from "./introspection.js";
import { quoteIdentifier } from "./naming.js";
import { planRowsWrite, withRowsWhere } from "./rows-write-plan.js";
import { ParamWriter } from "./param-writer.js";
import { isPlainObject } from "./plain-object.js";
import type { Relation } from "./relation.js";
import type { WriteMeta } from "./types.js";
import { Statement } from "./statement.js";
import { storedWithinD1Limit } from "./write-statements.js";

function changesOf(meta: WriteMeta): number {
  return Number(meta["changes"] ?? 0);
}

/** The WHERE of a set-based UPDATE or DELETE: the Relation's conditions, or its rows by key when it pages or orders. */
function targetRows(relation: Relation, params: ParamWriter, purpose: Extract<QueryPurpose, "updateAll" | "deleteAll">): string {
  const { data, model } = relation;
  if (data.distinct) throw new IncompatibleRelation(`${model.name}: updateAll and deleteAll cannot target a distinct Relation`);
  if (data.limit === undefined && data.offset === undefined && data.order.length === 0) {
    const { where } = selectParts({ ...data, select: undefined }, model, params, purpose);
    return where.length > 0 ? joinWithAnd(where) : "1 = 1";
  }
  // SQLite has no LIMIT on UPDATE or DELETE: target the page of rows by key instead.
  const parts = selectParts(data, model, params, purpose);
  parts.columns = quoteIdentifier(model.primaryKey.column);
  return `${parts.columns} IN (${joinSelect(parts)})`;
}

/** `"a" = ?, "b" = ?`: each value bound on its own. */
function setEach(values: ReadonlyMap<Attribute, unknown>, params: ParamWriter): string {
  return [...values].map(([attribute, stored]) => `${quoteIdentifier(attribute.column)} = ${params.bind(stored, { kind: "value", attribute })}`).join(", ");
}

function changesStatement(relation: Relation, sql: string, params: ParamWriter): Statement<number> {
  const query = { sql, params: params.params, sources: params.sources };
  return new Statement(query, relation.model, "meta", (_rows, meta) => changesOf(meta), databaseOfModel(relation.modelClass));
}

/**
 * The UPDATE of `updateAll`: sets the attributes, cast, on every row the Relation matches; reads the rows changed.
 * Plugin API: the bulk-writes plugin's `updateAll` and the associations' `nullify` build it, with no validation or
 * callback. Throws `TypeError` for anything but a non-empty plain object of attribute values.
 */
export function updateAllStatement(relation: Relation, attributes: Record<string, unknown>): Statement<number> {
  const model = relation.model;
  if (!isPlainObject(attributes)) throw argumentError(`${model.name}.updateAll`, "a plain object of attribute values", attributes);
  const entries = Object.entries(attributes);
  if (entries.length === 0) throw new TypeError(`${model.name}.updateAll needs at least one attribute to set`);
  const values = new Map<Attribute, unknown>();
  for (const [name, value] of entries) {
    const attribute = attributeNamed(model, name);
    values.set(attribute, storedWithinD1Limit(model, attribute, castValue(model, attribute, value)));
  }
  const plan = planRowsWrite(model, "updateAll", new Map([...values].map(([attribute, stored]) => [attribute.name, stored])));
  // Values past the plain parameters go through the ParamWriter's JSON arrays, so any number of columns fits.
  const params = new ParamWriter();
  const assignments = setEach(values, params);
  const where = withRowsWhere(targetRows(relation, params, "updateAll"), plan, params);
  return changesStatement(relation, `UPDATE ${model.quotedTable} SET ${assignments} WHERE ${where}`, params);
}

/**
 * The DELETE of `deleteAll`: every row the Relation matches; reads the rows deleted. Plugin API: the bulk-writes
 * plugin's `deleteAll` and the associations' `deleteAll` dependents build it, with no callback.
 */
export function deleteAllStatement(relation: Relation): Statement<number> {
  const plan = planRowsWrite(relation.model, "deleteAll");
  const params = new ParamWriter();
  const where = withRowsWhere(targetRows(relation, params, "deleteAll"), plan, params);
  return changesStatement(relation, `DELETE FROM ${relation.model.quotedTable} WHERE ${where}`, params);
}
