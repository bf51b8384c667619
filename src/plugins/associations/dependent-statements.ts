import {
  type Database,
  databaseOfRelation,
  defineStatement,
  injectedName,
  joinSelect,
  joinWithAnd,
  ParamWriter,
  dependentsWritePlan,
  primaryKeyOf,
  quoteIdentifier,
  type Relation,
  reservedName,
  type SelectParts,
  selectParts,
  setWriteStatement,
  type Statement,
  type StatementReader,
  storedWithinD1Limit,
} from "../../kernel/index.js";
import { detachedKeys } from "./polymorphic-type.js";
import { type DependentNode, type DependentTree, type LoopEntry, OWNER, type WriteStep } from "./dependent-tree.js";
import type { ReachTerm } from "./reach-steps.js";
import { scopedTargetOf } from "./slot.js";

// The recursive query's table and columns: reserved names, which no table of the app's takes, so that a scope's
// unqualified columns still name the target's.
const REACHED = injectedName("reached");
const NODE = injectedName("node");
const KEY = injectedName("key");
const ANCHOR = injectedName("anchor");
const RELINKED = injectedName("relinked");
// A joined term's edges, and the columns of each node's rows in it.
const EDGE = injectedName("edge");
const ROW = injectedName("row");
const PARENT = injectedName("parent");

/** What every statement of one destroy's tree starts from: the tree, the owner and its key as stored. */
export interface TreeReach {
  readonly tree: DependentTree;
  readonly owner: { readonly constructor: Function };
  /** The owner's key as last loaded or saved: the row's, whatever is assigned since. */
  readonly ownerKey: unknown;
  readonly database: Database | undefined;
  /** The targets `relation:prepare` prepared for this destroy, by node: those whose Model has such a hook. */
  readonly prepared: ReadonlyMap<DependentNode, Relation> | undefined;
}

/** The rows of a node: its association's target in its scope, as prepared for this destroy when it was. */
function targetOf(reach: TreeReach, node: DependentNode): Relation {
  return reach.prepared?.get(node) ?? scopedTargetOf(node.association, reach.database);
}

function columnOf(target: Relation, attribute: string): string {
  return quoteIdentifier(target.model.byName.get(attribute)!.column);
}

const nodeOf = (tree: DependentTree, tag: number) => tree.all[tag - 1]!;

/** The target's SELECT parts, unordered: the order of a scope changes no set of rows. */
function scopeParts(target: Relation, params: ParamWriter): SelectParts {
  return selectParts(target.with({ select: undefined, order: [] }).description, target.model, params, "preload");
}

/**
 * The recursive query of a looping tree: `(node, key)` for the owner and for every row reached, each node's rows
 * joined to its parents' keys. `UNION` keeps each pair once, so the query ends on rows that point at each other.
 * Past D1's limit of terms in a compound SELECT, a chain of recursive queries, each starting from the rows of the
 * one before (see `reachStepsOf`); the last is `REACHED`. `anchoredAt` adds a third column: for a row of a loop
 * through several Models, the key of the last row of that node reached before it (see `anchorOf`).
 */
function recursiveClause(reach: TreeReach, params: ParamWriter, anchoredAt?: number): string {
  const anchored = anchoredAt !== undefined;
  const boundKey = bindOwnerKey(reach, params);
  const columns = anchored ? `${NODE}, ${KEY}, ${ANCHOR}` : `${NODE}, ${KEY}`;
  const { reachSteps } = reach.tree;
  let start = `SELECT ${OWNER}, ${boundKey}${anchored ? ", NULL" : ""}`;
  const queries = reachSteps.map((terms, index) => {
    const name = index === reachSteps.length - 1 ? REACHED : injectedName(`reached_${index + 1}`);
    const selects = [start, ...terms.map((nodes) => reachTerm(reach, nodes, name, params, anchoredAt))];
    start = `SELECT ${columns} FROM ${name}`;
    return `${name}(${columns}) AS (${selects.join(" UNION ")})`;
  });
  return `WITH RECURSIVE ${queries.join(", ")} `;
}

/** Binds the owner's key as stored, checked against D1's limit on a value's size. */
function bindOwnerKey(reach: TreeReach, params: ParamWriter): string {
  const ownerKey = primaryKeyOf(reach.owner.constructor);
  const model = { name: reach.owner.constructor.name, model: reach.owner.constructor };
  return params.bind(storedWithinD1Limit(model, ownerKey, reach.ownerKey), { kind: "value", attribute: ownerKey });
}

/** The recursive term of one node, or of several joined in one SELECT (see `joinedTerm`). */
function reachTerm(reach: TreeReach, nodes: ReachTerm, reached: string, params: ParamWriter, anchoredAt: number | undefined): string {
  return nodes.length === 1 ? nodeTerm(reach, nodes[0]!, reached, params, anchoredAt) : joinedTerm(reach, nodes, reached, params, anchoredAt);
}

/** The recursive term of a node: its rows that hang from rows of its parents that `reached` holds. */
function nodeTerm(reach: TreeReach, node: DependentNode, reached: string, params: ParamWriter, anchoredAt: number | undefined): string {
  const target = targetOf(reach, node);
  const table = target.model.quotedTable;
  const parts = scopeParts(target, params);
  const join = `${reached} ON ${NODE} IN (${node.parents.join(", ")}) AND ${table}.${columnOf(target, node.association.foreignKey)} = ${KEY}`;
  const where = parts.where.length > 0 ? ` WHERE ${joinWithAnd(parts.where)}` : "";
  const key = `${table}.${quoteIdentifier(target.model.primaryKey.column)}`;
  const anchor = anchoredAt === undefined ? "" : `, ${anchorOf(reach.tree, node, anchoredAt)}`;
  return `SELECT ${node.tag}, ${key}${anchor} FROM ${parts.from} JOIN ${join}${where}`;
}

/**
 * The recursive term of several nodes, for a loop with more nodes that rows hang from than a recursive query has
 * terms: each row reached is paired with the nodes that hang from its node (a `VALUES` list of the edges, which D1
 * does not count as a compound SELECT), and each pair with the rows of that node whose foreign key is the row's key,
 * each node's rows a `LEFT JOIN` of their own on the foreign key's index, so that one row of the table may be
 * reached as several nodes (as rows of two associations' scopes), each pair once.
 */
function joinedTerm(reach: TreeReach, nodes: ReachTerm, reached: string, params: ParamWriter, anchoredAt: number | undefined): string {
  const edges = nodes.flatMap((node) => node.parents.map((parent) => `(${parent}, ${node.tag})`));
  const joins = nodes.map((node) => {
    const target = targetOf(reach, node);
    const parts = Object.assign(scopeParts(target, params), { distinct: false });
    parts.columns = `${keyColumnOf(target)} AS ${ROW}, ${target.model.quotedTable}.${columnOf(target, node.association.foreignKey)} AS ${PARENT}`;
    const rows = injectedName(`node_${node.tag}`);
    return { rows, sql: `LEFT JOIN (${joinSelect(parts)}) AS ${rows} ON ${EDGE}.column2 = ${node.tag} AND ${rows}.${PARENT} = ${KEY}` };
  });
  const row = `COALESCE(${joins.map(({ rows }) => `${rows}.${ROW}`).join(", ")})`;
  const anchor = anchoredAt === undefined ? "" : `, ${joinedAnchor(reach.tree, nodes, anchoredAt)}`;
  const from = `${reached} JOIN (VALUES ${edges.join(", ")}) AS ${EDGE} ON ${EDGE}.column1 = ${NODE} ${joins.map(({ sql }) => sql).join(" ")}`;
  return `SELECT ${EDGE}.column2, ${row}${anchor} FROM ${from} WHERE ${row} IS NOT NULL`;
}

/** The anchor of the rows of a joined term: each node's (see `anchorOf`), by the node the row is reached as. */
function joinedAnchor(tree: DependentTree, nodes: ReachTerm, above: number): string {
  const anchors = nodes.map((node) => anchorOf(tree, node, above));
  if (anchors.every((anchor) => anchor === anchors[0])) return anchors[0]!;
  return `CASE ${EDGE}.column2 ${nodes.map((node, index) => `WHEN ${node.tag} THEN ${anchors[index]}`).join(" ")} END`;
}

/**
 * The anchor of a node's rows, for the entries of a loop through several Models declared by node `above` (where
 * the loop is entered, or a node of the loop for a loop within it): for a row reached from a row of `above`, that
 * row's key; for one reached from another row of the loop, that row's anchor; NULL for the rows of `above` and
 * outside the loop.
 */
function anchorOf(tree: DependentTree, node: DependentNode, above: number): string {
  const loop = tree.loops.find((each) => each.nodes.includes(node));
  if (!loop || node.tag === above || !loop.entries.some((entry) => entry.above === above)) return "NULL";
  return `CASE WHEN ${NODE} = ${above} THEN ${KEY} ELSE ${ANCHOR} END`;
}

/**
 * The SELECT parts of the rows of `node` that hang from `parents`: the owner's children by `foreignKey = ?`; in a
 * tree without loops, each level below by `foreignKey IN (SELECT key FROM <level above>)`; in a looping tree, by
 * the keys the recursive query reached. One statement reaches a whole level, whatever the number of parents.
 */
function rowParts(reach: TreeReach, node: DependentNode, parents: readonly number[], params: ParamWriter): SelectParts {
  const target = targetOf(reach, node);
  const { foreignKey } = node.association;
  if (parents.length === 1 && parents[0] === OWNER) return scopeParts(target.where({ [foreignKey]: reach.ownerKey }), params);
  const parentKeys = reach.tree.recursive ? reachedKeys(parents) : aboveKeys(reach, nodeOf(reach.tree, parents[0]!), params);
  const parts = scopeParts(target, params);
  parts.where.unshift(`${columnOf(target, foreignKey)} IN (${parentKeys})`);
  return parts;
}

const reachedKeys = (parents: readonly number[]) => `SELECT ${KEY} FROM ${REACHED} WHERE ${NODE} IN (${parents.join(", ")})`;

function aboveKeys(reach: TreeReach, parent: DependentNode, params: ParamWriter): string {
  const above = rowParts(reach, parent, parent.parents, params);
  above.columns = columnOf(targetOf(reach, parent), primaryKeyOf(parent.association.target).name);
  return joinSelect(above);
}

/** Compiles the rows of a node that hang from some of its parents. */
type RowsOf = (node: DependentNode, parents: readonly number[]) => SelectParts;

/**
 * A statement of the tree on `node`'s target: the recursive query first when the tree loops and any of `parents`
 * is not the owner; `build` writes the rest.
 */
function treeStatement<T>(
  reach: TreeReach,
  node: DependentNode,
  parents: readonly number[],
  result: "rows" | "meta",
  read: StatementReader<T>,
  build: (rowsOf: RowsOf, params: ParamWriter) => string,
): Statement<T> {
  const params = new ParamWriter();
  const recursive = reach.tree.recursive && parents.some((parent) => parent !== OWNER);
  const prefix = recursive ? recursiveClause(reach, params) : "";
  const sql = prefix + build((each, eachParents) => rowParts(reach, each, eachParents, params), params);
  const target = targetOf(reach, node);
  return defineStatement({ sql, params: params.params, sources: params.sources, model: target.model, result, read, database: databaseOfRelation(target) });
}

/** The records of `node`, read with one statement. */
export function readRecords(reach: TreeReach, node: DependentNode): Statement<any[]> {
  const target = targetOf(reach, node);
  const read: StatementReader<any[]> = (rows, _meta, database) => target.recordsOf(rows, database);
  return treeStatement(reach, node, node.parents, "rows", read, (rowsOf) => joinSelect(rowsOf(node, node.parents)));
}

/** Whether any row of `node` hangs from `parents` (one row read at most). */
export function anyReached(reach: TreeReach, node: DependentNode, parents: readonly number[]): Statement<boolean> {
  return treeStatement(reach, node, parents, "rows", (rows) => rows.length > 0, (rowsOf) => {
    return joinSelect(Object.assign(rowsOf(node, parents), { columns: `1 AS ${injectedName("one")}`, distinct: false, limit: 1, offset: undefined }));
  });
}

/** The distinct foreign keys of the rows of `node` below `parents`: which parents have such a child. */
export function parentsReached(reach: TreeReach, node: DependentNode, parents: readonly number[]): Statement<Set<string>> {
  const column = columnOf(targetOf(reach, node), node.association.foreignKey);
  const read = (rows: Record<string, unknown>[]) => new Set(rows.map((row) => String(row[reservedName("parent")])));
  return treeStatement(reach, node, parents, "rows", read, (rowsOf) => {
    return joinSelect(Object.assign(rowsOf(node, parents), { columns: `${column} AS ${injectedName("parent")}`, distinct: true }));
  });
}

/**
 * The set-based write of a step's nodes: a `DELETE` of every row reached (one statement for the nodes of a loop
 * within one Model, so that rows pointing at each other go together), but the rows a loop's entries still hang
 * from (`keepsAnchorsOf`), or for `nullify` the `UPDATE` that sets the foreign key to NULL. Planned like every
 * write, so a plugin's conditions (a tenant's) and statements (an audit entry) hold for the dependents' writes too.
 */
export async function writeReached(reach: TreeReach, { nodes, keepsAnchorsOf }: Extract<WriteStep, { kind: "write" }>): Promise<Statement<unknown>> {
  const first = nodes[0]!;
  const target = targetOf(reach, first);
  const parents = nodes.flatMap((node) => node.parents);
  const nullifies = first.dependent === "nullify";
  const values = nullifies ? new Map(Object.entries(detachedKeys(first.association))) : undefined;
  const plan = await dependentsWritePlan(target.model, nullifies ? "nullify" : "deleteDependents", values, `${reach.owner.constructor.name}#destroy`);
  const recursive = reach.tree.recursive && (keepsAnchorsOf !== undefined || parents.some((parent) => parent !== OWNER));
  return setWriteStatement(plan, {
    prefix: (params) => (recursive ? recursiveClause(reach, params) : ""),
    where: (params) => {
      const terms = nodes.map((node) => joinWithAnd(rowParts(reach, node, node.parents, params).where));
      const reached = terms.length === 1 ? terms[0]! : terms.map((term) => `(${term})`).join(" OR ");
      if (!keepsAnchorsOf) return reached;
      // One NOT IN per entry rather than one over their UNION: no compound SELECT to keep within D1's limit.
      const kept = keepsAnchorsOf.map((entry) => `${keyColumnOf(target)} NOT IN (${parentKeysOf(reach, entry)})`);
      return joinWithAnd([reached, ...kept]);
    },
  }, databaseOfRelation(target));
}

const keyColumnOf = (target: Relation): string => `${target.model.quotedTable}.${quoteIdentifier(target.model.primaryKey.column)}`;

/** A SELECT of the foreign keys of the rows the recursive query reached for `node`: the rows they hang from. */
function parentKeysOf(reach: TreeReach, node: DependentNode): string {
  const target = targetOf(reach, node);
  const foreignKey = columnOf(target, node.association.foreignKey);
  return `SELECT ${foreignKey} FROM ${target.model.quotedTable} WHERE ${keyColumnOf(target)} IN (${reachedKeys([node.tag])})`;
}

/**
 * The UPDATE that relinks the rows of a loop's entry that hang from rows of the loop: each is made to hang from the
 * last row of the entry's `above` reached before it (its anchor; one that is no row of the loop's other nodes where
 * there is one), which stays until the entry's rows are deleted. The rows reached stay the same, but each is then
 * reached in as many steps as the loop has Models, so that the loop's DELETEs, deepest first, each still find
 * their rows, children before parents. Only rows that the loop's DELETEs remove in the same atomic batch are
 * changed, so it is no write of its own: it is not planned, and no plugin sees it (a loop whose Models have write
 * hooks other than counter caches', whose counters on those rows go with them, is destroyed record by record).
 */
export function relinkStatement(reach: TreeReach, { node, above, onAboveTable }: LoopEntry): Statement<unknown> {
  const target = targetOf(reach, node);
  const params = new ParamWriter();
  const prefix = recursiveClause(reach, params, above);
  const key = keyColumnOf(target);
  const foreignKey = columnOf(target, node.association.foreignKey);
  const outsideLoop = (column: string) => (onAboveTable.length === 0 ? "" : ` AND ${column} NOT IN (${reachedKeys(onAboveTable)})`);
  const preferred = onAboveTable.length === 0 ? ANCHOR : `CASE WHEN ${ANCHOR} NOT IN (${reachedKeys(onAboveTable)}) THEN ${ANCHOR} END`;
  // One anchor per row, read in one pass over the rows reached (a subquery per row would read them all again).
  const anchors = `SELECT ${KEY}, COALESCE(MIN(${preferred}), MIN(${ANCHOR})) AS ${ANCHOR} FROM ${REACHED} WHERE ${NODE} = ${node.tag} GROUP BY ${KEY}`;
  const anchorRows = `${reachedKeys([above])}${outsideLoop(KEY)}`;
  const where = `${key} = ${RELINKED}.${KEY} AND ${target.model.quotedTable}.${foreignKey} NOT IN (${anchorRows})`;
  const sql = `${prefix}UPDATE ${target.model.quotedTable} SET ${foreignKey} = ${RELINKED}.${ANCHOR} FROM (${anchors}) AS ${RELINKED} WHERE ${where}`;
  const read: StatementReader<unknown> = (_rows, meta) => meta["changes"];
  const database = databaseOfRelation(target);
  return defineStatement({ sql, params: params.params, sources: params.sources, model: target.model, result: "meta", read, database });
}

/** The owner's Model's records on the owner's database. */
function ownerRelation(reach: TreeReach): Relation {
  const model = reach.owner.constructor as Function & { all(): Relation };
  return (reach.database ? (reach.database.model(model) as typeof model) : model).all();
}

/**
 * The UPDATE that detaches the owner's row from the rows of its own tree it hangs from (a box on a pallet of its
 * tree): each foreign key of `nodes` that points at a row reached is set to NULL, the others kept. The owner's
 * DELETE comes last in the batch, so until then a `REFERENCES` constraint would refuse the DELETE of a row it points
 * at; and, detached, it is no longer reached as a row of its own tree, which the DELETEs of the loop would remove
 * before its children. Only the owner's row is changed, and the batch deletes it: as a relink, no write of its own.
 */
export function detachStatement(reach: TreeReach, nodes: readonly DependentNode[]): Statement<unknown> {
  const owner = ownerRelation(reach);
  const { model } = owner;
  const params = new ParamWriter();
  const prefix = recursiveClause(reach, params);
  const parentsByColumn = new Map<string, number[]>();
  for (const node of nodes) {
    const column = quoteIdentifier(model.byName.get(node.association.foreignKey)!.column);
    parentsByColumn.set(column, [...(parentsByColumn.get(column) ?? []), ...node.parents]);
  }
  const hangs = [...parentsByColumn].map(([column, parents]) => [column, `${column} IN (${reachedKeys(parents)})`] as const);
  const set = hangs.map(([column, test]) => `${column} = CASE WHEN ${test} THEN NULL ELSE ${column} END`).join(", ");
  const where = `${quoteIdentifier(model.primaryKey.column)} = ${bindOwnerKey(reach, params)} AND (${hangs.map(([, test]) => test).join(" OR ")})`;
  const sql = `${prefix}UPDATE ${model.quotedTable} SET ${set} WHERE ${where}`;
  const read: StatementReader<unknown> = (_rows, meta) => meta["changes"];
  return defineStatement({ sql, params: params.params, sources: params.sources, model, result: "meta", read, database: databaseOfRelation(owner) });
}
