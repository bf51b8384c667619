import {
  type Database,
  databaseOfModel,
  injectedName,
  joinSelect,
  joinWithAnd,
  ParamWriter,
  quoteIdentifier,
  type Relation,
  relationOf,
  reservedName,
  type SelectParts,
  selectParts,
  Statement,
  type StatementReader,
} from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import { associationsOf } from "./registry.js";
import { scopedTargetOf } from "./slot.js";

/** One `dependent` association of a destroy's tree: its strategy and, for `destroy`, its target's own dependents. */
export interface DependentNode {
  readonly association: ResolvedAssociation;
  readonly dependent: Dependent;
  /** The target's dependent associations (for `destroy`); empty for the other strategies. */
  readonly children: readonly DependentNode[];
  /**
   * Where the target Model is already on the path from the owner (a tree of categories): its records plan their own
   * dependents when they are destroyed, since the depth of such a tree is only known from its rows.
   */
  readonly repeats: boolean;
}

/** A Model's dependent tree and what a destroy of one of its records needs, worked out once per Model. */
export interface DependentTree {
  readonly nodes: readonly DependentNode[];
  /** Whether set-based reads and writes keep the tree's meaning: no scope with a limit or offset (each owner's own). */
  readonly plannable: boolean;
  /**
   * Whether the tree can be destroyed with set-based writes alone: plannable, no repeated Model, and no record
   * reached by `destroy` has destroy hooks other than this plugin's (callbacks run per record, so they need records;
   * so does a plugin that plans a record's own write).
   */
  readonly setBased: boolean;
  /** Whether any node is `restrictWithError`: the refusal needs a read before anything is written. */
  readonly restricts: boolean;
}

/** Hooks that need each record destroyed through its own write: callbacks, and a plan of the write (a soft delete's UPDATE). */
const DESTROY_HOOKS = ["record:beforeDestroy", "record:beforeDelete", "record:afterDestroy", "record:planWrite", "record:writeOutcome"] as const;

/** The dependent associations of a Model that are not `belongsTo`, in declaration order. */
function dependentAssociations(model: Function): ResolvedAssociation[] {
  return [...associationsOf(model).values()].filter((association) => association.kind !== "belongsTo" && association.options.dependent);
}

function nodesOf(model: Function, path: readonly Function[]): DependentNode[] {
  return dependentAssociations(model).map((association) => {
    const dependent = association.options.dependent!;
    const repeats = path.includes(association.target);
    const descends = dependent === "destroy" && !repeats;
    const children = descends ? nodesOf(association.target, [...path, association.target]) : [];
    return { association, dependent, children, repeats };
  });
}

function everyNode(nodes: readonly DependentNode[], test: (node: DependentNode) => boolean): boolean {
  return nodes.every((node) => test(node) && everyNode(node.children, test));
}

/** Whether a Model's records have destroy hooks other than `own` (this plugin's dependents handling). */
function hasOtherDestroyHooks(model: Function, own: Function): boolean {
  const { hooks } = relationOf(model).model;
  return DESTROY_HOOKS.some((name) => hooks.functionsOf(name).some((fn) => fn !== own));
}

function scopeIsPerOwner(association: ResolvedAssociation): boolean {
  const { data } = scopedTargetOf(association, undefined);
  return data.limit !== undefined || data.offset !== undefined || data.distinct;
}

const trees = new WeakMap<Function, DependentTree>();

/** The dependent tree of a Model; `own` is the hook that handles dependents, which does not count as a callback. */
export function dependentTreeOf(model: Function, own: Function): DependentTree {
  let tree = trees.get(model);
  if (!tree) {
    const nodes = nodesOf(model, [model]);
    const plannable = everyNode(nodes, (node) => !scopeIsPerOwner(node.association));
    const setBased =
      plannable && everyNode(nodes, (node) => node.dependent !== "destroy" || (!node.repeats && !hasOtherDestroyHooks(node.association.target, own)));
    tree = { nodes, plannable, setBased, restricts: !everyNode(nodes, (node) => node.dependent !== "restrictWithError") };
    trees.set(model, tree);
  }
  return tree;
}

/** The target Relation of the last node of a path from the owner, on the owner's database. */
function targetOf(path: readonly DependentNode[], database: Database | undefined): Relation {
  return scopedTargetOf(path.at(-1)!.association, database);
}

/**
 * The SELECT parts of the rows the last node of `path` reaches from the owner whose key is `ownerKey`: the first
 * level by `foreignKey = ?`, each level below by `foreignKey IN (SELECT key FROM <level above>)`, so that one
 * statement reaches a whole level whatever the number of parents.
 */
function levelParts(path: readonly DependentNode[], ownerKey: unknown, database: Database | undefined, params: ParamWriter): SelectParts {
  const { association } = path.at(-1)!;
  const target = targetOf(path, database);
  // Unordered: the order of a scope changes no level's rows.
  if (path.length === 1) return selectParts({ ...target.where({ [association.foreignKey]: ownerKey }).data, select: undefined, order: [] }, target.model, params, "preload");
  const above = levelParts(path.slice(0, -1), ownerKey, database, params);
  above.columns = quoteIdentifier(parentKeyColumn(path));
  const parentKeys = joinSelect(above);
  const parts = selectParts({ ...target.data, select: undefined, order: [] }, target.model, params, "preload");
  parts.where.unshift(`${quoteIdentifier(target.model.byName.get(association.foreignKey)!.column)} IN (${parentKeys})`);
  return parts;
}

function parentKeyColumn(path: readonly DependentNode[]): string {
  const parent = targetOf(path.slice(0, -1), undefined).model;
  return parent.byName.get(path.at(-1)!.association.primaryKey)!.column;
}

function statementOf<T>(target: Relation, sql: string, params: ParamWriter, result: "rows" | "meta", read: StatementReader<T>): Statement<T> {
  return new Statement({ sql, params: params.params, sources: params.sources }, target.model, result, read, databaseOfModel(target.modelClass));
}

/** The records the last node of `path` reaches, read with one statement. */
export function readRecords(path: readonly DependentNode[], ownerKey: unknown, database: Database | undefined): Statement<any[]> {
  const params = new ParamWriter();
  const target = targetOf(path, database);
  return statementOf(target, joinSelect(levelParts(path, ownerKey, database, params)), params, "rows", target.toSelect().read);
}

/** Whether any row is reached (one row read at most). */
export function anyReached(path: readonly DependentNode[], ownerKey: unknown, database: Database | undefined): Statement<boolean> {
  const params = new ParamWriter();
  const parts = levelParts(path, ownerKey, database, params);
  Object.assign(parts, { columns: `1 AS ${injectedName("one")}`, distinct: false, limit: 1, offset: undefined });
  return statementOf(targetOf(path, database), joinSelect(parts), params, "rows", (rows) => rows.length > 0);
}

/** The distinct foreign keys of the rows reached: which parents of the level above have such a child. */
export function parentsReached(path: readonly DependentNode[], ownerKey: unknown, database: Database | undefined): Statement<Set<string>> {
  const params = new ParamWriter();
  const target = targetOf(path, database);
  const parts = levelParts(path, ownerKey, database, params);
  const column = target.model.byName.get(path.at(-1)!.association.foreignKey)!.column;
  Object.assign(parts, { columns: `${quoteIdentifier(column)} AS ${injectedName("parent")}`, distinct: true });
  return statementOf(target, joinSelect(parts), params, "rows", (rows) => new Set(rows.map((row) => String(row[reservedName("parent")]))));
}

/** `DELETE` of every row reached, or for `nullify` the `UPDATE` that sets their foreign key to NULL. */
export function writeReached(path: readonly DependentNode[], ownerKey: unknown, database: Database | undefined): Statement<unknown> {
  const params = new ParamWriter();
  const target = targetOf(path, database);
  const { association, dependent } = path.at(-1)!;
  const table = target.model.quotedTable;
  const foreignKey = target.model.byName.get(association.foreignKey)!;
  const set = dependent === "nullify" ? `${quoteIdentifier(foreignKey.column)} = ${params.bind(null, { kind: "value", attribute: foreignKey })}` : undefined;
  const where = joinWithAnd(levelParts(path, ownerKey, database, params).where);
  const sql = set ? `UPDATE ${table} SET ${set} WHERE ${where}` : `DELETE FROM ${table} WHERE ${where}`;
  return statementOf(target, sql, params, "meta", () => undefined);
}
