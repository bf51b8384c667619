import {
  abort,
  anyMatch,
  type BatchItem,
  databaseOfRecord,
  deleteAllStatement,
  type DestroyContext,
  type DestroyRead,
  humanize,
  primaryKeyOf,
  type Statement,
  updateAllStatement,
} from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import { anyReached, type DependentNode, type DependentTree, dependentTreeOf, parentsReached, readRecords, writeReached } from "./dependent-tree.js";
import { slotsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

type Owner = Record<string, any>;

/** What a destroy's read batch found for one association of one record: its children, or whether one exists. */
type Found = Owner[] | boolean;

/** What the owner's read batch found for each record of its dependent tree, by association name; used once. */
const prefetched = new WeakMap<object, Map<string, Found>>();

/** Records whose dependents' rows the set-based writes of an owner's destroy already reach. */
const covered = new WeakSet<object>();

/** The restriction checks read for an owner of a set-based tree, and what each found. */
const restrictionsFound = new WeakMap<object, { paths: DependentNode[][]; found: boolean[] }>();

/** One association's strategy, given what was read for it beforehand (undefined: it reads for itself). */
interface StrategyContext {
  readonly owner: Owner;
  readonly association: ResolvedAssociation;
  readonly slot: AssociationSlot;
  readonly batch: BatchItem[];
  readonly found: Found | undefined;
  /** The children that were loaded before the destroy: they end destroyed too. */
  readonly cached: readonly Owner[];
}

/** What one `dependent` value does when the owner is destroyed: adds writes to the owner's destroy batch, or aborts. */
type Strategy = (context: StrategyContext) => Promise<void> | void;

async function loadChildren(owner: Owner, association: ResolvedAssociation): Promise<Owner[]> {
  const field = owner[association.name];
  return association.kind === "hasMany" ? field().toArray() : [await field.load()].filter(Boolean);
}

/** The owner's children as one Relation, for the strategies that write them with one statement and no callbacks. */
export function childRows(owner: Owner, association: ResolvedAssociation, slot: AssociationSlot) {
  return slot.scopedTarget().where({ [association.foreignKey]: owner.readAttribute(association.primaryKey) });
}

/** The children an association holds in memory, loaded or built (and not already destroyed). */
function cachedChildren(slot: AssociationSlot): Owner[] {
  const loaded: Owner[] = !slot.loaded ? [] : Array.isArray(slot.value) ? slot.value : [slot.value].filter(Boolean);
  const built = slot.pending.filter((child) => !loaded.includes(child));
  return [...loaded, ...built].filter((child) => !child.isDestroyed());
}

const keyOf = (record: Owner): string => String(record.readAttribute(primaryKeyOf(record.constructor).name));

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

const deleteRows: Strategy = ({ owner, association, slot, batch }) => {
  batch.push(deleteAllStatement(childRows(owner, association, slot)));
};

const STRATEGIES: Record<Dependent, Strategy> = {
  async destroy({ owner, association, batch, found, cached }) {
    const read = (found as Owner[] | undefined) ?? (await loadChildren(owner, association));
    for (const child of withCached(read, cached)) batch.push(child.toDestroy());
  },
  deleteAll: deleteRows,
  delete: deleteRows,
  nullify({ owner, association, slot, batch }) {
    batch.push(updateAllStatement(childRows(owner, association, slot), { [association.foreignKey]: null }));
  },
  // One query that reads a row at most, as Rails' exists?: the children are not loaded to be counted.
  async restrictWithError({ owner, association, slot, found }) {
    if ((found as boolean | undefined) ?? (await anyMatch(childRows(owner, association, slot)))) refuse(owner, association);
  },
};

/** Each dependent association of a record with its slot, in declaration order. */
function dependentSlots(record: Owner): Array<[ResolvedAssociation, AssociationSlot]> {
  return slotsOf(record).filter(([association]) => association.kind !== "belongsTo" && association.options.dependent);
}

/** Whether destroying the record has dependents to handle. */
function hasDependents(record: Owner): boolean {
  return dependentSlots(record).length > 0;
}

/** Applies each association's strategy for one record, with what was read for it; the children are forgotten after. */
async function applyStrategies(owner: Owner, batch: BatchItem[], found: ReadonlyMap<string, Found>): Promise<void> {
  for (const [association, slot] of dependentSlots(owner)) {
    const cached = association.options.dependent === "destroy" ? cachedChildren(slot) : [];
    slot.reset();
    try {
      await STRATEGIES[association.options.dependent!]({ owner, association, slot, batch, found: found.get(association.name), cached });
    } finally {
      slot.reset();
    }
  }
}

/** Destroys the loaded `destroy` children, whose rows set-based writes reach already: they end destroyed too. */
function destroyCached(owner: Owner, batch: BatchItem[]): void {
  for (const [association, slot] of dependentSlots(owner)) {
    if (association.options.dependent !== "destroy") continue;
    for (const child of cachedChildren(slot)) {
      covered.add(child);
      batch.push(child.toDestroy());
    }
    slot.reset();
  }
}

const pathsOf = (nodes: readonly DependentNode[], path: readonly DependentNode[] = []): DependentNode[][] =>
  nodes.flatMap((node) => [[...path, node], ...pathsOf(node.children, [...path, node])]);

const ownerKeyOf = (owner: Owner, path: readonly DependentNode[]) => owner.readAttribute(path[0]!.association.primaryKey);

/** The tree's `restrictWithError` paths, the owner's own first (its strategies run before its children are checked). */
function restrictionPaths(tree: DependentTree): DependentNode[][] {
  const paths = pathsOf(tree.nodes).filter((path) => path.at(-1)!.dependent === "restrictWithError");
  return paths.sort((a, b) => Number(a.length > 1) - Number(b.length > 1));
}

/** The reads that check every restriction of the tree: one row read at most per check. */
function restrictionReads(owner: Owner, tree: DependentTree): DestroyRead[] {
  const paths = restrictionPaths(tree);
  const found: boolean[] = [];
  restrictionsFound.set(owner, { paths, found });
  return paths.map((path, index) => ({
    statement: anyReached(path, ownerKeyOf(owner, path), databaseOfRecord(owner)),
    receive: (exists: boolean) => void (found[index] = exists),
  }));
}

/** Refuses when the restriction reads found a `restrictWithError` child anywhere in the tree. */
function refuseRestricted(owner: Owner): void {
  const checked = restrictionsFound.get(owner);
  restrictionsFound.delete(owner);
  const at = checked ? checked.found.indexOf(true) : -1;
  if (at < 0) return;
  const path = checked!.paths[at]!;
  const { association } = path.at(-1)!;
  if (path.length === 1) refuse(owner, association);
  throw abort(restrictionMessage(association));
}

/**
 * The set-based writes of a tree without callbacks: each level's DELETE (or nullify's UPDATE) reaches its rows by
 * a subquery of the level above, so the levels below a `destroy` go first, while the rows they hang from still exist.
 */
function writeSetBased(owner: Owner, nodes: readonly DependentNode[], batch: BatchItem[], path: readonly DependentNode[] = []): void {
  for (const node of nodes) {
    const here = [...path, node];
    writeSetBased(owner, node.children, batch, here);
    if (node.dependent !== "restrictWithError") batch.push(writeReached(here, ownerKeyOf(owner, here), databaseOfRecord(owner)));
  }
}

/** What one read of the batch is for: the records of a `destroy` level, or a `restrictWithError` check. */
interface PlannedRead {
  readonly path: readonly DependentNode[];
  /** The index of the read of the parents' records; -1 for the owner. */
  readonly parentAt: number;
}

function plannedReads(nodes: readonly DependentNode[], reads: PlannedRead[], path: readonly DependentNode[] = [], parentAt = -1): PlannedRead[] {
  for (const node of nodes) {
    const here = [...path, node];
    if (node.dependent === "destroy") plannedReads(node.children, reads, here, reads.push({ path: here, parentAt }) - 1);
    if (node.dependent === "restrictWithError") reads.push({ path: here, parentAt });
  }
  return reads;
}

function foundFor(record: Owner): Map<string, Found> {
  let found = prefetched.get(record);
  if (!found) prefetched.set(record, (found = new Map()));
  return found;
}

/**
 * The reads of every level of the tree, for one batch (each level by a subquery of the one above); once the last is
 * received, each record is handed what was found for its own dependents, so that their destroys read nothing more.
 */
function treeReads(owner: Owner, tree: DependentTree): DestroyRead[] {
  const reads = plannedReads(tree.nodes, []);
  const database = databaseOfRecord(owner);
  const results: unknown[] = [];
  const statements = reads.map(({ path, parentAt }) => {
    const key = ownerKeyOf(owner, path);
    if (path.at(-1)!.dependent === "destroy") return readRecords(path, key, database);
    return parentAt < 0 ? anyReached(path, key, database) : parentsReached(path, key, database);
  });
  return statements.map((statement, index) => ({
    statement: statement as Statement<unknown>,
    receive(result: unknown) {
      results[index] = result;
      if (index === reads.length - 1) handOut(owner, reads, results);
    },
  }));
}

function handOut(owner: Owner, reads: readonly PlannedRead[], results: readonly unknown[]): void {
  reads.forEach(({ path, parentAt }, index) => {
    const { association } = path.at(-1)!;
    const parents = parentAt < 0 ? [owner] : (results[parentAt] as Owner[]);
    const result = results[index];
    const parentKey = (parent: Owner) => String(parent.readAttribute(association.primaryKey));
    if (typeof result === "boolean") return foundFor(owner).set(association.name, result);
    if (result instanceof Set) return parents.forEach((parent) => foundFor(parent).set(association.name, result.has(parentKey(parent))));
    const byParent = new Map<string, Owner[]>();
    for (const child of result as Owner[]) {
      const key = String(child.readAttribute(association.foreignKey));
      byParent.set(key, [...(byParent.get(key) ?? []), child]);
    }
    for (const parent of parents) foundFor(parent).set(association.name, byParent.get(parentKey(parent)) ?? []);
  });
  // A tree with no rows at all still marks the owner as read, so that its destroy reads nothing more.
  foundFor(owner);
}

function takeFound(record: Owner): Map<string, Found> | undefined {
  const found = prefetched.get(record);
  prefetched.delete(record);
  return found;
}

/**
 * Applies each association's `dependent` strategy, after the owner's before-destroy callbacks: the writes join the
 * owner's destroy batch, before its DELETE. The reads were made by `planDependentReads`, in the destroy's one read
 * batch: none when no record of the tree has destroy hooks and nothing restricts (set-based writes), else every
 * level read at once, by subqueries.
 */
async function handleDependents(record: Owner, batch: BatchItem[]): Promise<void> {
  const found = takeFound(record);
  if (found) return applyStrategies(record, batch, found);
  if (covered.has(record) || record.isNewRecord()) {
    covered.delete(record);
    return destroyCached(record, batch);
  }
  const tree = dependentTreeOf(record.constructor, dependentsBeforeDelete);
  if (!tree.plannable) return applyStrategies(record, batch, new Map());
  if (tree.setBased) {
    refuseRestricted(record);
    writeSetBased(record, tree.nodes, batch);
    return destroyCached(record, batch);
  }
  return applyStrategies(record, batch, new Map());
}

/**
 * The plugin's `record:planDestroy` hook: the reads a destroy's dependents need (every level of the tree, or the
 * restriction checks of a set-based tree), sent by the kernel in the destroy's one read batch with other plugins'.
 */
export function planDependentReads({ record, reads }: { readonly record: Owner; readonly reads: DestroyRead[] }): void {
  if (!hasDependents(record) || prefetched.has(record) || covered.has(record) || record.isNewRecord()) return;
  const tree = dependentTreeOf(record.constructor, dependentsBeforeDelete);
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
