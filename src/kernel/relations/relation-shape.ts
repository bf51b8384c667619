import { argumentError } from "../records/arguments.js";
import type { Attribute } from "../records/attributes.js";
import { type ComputedColumn, isSqlCount, type OrderTerm, type RelationData } from "../sql/compiler.js";
import { isReservedName } from "../sql/reserved-names.js";
import type { Condition } from "../sql/conditions.js";
import { previewText } from "../records/display.js";
import { isPlainObject } from "../records/plain-object.js";
import type { ResolvedModel } from "../records/resolve.js";
import { SqlFragment } from "../sql/sql.js";
import { withChecksSlot } from "./with-checks.js";

const OPERATORS: ReadonlySet<unknown> = new Set([">", ">=", "<", "<=", "ignoringCase"]);

type Shape = (value: any, model: ResolvedModel) => boolean;

const isArrayOf = (value: unknown, each: (item: any) => boolean): boolean => Array.isArray(value) && value.every(each);
const isCount = (value: unknown): boolean => value === undefined || isSqlCount(value);
const isAttributeOf = (model: ResolvedModel) => (attribute: Attribute | undefined): boolean =>
  typeof attribute === "object" && attribute !== null && model.byName.get(attribute.name) === attribute;

function isCondition(condition: Condition, model: ResolvedModel): boolean {
  if (typeof condition !== "object" || condition === null) return false;
  const ofModel = isAttributeOf(model);
  switch (condition.kind) {
    case "equal":
    case "null":
      return ofModel(condition.attribute);
    case "in":
      return ofModel(condition.attribute) && Array.isArray(condition.values) && typeof condition.orNull === "boolean";
    case "compare":
      return ofModel(condition.attribute) && OPERATORS.has(condition.operator);
    case "never":
      return true;
    case "sql":
      return condition.fragment instanceof SqlFragment;
    case "not":
      return isConditions(condition.conditions, model);
    case "or":
      return isArrayOf(condition.branches, (branch) => isConditions(branch, model));
    default:
      return false;
  }
}

const isConditions = (value: unknown, model: ResolvedModel): boolean => isArrayOf(value, (condition) => isCondition(condition, model));

function isOrderTerm(term: OrderTerm, model: ResolvedModel): boolean {
  if (typeof term !== "object" || term === null) return false;
  if (term.kind === "sql") return term.fragment instanceof SqlFragment && (term.reversed === undefined || term.reversed instanceof SqlFragment);
  const nullsOk = term.nulls === undefined || term.nulls === "first" || term.nulls === "last";
  return term.kind === "attribute" && isAttributeOf(model)(term.attribute) && (term.direction === "asc" || term.direction === "desc") && nullsOk;
}

const isComputedColumn = (column: ComputedColumn): boolean =>
  isPlainObject(column) && typeof column.name === "string" && isReservedName(column.name) && column.fragment instanceof SqlFragment;

/** What each entry of a Relation's description must be: nothing that reaches the SQL goes unchecked. */
const SHAPES: Record<keyof RelationData, [expected: string, shape: Shape]> = {
  conditions: ["a list of conditions", isConditions],
  order: ["a list of order terms", (value, model) => isArrayOf(value, (term) => isOrderTerm(term, model))],
  limit: ["a whole number from 0", isCount],
  offset: ["a whole number from 0", isCount],
  select: ["the Model's attributes", (value, model) => value === undefined || isArrayOf(value, isAttributeOf(model))],
  distinct: ["a boolean", (value) => typeof value === "boolean"],
  none: ["a boolean", (value) => typeof value === "boolean"],
  includes: ["association names", (value) => isArrayOf(value, (name) => typeof name === "string")],
  columns: ["a list of { name, fragment } with reserved names and sql fragments", (value) => isArrayOf(value, isComputedColumn)],
  extensions: ["a plain object of plugin entries", (value) => isPlainObject(value)],
};

/**
 * Checks the changes a plugin gives `Relation.with()` as the Relation's own methods check their arguments: each of
 * RelationData's entries must have its shape (a limit a whole number, an operator one of the comparisons, an
 * attribute one of the Model's). A plugin keeps its own entries in `extensions`, which every Relation method carries
 * on; any other key is refused, as `merge` and `or` would drop it. Throws `TypeError` naming the entry.
 */
function checkedChanges(model: ResolvedModel, changes: Partial<RelationData>): Partial<RelationData> {
  if (!isPlainObject(changes)) throw argumentError(`${model.name}: Relation.with`, "a plain object of RelationData entries", changes);
  for (const [key, value] of Object.entries(changes)) {
    if (!Object.hasOwn(SHAPES, key)) {
      throw new TypeError(`${model.name}: Relation.with: ${previewText(key)} is not an entry of a Relation's description; keep a plugin's own entries in extensions (withExtension)`);
    }
    const [expected, shape] = SHAPES[key as keyof RelationData];
    if (!shape(value, model)) throw argumentError(`${model.name}: Relation.with: ${key}`, expected, value);
  }
  return changes;
}

/**
 * Installs the checks of `Relation.with()` (see `checkedChanges`). Plugin API: a plugin that calls `with()`, or whose
 * `relation:prepare` hook replaces a Relation's conditions, calls it in its `setup` (it is idempotent and cheap);
 * `with()` with none installed throws `TypeError`.
 */
export function installRelationChecks(): void {
  withChecksSlot.check ??= checkedChanges;
}
