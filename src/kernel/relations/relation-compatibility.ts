import type { OrderTerm, RelationData } from "./relation-data.js";
import type { ResolvedModel } from "../records/resolve.js";
import { isBlob, sameStored } from "../sql/blob-values.js";
import { ColumnReference, SqlFragment } from "../sql/sql.js";

/**
 * The attributes a Relation's records are loaded with, or undefined for all of them: its `select`, plus the
 * primary key unless it is `distinct` (which does not add it).
 */
export function loadedAttributes(data: RelationData, model: ResolvedModel): ReadonlySet<string> | undefined {
  const { select, distinct } = data;
  return select && new Set([...(distinct ? [] : [model.primaryKey.name]), ...select.map((attribute) => attribute.name)]);
}

/**
 * Whether two values a user wrote into a description are the same: primitives by `Object.is`, Dates by their time,
 * bytes by their content, `sql` fragments and `column()` references by what they say, lists and plain objects by
 * their contents. Anything else (a class instance of a plugin's) only when it is the same object.
 *
 * Not the inclusion validation's `sameValue` (validation-rules.ts), on purpose: here "same" lets `or` merge two
 * Relations, so a class instance whose meaning it cannot read (a plugin's entry with private state) must never pass
 * for another with equal fields, which would silently read other rows; calling them different only refuses the `or`
 * with `IncompatibleRelation`. `sameValue` compares cast attribute values instead, where a value object is rebuilt at
 * each cast and must match by its entries.
 */
function sameWritten(ours: unknown, theirs: unknown): boolean {
  if (Object.is(ours, theirs)) return true;
  if (typeof ours !== "object" || typeof theirs !== "object" || ours === null || theirs === null) return false;
  // Bytes bind as their content, whichever view holds them: a copy says what the original says.
  if (isBlob(ours) || isBlob(theirs)) return sameStored(ours, theirs);
  if (ours.constructor !== theirs.constructor) return false;
  if (ours instanceof Date) return ours.getTime() === (theirs as Date).getTime();
  if (ours instanceof ColumnReference) return ours.attribute === (theirs as ColumnReference).attribute;
  if (ours instanceof SqlFragment) {
    const other = theirs as SqlFragment;
    return sameWritten(ours.strings, other.strings) && sameWritten(ours.values, other.values);
  }
  if (Array.isArray(ours)) return sameList(ours, theirs as unknown[], sameWritten);
  if (ours.constructor !== Object && ours.constructor !== undefined) return false;
  const keys = Object.keys(ours);
  const record = theirs as Record<string, unknown>;
  return keys.length === Object.keys(theirs).length && keys.every((key) => Object.hasOwn(record, key) && sameWritten((ours as Record<string, unknown>)[key], record[key]));
}

function sameList<T>(ours: readonly T[], theirs: readonly T[], same: (a: T, b: T) => boolean): boolean {
  return ours.length === theirs.length && ours.every((item, index) => same(item, theirs[index]!));
}

function sameSet(ours: ReadonlySet<string> | undefined, theirs: ReadonlySet<string> | undefined): boolean {
  if (ours === undefined || theirs === undefined) return ours === theirs;
  return ours.size === theirs.size && [...ours].every((item) => theirs.has(item));
}

function sameOrderTerm(ours: OrderTerm, theirs: OrderTerm): boolean {
  if (ours.kind === "sql" || theirs.kind === "sql") return ours.kind === "sql" && theirs.kind === "sql" && sameWritten(ours.fragment, theirs.fragment);
  return ours.attribute === theirs.attribute && ours.direction === theirs.direction && ours.nulls === theirs.nulls;
}

/**
 * Plugins' entries by string name; one set to undefined is one never set, as `relation.extension(name)` reads it.
 * `Object.keys` leaves out the entries named by a Symbol, which say nothing of the rows (see `RelationData.extensions`).
 */
function sameExtensions(ours: RelationData["extensions"], theirs: RelationData["extensions"]): boolean {
  const names = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
  return [...names].every((name) => sameWritten(ours[name], theirs[name]));
}

/**
 * How each entry of a description besides `conditions` and `none` is compared between two Relations of one Model: an
 * entry without a comparison holds a primitive, compared with `===`.
 */
const COMPARED: ReadonlyArray<[entry: keyof RelationData, same?: (ours: RelationData, theirs: RelationData, model: ResolvedModel) => boolean]> = [
  ["order", (ours, theirs) => sameList(ours.order, theirs.order, sameOrderTerm)],
  ["limit"],
  ["offset"],
  ["select", (ours, theirs, model) => sameSet(loadedAttributes(ours, model), loadedAttributes(theirs, model))],
  ["distinct"],
  ["includes", (ours, theirs) => sameSet(new Set(ours.includes), new Set(theirs.includes))],
  ["columns", (ours, theirs) => sameList(ours.columns, theirs.columns, (a, b) => a.name === b.name && sameWritten(a.fragment, b.fragment))],
  ["extensions", (ours, theirs) => sameExtensions(ours.extensions, theirs.extensions)],
];

/**
 * The entries of two descriptions of `model`'s Relations that differ besides their conditions (and `none`), as the
 * user wrote them: nothing is compiled, so no plugin's compile hook runs. Empty when only conditions differ, as `or`
 * requires. A plugin's `extensions` entry counts: it may change which rows a Relation reads.
 */
export function differencesBesidesConditions(ours: RelationData, theirs: RelationData, model: ResolvedModel): string[] {
  return COMPARED.filter(([entry, same]) => !(same ? same(ours, theirs, model) : ours[entry] === theirs[entry])).map(([entry]) => entry);
}
