import {
  abort,
  anyMatch,
  appliedDefaultScopes,
  type BatchItem,
  databaseOfRecord,
  defaultScopesOf,
  type DestroyContext,
  type DestroyRead,
  hasModelHook,
  humanize,
  prepareRelation,
  primaryKeyOf,
  type Relation,
  relationOf,
} from "../../kernel/index.js";
import { writeChildren } from "./child-writes.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import { anyReached, detachStatement, parentsReached, readRecords, relinkStatement, type TreeReach, writeReached } from "./dependent-statements.js";
import { type DependentNode, type DependentTree, dependentTreeOf, OWNER } from "./dependent-tree.js";
import { keyTexts, rowKeyOf, rowKeyText } from "./keys.js";
import { type DestroyPlace, type MutualLinks, mutualLinksOf } from "./mutual-links.js";
import { detachedKeys } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";
import { type AssociationSlot, scopedTargetOf } from "./slot.js";
import { dependentSlot, holdsOtherRows } from "./through-dependent.js";

type Owner = Record<string, any>;

/** What a destroy's read batch found for one association of one record: its children, or whether one exists. */
type Found = Owner[] | boolean;

/** What the owner's read batch found for each record of its dependent tree, by association name; used once. */
const prefetched = new WeakMap<object, Map<string, Found>>();

/** Records whose dependents' rows the set-based writes of an owner's destroy already reach. */
const covered = new WeakSet<object>();

/** The relinks and restores the read of an owner's tree found its record-by-record destroy needs; used once. */
const mutualLinks = new WeakMap<object, MutualLinks>();

/** The restriction checks read for an owner of a set-based tree, and what each found. */
const restrictionsFound = new WeakMap<object, { checks: RestrictionCheck[]; found: boolean[] }>();

/**
 * The rows a destroy is already destroying, shared by every record of it: a child among them is left out, so that
 * rows that point at each other (a reply to its own reply) end the recursion instead of destroying again.
 */
const destroying = new WeakMap<object, Set<string>>();

/** One association's strategy, given what was read for it beforehand (undefined: it reads for itself). */
interface StrategyContext {
  readonly owner: Owner;
  /** The rows the destroy is destroying. */
  readonly rows: Set<string>;
  readonly association: ResolvedAssociation;
  readonly batch: BatchItem[];
  readonly found: Found | undefined;
  /** The children that were loaded before the destroy: they end destroyed too. */
  readonly cached: readonly Owner[];
}

/** What one `dependent` value does when the owner is destroyed: adds writes to the owner's destroy batch, or aborts. */
type Strategy = (context: StrategyContext) => Promise<void> | void;

async function loadChildren(owner: Owner, association: ResolvedAssociation): Promise<Owner[]> {
  const rows = childRows(owner, association);
  return association.kind === "hasMany" ? await rows.toArray() : [await rows.take()].filter(Boolean);
}

/**
 * The owner's children as one Relation, by the owner's key as stored (the rows that point at its row), in the
 * association's scope (a through association's dependent join rows: those to the targets it reaches).
 */
export function childRows(owner: Owner, association: ResolvedAssociation) {
  return scopedTargetOf(association, databaseOfRecord(owner)).where({ [association.foreignKey]: rowKeyOf(owner, association.primaryKey) });
}

/**
 * The children an association holds in memory, loaded or built (and not already destroyed); none for the join rows
 * of a scoped or `sourceType` through association, whose slot holds join rows it does not handle too.
 */
function cachedChildren(association: ResolvedAssociation, slot: AssociationSlot): Owner[] {
  if (holdsOtherRows(association)) return [];
  const loaded: Owner[] = slot.loaded ? slot.held() : [];
  const built = slot.pending.filter((child) => !loaded.includes(child));
  return [...loaded, ...built].filter((child) => !child.isDestroyed());
}

/** Whether `Model.unscoped(fn)` lifts the Model's default scopes for the queries made now. */
function scopeLifted(model: Function): boolean {
  const declared = defaultScopesOf(model).length;
  return declared > 0 && appliedDefaultScopes(relationOf(model)).length < declared;
}

/**
 * The children a loaded association holds, which a destroy takes in place of reading them, as Rails' `load_target`
 * reads nothing for a loaded association: those saved and not destroyed, as they were loaded (a row added or moved
 * since is not seen). Undefined where they may not be every child the read would find: not loaded; the join rows of
 * a scoped or `sourceType` through association (see `holdsOtherRows`); a `hasOne` holding a child built in place of
 * the saved one; a target whose default scopes `Model.unscoped(fn)` lifts now, which the load read through.
 */
function loadedChildren(association: ResolvedAssociation, slot: AssociationSlot): Owner[] | undefined {
  if (!slot.loaded || holdsOtherRows(association) || scopeLifted(association.target)) return undefined;
  const held: Owner[] = slot.held();
  if (association.kind === "hasOne" && held.some((child) => child.isNewRecord())) return undefined;
  return held.filter((child) => !child.isNewRecord() && !child.isDestroyed());
}

/** A record's key as stored (what its row is found by), and as text for keying maps of records by row. */
const keyValueOf = (record: Owner): unknown => rowKeyOf(record, primaryKeyOf(record.constructor).name);
const keyOf = (record: Owner): string => String(rowKeyText(record));

/** A row's identity across the Models of a tree: its table and its key as stored. */
const rowOf = (record: Owner): string => `${relationOf(record.constructor).model.quotedTable} ${keyOf(record)}`;

/** The rows the record's destroy is destroying, its own among them; taken once, by its dependents' handling. */
function takeDestroying(record: Owner): Set<string> {
  const rows = destroying.get(record) ?? new Set([rowOf(record)]);
  destroying.delete(record);
  return rows;
}

/** The children whose rows the destroy is not destroying yet, now counted among them. */
function notYetDestroying(children: readonly Owner[], rows: Set<string>): Owner[] {
  return children.filter((child) => {
    const row = rowOf(child);
    if (child.isNewRecord() || !rows.has(row)) {
      rows.add(row);
      destroying.set(child, rows);
      return true;
    }
    return false;
  });
}

/**
 * The children to destroy: those read, each replaced by the loaded record of the same row (which takes what was read
 * for its own dependents), and the loaded ones not read (built, or moved away since they were loaded).
 */
function withCached(read: readonly Owner[], cached: readonly Owner[]): Owner[] {
  if (cached.length === 0) return [...read];
  const byKey = new Map(cached.filter((child) => !child.isNewRecord()).map((child) => [keyOf(child), child]));
  const children = read.map((child) => {
    const loaded = byKey.get(keyOf(child));
    if (!loaded) return child;
    const found = prefetched.get(child);
    if (found) prefetched.set(loaded, found);
    return loaded;
  });
  return [...children, ...cached.filter((child) => !children.includes(child))];
}

/** Rails' messages: "dependent posts exist" for a `hasMany`, "a dependent profile exists" for a `hasOne`. */
function restrictionMessage({ kind, name }: ResolvedAssociation): string {
  const record = humanize(name).toLowerCase();
  return kind === "hasOne" ? `Cannot delete record because a dependent ${record} exists` : `Cannot delete record because dependent ${record} exist`;
}

function refuse(owner: Owner, association: ResolvedAssociation): never {
  const reason = restrictionMessage(association);
  owner.errors.add("base", "restrict_dependent_destroy", reason);
  throw abort(reason);
}

const deleteRows: Strategy = async ({ owner, association, batch }) => {
  batch.push(await writeChildren(childRows(owner, association), "deleteDependents", undefined, `${owner.constructor.name}#destroy`));
};

const STRATEGIES: Record<Dependent, Strategy> = {
  async destroy({ owner, association, rows, batch, found, cached }) {
    const read = (found as Owner[] | undefined) ?? (await loadChildren(owner, association));
    for (const child of notYetDestroying(withCached(read, cached), rows)) batch.push(child.toDestroy());
  },
  deleteAll: deleteRows,
  delete: deleteRows,
  async nullify({ owner, association, batch }) {
    batch.push(await writeChildren(childRows(owner, association), "nullify", new Map(Object.entries(detachedKeys(association))), `${owner.constructor.name}#destroy`));
  },
  // One query that reads a row at most, as Rails' exists?: the children are not loaded to be counted.
  async restrictWithError({ owner, association, found }) {
    if ((found as boolean | undefined) ?? (await anyMatch(childRows(owner, association)))) refuse(owner, association);
  },
};

/** Each dependent association of a record with its slot (a through one's join rows'), in declaration order. */
function dependentSlots(record: Owner): Array<[ResolvedAssociation, AssociationSlot]> {
  const dependents = slotsOf(record).filter(([association]) => association.kind !== "belongsTo" && association.options.dependent);
  return dependents.map((entry) => dependentSlot(record, entry));
}

/** Whether destroying the record has dependents to handle. */
function hasDependents(record: Owner): boolean {
  return dependentSlots(record).length > 0;
}

/** Applies each association's strategy for one record, with what was read for it; the children are forgotten after. */
async function applyStrategies(owner: Owner, batch: BatchItem[], found: ReadonlyMap<string, Found>): Promise<void> {
  const rows = takeDestroying(owner);
  for (const [association, slot] of dependentSlots(owner)) {
    const destroys = association.options.dependent === "destroy";
    const cached = destroys ? cachedChildren(association, slot) : [];
    const given = found.get(association.name) ?? (destroys ? loadedChildren(association, slot) : undefined);
    slot.reset();
    try {
      await STRATEGIES[association.options.dependent!]({ owner, association, rows, batch, found: given, cached });
    } finally {
      slot.reset();
    }
  }
}

/** Destroys the loaded `destroy` children, whose rows set-based writes reach already: they end destroyed too. */
function destroyCached(owner: Owner, batch: BatchItem[]): void {
  const rows = takeDestroying(owner);
  for (const [association, slot] of dependentSlots(owner)) {
    if (association.options.dependent !== "destroy") continue;
    for (const child of notYetDestroying(cachedChildren(association, slot), rows)) {
      covered.add(child);
      batch.push(child.toDestroy());
    }
    slot.reset();
  }
}

/** The targets of an owner's dependent tree that `prepareDependentTargets` prepared for its destroy. */
const preparedTargets = new WeakMap<object, ReadonlyMap<DependentNode, Relation>>();

/** What a destroy's statements start from: the record's tree, its key as stored, and its prepared targets. */
function reachOf(owner: Owner, tree: DependentTree): TreeReach {
  return { tree, owner, ownerKey: keyValueOf(owner), database: databaseOfRecord(owner), prepared: preparedTargets.get(owner) };
}

/**
 * The nodes of a tree whose rows may need preparing, found once per tree: those whose target Model has a
 * `relation:prepare` hook, and those with a scope, which may compare another Model's rows in a subquery (a through
 * association's join rows to the targets its scope admits) that that Model's hook prepares.
 */
const nodesToPrepare = new WeakMap<DependentTree, readonly DependentNode[]>();

const mayNeedPreparing = (node: DependentNode) => hasModelHook(node.association.target, "relation:prepare") || node.association.options.scope !== undefined;

function nodesToPrepareOf(tree: DependentTree): readonly DependentNode[] {
  let nodes = nodesToPrepare.get(tree);
  if (!nodes) nodesToPrepare.set(tree, (nodes = tree.all.filter(mayNeedPreparing)));
  return nodes;
}

/**
 * The plugin's `record:beforeDestroy` hook: the rows of each node of the owner's dependent tree that may need it
 * (see `nodesToPrepareOf`) are prepared (purpose `preload`, as the tree's reads and writes compile them), so that the
 * destroy's reads and set-based writes compile their conditions as any query of that Model does (an encryption's).
 * Nothing is made when no node may need it; the statements are built later, synchronously.
 */
export function prepareDependentTargets({ record }: DestroyContext): Promise<void> | void {
  if (record.isNewRecord() || !hasDependents(record)) return;
  const tree = dependentTreeOf(record.constructor);
  const nodes = tree.plannable ? nodesToPrepareOf(tree) : [];
  if (nodes.length === 0) return;
  const database = databaseOfRecord(record);
  const prepared = new Map<DependentNode, Relation>();
  const waiting = nodes.map(async (node) => void prepared.set(node, await prepareRelation(scopedTargetOf(node.association, database), "preload")));
  return Promise.all(waiting).then(() => void preparedTargets.set(record, prepared));
}

/** One `restrictWithError` check: whether a row of `node` hangs from `parents` (the owner's own, or those below it). */
interface RestrictionCheck {
  readonly node: DependentNode;
  readonly parents: readonly number[];
}

/** A `restrictWithError` node's checks: the owner's own children, and those of the rows below it. */
function checksOf(node: DependentNode): RestrictionCheck[] {
  const below = node.parents.filter((parent) => parent !== OWNER);
  const own = node.parents.includes(OWNER) ? [{ node, parents: [OWNER] }] : [];
  return below.length > 0 ? [...own, { node, parents: below }] : own;
}

const isOwnCheck = (check: RestrictionCheck) => check.parents[0] === OWNER;

/** The tree's `restrictWithError` checks, the owner's own first (its strategies run before its children are checked). */
function restrictionChecks(tree: DependentTree): RestrictionCheck[] {
  const checks = tree.all.filter((node) => node.dependent === "restrictWithError").flatMap(checksOf);
  return checks.sort((a, b) => Number(isOwnCheck(b)) - Number(isOwnCheck(a)));
}

/** The reads that check every restriction of the tree: one row read at most per check. */
function restrictionReads(owner: Owner, tree: DependentTree): DestroyRead[] {
  const checks = restrictionChecks(tree);
  const found: boolean[] = [];
  restrictionsFound.set(owner, { checks, found });
  const reach = reachOf(owner, tree);
  return checks.map(({ node, parents }, index) => ({
    statement: anyReached(reach, node, parents),
    receive: (exists: boolean) => void (found[index] = exists),
  }));
}

/** Refuses when the restriction reads found a `restrictWithError` child anywhere in the tree. */
function refuseRestricted(owner: Owner): void {
  const checked = restrictionsFound.get(owner);
  restrictionsFound.delete(owner);
  const at = checked ? checked.found.indexOf(true) : -1;
  if (at < 0) return;
  const { node } = checked!.checks[at]!;
  if (isOwnCheck(checked!.checks[at]!)) refuse(owner, node.association);
  throw abort(restrictionMessage(node.association));
}

/**
 * The set-based writes of a tree without callbacks: each step's DELETE (or nullify's UPDATE) reaches its rows from
 * the owner's key, so the steps below a `destroy` go first, while the rows they hang from still exist.
 */
async function writeSetBased(owner: Owner, tree: DependentTree, batch: BatchItem[]): Promise<void> {
  const reach = reachOf(owner, tree);
  for (const step of tree.writeSteps) {
    if (step.kind === "detach") {
      if (hangsFromAny(owner, step.nodes)) batch.push(detachStatement(reach, step.nodes));
    } else batch.push(step.kind === "relink" ? relinkStatement(reach, step.entry) : await writeReached(reach, step));
  }
}

/**
 * Whether the owner's row, as stored, has a key of `nodes` set: only then can it hang from a row of its own tree
 * (a root of a thread has none, and needs no detach).
 */
function hangsFromAny(owner: Owner, nodes: readonly DependentNode[]): boolean {
  return nodes.some((node) => rowKeyOf(owner, node.association.foreignKey) != null);
}

/** What the read batch found: each `destroy` node's records, and each restriction check's answer. */
interface TreeFound {
  readonly records: Map<number, Owner[]>;
  /** Whether the owner has a child of the node. */
  readonly own: Map<number, boolean>;
  /** The keys of the records below the owner that have a child of the node. */
  readonly below: Map<number, Set<string>>;
}

/**
 * The records of each `destroy` node of the tree held loaded (see `loadedChildren`), walking from the owner: a node
 * is known when every record reached of the nodes it hangs from holds it loaded. A node below one not known hangs
 * from rows not in memory too, and is not known.
 */
function loadedNodes(owner: Owner, tree: DependentTree): Map<number, Owner[]> {
  const known = new Map<number, Owner[]>();
  const unknown = new Set<number>();
  const walked = new Set<string>();
  const walk: Array<[Owner, readonly DependentNode[]]> = [[owner, tree.nodes]];
  for (let step = walk.pop(); step; step = walk.pop()) {
    const [record, nodes] = step;
    const slots = dependentSlots(record);
    for (const node of nodes) {
      if (node.dependent !== "destroy" || unknown.has(node.tag)) continue;
      // A record of a subclass that does not declare the association has none of its children.
      const held = slots.find(([association]) => association.name === node.association.name);
      const children = held ? loadedChildren(...held) : [];
      if (!children) {
        unknown.add(node.tag);
        continue;
      }
      const records = known.get(node.tag) ?? [];
      known.set(node.tag, records);
      for (const child of children) {
        records.push(child);
        // Each row once per node: rows that point at each other end the walk.
        const visit = `${node.tag} ${rowOf(child)}`;
        if (!walked.has(visit)) walk.push([child, node.children]);
        walked.add(visit);
      }
    }
  }
  for (const tag of unknown) for (const child of tree.all[tag - 1]!.children) unknown.add(child.tag);
  // The others hang from records all walked: a node none of them holds (below a level loaded empty) has no rows.
  const destroys = tree.all.filter((node) => node.dependent === "destroy" && !unknown.has(node.tag));
  return new Map(destroys.map((node) => [node.tag, known.get(node.tag) ?? []]));
}

/**
 * The reads of every node of the tree whose records are not held loaded (see `loadedNodes`), for one batch (by
 * subqueries, or one recursive query where the tree loops); once the last is received (at once when there is none),
 * each record is handed what was found for its own dependents, so that their destroys read nothing more.
 */
function treeReads(owner: Owner, tree: DependentTree): DestroyRead[] {
  const reach = reachOf(owner, tree);
  const found: TreeFound = { records: loadedNodes(owner, tree), own: new Map(), below: new Map() };
  const reads: DestroyRead[] = [];
  for (const node of tree.all) {
    if (node.dependent === "destroy" && !found.records.has(node.tag)) {
      reads.push({ statement: readRecords(reach, node), receive: (records: Owner[]) => void found.records.set(node.tag, records) });
    }
    if (node.dependent !== "restrictWithError") continue;
    for (const { parents } of checksOf(node)) {
      if (parents[0] === OWNER) reads.push({ statement: anyReached(reach, node, parents), receive: (exists: boolean) => void found.own.set(node.tag, exists) });
      else reads.push({ statement: parentsReached(reach, node, parents), receive: (keys: Set<string>) => void found.below.set(node.tag, keys) });
    }
  }
  const last = reads.at(-1);
  if (!last) handOut(owner, tree, found);
  else reads[reads.length - 1] = { statement: last.statement, receive: (result) => (last.receive(result), handOut(owner, tree, found)) };
  return reads;
}

/** Each `destroy` node's records by the key of the parent they hang from. */
function byParent(records: ReadonlyMap<number, Owner[]>, tree: DependentTree): Map<number, Map<string, Owner[]>> {
  const grouped = new Map<number, Map<string, Owner[]>>();
  for (const [tag, children] of records) {
    const { foreignKey } = tree.all[tag - 1]!.association;
    const byKey = new Map<string, Owner[]>();
    for (const child of children) {
      const key = String(keyTexts(child.constructor, foreignKey)(child.readAttribute(foreignKey)));
      byKey.set(key, [...(byKey.get(key) ?? []), child]);
    }
    grouped.set(tag, byKey);
  }
  return grouped;
}

/** A record the walk of `handOut` is in: the children it hands on, in order, and how many it has gone through. */
interface WalkStep {
  readonly record: Owner;
  readonly parent: Owner | undefined;
  readonly next: ReadonlyArray<readonly [child: Owner, node: DependentNode, handed: Owner[]]>;
  at: number;
}

/**
 * Hands each record what was found for its dependents, walking the tree as the destroy will (each record's
 * children in declaration order, depth first): a row is handed to the first parent that reaches it, so that it is
 * destroyed once and before every row it points at, and a row already being destroyed (an ancestor, where rows point
 * at each other) is left out, so the walk ends. The walk keeps its own stack, not the call stack: a chain of replies
 * thousands deep is walked as a shallow one.
 */
function handOut(owner: Owner, tree: DependentTree, found: TreeFound): void {
  const children = byParent(found.records, tree);
  const rows = new Set([rowOf(owner)]);
  // Each record's DELETE follows those of the records it hands its children to: the order of the walk's exits.
  const places = new Map<Owner, DestroyPlace>();
  const enter = (record: Owner, nodes: readonly DependentNode[], isOwner: boolean, parent: Owner | undefined): WalkStep => {
    const map = nodes.length > 0 ? foundFor(record) : undefined;
    const key = keyOf(record);
    const next: Array<[Owner, DependentNode, Owner[]]> = [];
    for (const node of nodes) {
      const { name } = node.association;
      if (node.dependent === "restrictWithError") map!.set(name, isOwner ? (found.own.get(node.tag) ?? false) : (found.below.get(node.tag)?.has(key) ?? false));
      if (node.dependent !== "destroy") continue;
      const handed: Owner[] = [];
      map!.set(name, handed);
      for (const child of children.get(node.tag)?.get(key) ?? []) next.push([child, node, handed]);
    }
    return { record, parent, next, at: 0 };
  };
  const walk = [enter(owner, tree.nodes, true, undefined)];
  while (walk.length > 0) {
    const step = walk.at(-1)!;
    if (step.at === step.next.length) {
      walk.pop();
      places.set(step.record, { deletedAt: places.size, parent: step.parent });
      continue;
    }
    const [child, node, handed] = step.next[step.at++]!;
    if (rows.has(rowOf(child))) continue;
    rows.add(rowOf(child));
    handed.push(child);
    walk.push(enter(child, node.children, false, step.record));
  }
  const links = mutualLinksOf(tree, owner, places, databaseOfRecord(owner));
  if (links) mutualLinks.set(owner, links);
}

function foundFor(record: Owner): Map<string, Found> {
  let found = prefetched.get(record);
  if (!found) prefetched.set(record, (found = new Map()));
  return found;
}

function takeFound(record: Owner): Map<string, Found> | undefined {
  const found = prefetched.get(record);
  prefetched.delete(record);
  return found;
}

/**
 * Applies the strategies of an owner whose tree was read, between the relinks of the keys that point at rows its
 * batch deletes before their own and the restores of those keys where both rows remain (see `mutual-links.ts`).
 */
async function applyWithLinks(owner: Owner, batch: BatchItem[], found: ReadonlyMap<string, Found>): Promise<void> {
  const links = mutualLinks.get(owner);
  mutualLinks.delete(owner);
  if (links) batch.push(...links.relinks);
  await applyStrategies(owner, batch, found);
  if (links) batch.push(...links.restores);
}

/**
 * Applies each association's `dependent` strategy, after the owner's before-destroy callbacks: the writes join the
 * owner's destroy batch, before its DELETE. The reads were made by `planDependentReads`, in the destroy's one read
 * batch: none when no record of the tree has destroy hooks and nothing restricts (set-based writes), else every
 * level read at once, by subqueries.
 */
async function handleDependents(record: Owner, batch: BatchItem[]): Promise<void> {
  const found = takeFound(record);
  if (found) return await applyWithLinks(record, batch, found);
  if (covered.has(record) || record.isNewRecord()) {
    covered.delete(record);
    return destroyCached(record, batch);
  }
  const tree = dependentTreeOf(record.constructor);
  if (!tree.plannable) return await applyStrategies(record, batch, new Map());
  if (tree.setBased) {
    refuseRestricted(record);
    await writeSetBased(record, tree, batch);
    return destroyCached(record, batch);
  }
  return await applyStrategies(record, batch, new Map());
}

/**
 * The plugin's `record:planDestroy` hook: the reads a destroy's dependents need (every level of the tree, or the
 * restriction checks of a set-based tree), sent by the kernel in the destroy's one read batch with other plugins'.
 */
export function planDependentReads({ record, reads }: { readonly record: Owner; readonly reads: DestroyRead[] }): void {
  if (!hasDependents(record) || prefetched.has(record) || covered.has(record) || record.isNewRecord()) return;
  const tree = dependentTreeOf(record.constructor);
  if (!tree.plannable) return;
  if (tree.setBased) {
    if (tree.restricts) reads.push(...restrictionReads(record, tree));
    return;
  }
  reads.push(...treeReads(record, tree));
}

/** The plugin's `record:beforeDelete` hook: handles the record's dependents. */
export function dependentsBeforeDelete({ record, batch }: DestroyContext): Promise<void> | void {
  if (hasDependents(record)) return handleDependents(record, batch);
}
