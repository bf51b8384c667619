import { relationOf, rowSubclassesOf } from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import { type ReachStep, reachStepsOf } from "./reach-steps.js";
import { associationsOf } from "./registry.js";
import { scopedTargetOf } from "./slot.js";
import { dependentRows } from "./through-dependent.js";

/** The tag that stands for the owner among a node's parents. */
export const OWNER = 0;

/** One `dependent` association of a destroy's tree: its strategy and, for `destroy`, its target's own dependents. */
export interface DependentNode {
  readonly association: ResolvedAssociation;
  readonly dependent: Dependent;
  /** The node's number in its tree, from 1 (0 is the owner): how a recursive read tells the nodes' rows apart. */
  readonly tag: number;
  /**
   * For `destroy`, the target's dependent associations; where the target Model is already on the path from the
   * owner (a tree of categories, or A to B to A), the nodes of that earlier level, so the tree loops. Empty for the
   * other strategies, which do not descend (as in Rails: `nullify` and `deleteAll` touch the first level only).
   */
  readonly children: readonly DependentNode[];
  /** The tags of the nodes whose rows this node's rows hang from; `OWNER` for the owner's own children. */
  readonly parents: readonly number[];
  /** The tag of the node whose target declares this association (`OWNER` for the owner's own): its parent, loops aside. */
  readonly above: number;
}

/**
 * A node of a loop through several Models that rows of the loop point back to (an entry): its rows that hang from
 * rows of the loop are first made to hang from a row of `above` reached before them (their anchor), so that each
 * DELETE of the loop still finds its rows once the rows below are gone.
 */
export interface LoopEntry {
  readonly node: DependentNode;
  /**
   * The node (or `OWNER`) whose target declares the entry's association: where the loop was entered from, or, for a
   * loop within the loop, a node of the loop itself, whose rows are deleted after the entry's.
   */
  readonly above: number;
  /**
   * The tags of the loop's other nodes on the table of `above`'s rows: a row can be both (a box in a depot and in a
   * crate of the depot), and their DELETEs then leave it to `above`'s, while the entry's rows hang from it.
   */
  readonly onAboveTable: readonly number[];
}

/**
 * A loop through several Models, destroyed with set-based writes: one UPDATE per entry relinks its rows (see
 * `LoopEntry`), then one DELETE per node, the deepest first, each after the nodes declared below it.
 */
export interface LoopOverModels {
  readonly nodes: readonly DependentNode[];
  readonly entries: readonly LoopEntry[];
  /** The node (or `OWNER`) whose rows the loop is entered from: they stay until every row of the loop is deleted. */
  readonly above: number;
}

/**
 * One set-based write of a destroy's tree: the strategy's DELETE (or nullify's UPDATE) of the rows of `nodes` (one
 * node, or the nodes of a loop within one Model), or, for a loop through several Models, the UPDATE that relinks
 * the rows of one of its entries (`relink`), or, first of all, the UPDATE that detaches the owner's own row from
 * the rows of its tree it hangs from (`detach`): its DELETE comes last, and until then no row it points at could go.
 */
export type WriteStep =
  | {
      readonly kind: "write";
      readonly nodes: readonly DependentNode[];
      /**
       * For a node of a loop on the table of an entry's `above`, the entries: a row they still hang from is left
       * to the write of `above` (where rows point at each other, no other row could hold them).
       */
      readonly keepsAnchorsOf?: readonly DependentNode[];
    }
  | { readonly kind: "relink"; readonly entry: LoopEntry }
  | {
      readonly kind: "detach";
      /** The nodes of loops through several Models whose target is the owner's Model: the links to unset. */
      readonly nodes: readonly DependentNode[];
    };

/** A Model's dependent tree and what a destroy of one of its records needs, worked out once per Model. */
export interface DependentTree {
  readonly nodes: readonly DependentNode[];
  /** Every node once, a node before its children. */
  readonly all: readonly DependentNode[];
  /**
   * Whether the tree loops: its rows are then reached by one recursive query (a chain of them past D1's limit of
   * terms in a compound SELECT), whatever the depth of the data.
   */
  readonly recursive: boolean;
  /**
   * Whether set-based reads and writes keep the tree's meaning: no scope with a limit or offset (each owner's own).
   */
  readonly plannable: boolean;
  /**
   * Where the tree loops, the nodes whose rows other nodes hang from, parents first, in the steps of the chain of
   * recursive queries that reaches the rows (each within D1's limit of terms in a compound SELECT).
   */
  readonly reachSteps: readonly ReachStep[];
  /**
   * Whether the tree can be destroyed with set-based writes alone: plannable, no write hook but counter caches' on
   * the Models of a loop through several Models (the loop's relink UPDATE is planned by none), and no record reached by `destroy` has
   * destroy hooks other than this plugin's (callbacks run per record, so they need records; so does a plugin that
   * plans a record's own write, unless it plans the set-based writes alike: counter caches).
   */
  readonly setBased: boolean;
  /** Whether any node is `restrictWithError`: the refusal needs a read before anything is written. */
  readonly restricts: boolean;
  /** The loops through several Models. */
  readonly loops: readonly LoopOverModels[];
  /**
   * The set-based writes, in the order they are sent: each node's after every node below it, so that each
   * statement still finds the rows it reaches through.
   */
  readonly writeSteps: readonly WriteStep[];
}

/** Hooks that need each record destroyed through its own write: callbacks, and a plan of the write (a soft delete's UPDATE). */
const DESTROY_HOOKS = ["record:beforeDestroy", "record:beforeDelete", "record:afterDestroy", "write:plan", "write:outcome"] as const;

/** Write hooks that plan a destroy's set-based writes of dependents as they plan each record's own: they need no records. */
const setBasedAlike = new WeakSet<Function>();

/**
 * Marks destroy hooks of this folder's plugins that need no records: write hooks (counter caches') that plan a
 * `deleteDependents` or `nullify` write as they plan a record's own destroy, the preparation of a tree's targets,
 * and the handling of dependents itself; a tree reaching their Model stays set-based.
 */
export function planSetBasedAlike(...hooks: Function[]): void {
  for (const hook of hooks) setBasedAlike.add(hook);
}

interface BuiltNode extends DependentNode {
  children: BuiltNode[];
  readonly parents: number[];
}

/** A Model on the path from the owner, with the nodes of its dependents (filled as the tree is built). */
interface Level {
  readonly model: Function;
  readonly nodes: BuiltNode[];
}

/** The dependent associations of a Model that are not `belongsTo` (a through one's join rows), in declaration order. */
function dependentAssociations(model: Function): ResolvedAssociation[] {
  const dependents = [...associationsOf(model).values()].filter((association) => association.kind !== "belongsTo" && association.options.dependent);
  return dependents.map((association) => dependentRows(model, association));
}

/**
 * The dependent associations of the rows of a Model reached below the owner: its own, then those its rows' subclasses
 * declare (single-table inheritance: a question's answers, among a forum's posts), each name once. The owner is a
 * record of its own class, whose associations are its own alone.
 */
function rowsDependentAssociations(model: Function): ResolvedAssociation[] {
  const byName = new Map<string, ResolvedAssociation>();
  for (const each of [model, ...rowSubclassesOf(model)]) for (const association of dependentAssociations(each)) if (!byName.has(association.name)) byName.set(association.name, association);
  return [...byName.values()];
}

/**
 * Fills a level's nodes, and those below; a `destroy` whose target is already on the path loops back to it.
 * `above` is the node whose target the level is (`OWNER` for the owner's).
 */
function fillLevel(level: Level, above: number, path: readonly Level[], all: BuiltNode[]): void {
  const here = [...path, level];
  for (const association of above === OWNER ? dependentAssociations(level.model) : rowsDependentAssociations(level.model)) {
    const node: BuiltNode = { association, dependent: association.options.dependent!, tag: all.length + 1, children: [], parents: [], above };
    all.push(node);
    level.nodes.push(node);
    if (node.dependent !== "destroy") continue;
    const earlier = here.find((each) => each.model === association.target);
    if (earlier) node.children = earlier.nodes;
    else fillLevel({ model: association.target, nodes: node.children }, node.tag, here, all);
  }
}

/**
 * Records each node's parents, following every edge once (a loop's edges too), depth first. A stack of its own
 * rather than recursion: a loop of many associations has as many edges as the square of their number, and a path
 * through them as deep, past what the call stack holds.
 */
function linkParents(parent: number, nodes: readonly BuiltNode[]): void {
  const stack = [{ parent, nodes, next: 0 }];
  while (stack.length > 0) {
    const edges = stack.at(-1)!;
    const node = edges.nodes[edges.next++];
    if (node === undefined) stack.pop();
    else if (!node.parents.includes(edges.parent)) {
      node.parents.push(edges.parent);
      stack.push({ parent: node.tag, nodes: node.children, next: 0 });
    }
  }
}

function reachable(from: DependentNode): Set<DependentNode> {
  const seen = new Set<DependentNode>();
  const visit = (nodes: readonly DependentNode[]) => {
    for (const node of nodes) if (!seen.has(node) && seen.add(node)) visit(node.children);
  };
  visit(from.children);
  return seen;
}

/** The nodes of the loop a node is on (those it reaches that reach it back), or the node alone. */
function loopOf(node: DependentNode, all: readonly DependentNode[]): DependentNode[] {
  const below = reachable(node);
  if (!below.has(node)) return [node];
  return all.filter((other) => below.has(other) && reachable(other).has(node));
}

/** Each group after every group below it (post-order over the loops), the owner's nodes in declaration order. */
function writeOrderOf(nodes: readonly DependentNode[], all: readonly DependentNode[]): DependentNode[][] {
  const order: DependentNode[][] = [];
  const done = new Set<DependentNode>();
  const visit = (node: DependentNode) => {
    if (done.has(node)) return;
    const group = loopOf(node, all);
    for (const member of group) done.add(member);
    for (const member of group) for (const child of member.children) if (!group.includes(child)) visit(child);
    order.push(group);
  };
  nodes.forEach(visit);
  return order;
}

const tableOf = (model: Function): string => relationOf(model).model.quotedTable;

const spansModels = (group: readonly DependentNode[]): boolean => group.some((node) => node.association.target !== group[0]!.association.target);

/** A loop through several Models as a `LoopOverModels`: its entries are the nodes that rows of it point back to. */
function loopOverModels(group: readonly DependentNode[], all: readonly DependentNode[], owner: Function): LoopOverModels {
  const targetOf = (tag: number) => (tag === OWNER ? owner : all[tag - 1]!.association.target);
  const entries = group.filter((node) => node.parents.some((parent) => parent !== node.above)).map((node) => {
    const aboveTable = tableOf(targetOf(node.above));
    const onAboveTable = group.filter((other) => other.tag !== node.above && tableOf(other.association.target) === aboveTable);
    return { node, above: node.above, onAboveTable: onAboveTable.map((other) => other.tag) };
  });
  const root = group.find((node) => !group.some((other) => other.tag === node.above))!;
  return { nodes: group, entries, above: root.above };
}

/** The loop's nodes, each after the nodes declared below it: once relinked, the rows of each hang from those above. */
function deepestFirst(loop: LoopOverModels): DependentNode[] {
  const order: DependentNode[] = [];
  const visit = (node: DependentNode) => {
    for (const child of loop.nodes) if (child.above === node.tag) visit(child);
    order.push(node);
  };
  for (const node of loop.nodes) if (node.above === loop.above) visit(node);
  return order;
}

/**
 * The steps of each group, in order: one write per group, or for a loop through several Models its relinks, then
 * one DELETE per node, the deepest first; the owner's detach before all, where its Model is in such a loop.
 */
function writeStepsOf(groups: readonly DependentNode[][], loops: ReadonlyMap<readonly DependentNode[], LoopOverModels>, owner: Function): WriteStep[] {
  const steps: WriteStep[] = [];
  const ownerLinks = [...loops.values()].flatMap((loop) => loop.nodes).filter((node) => node.association.target === owner);
  if (ownerLinks.length > 0) steps.push({ kind: "detach", nodes: ownerLinks });
  for (const group of groups.filter((each) => each[0]!.dependent !== "restrictWithError")) {
    const loop = loops.get(group);
    if (!loop) steps.push({ kind: "write", nodes: group });
    else {
      for (const entry of loop.entries) steps.push({ kind: "relink", entry });
      for (const node of deepestFirst(loop)) {
        const anchored = loop.entries.filter((entry) => entry.onAboveTable.includes(node.tag)).map((entry) => entry.node);
        steps.push({ kind: "write", nodes: [node], ...(anchored.length > 0 && { keepsAnchorsOf: anchored }) });
      }
    }
  }
  return steps;
}

/** Whether a Model's records have destroy hooks other than those marked set-based alike (this folder's own). */
export function hasOtherDestroyHooks(model: Function): boolean {
  const { hooks } = relationOf(model).model;
  return DESTROY_HOOKS.some((name) => hooks.functionsOf(name).some((fn) => !setBasedAlike.has(fn)));
}

/**
 * Whether a plugin plans a Model's writes other than alike for records and set-based writes (counter caches): then
 * no write of its rows may bypass the plan (a loop's relink). A relink only moves rows of the tree between rows of
 * the tree, which the same batch deletes, so it changes no counter that outlives the batch: the DELETEs' own plans
 * adjust the counters of parents outside the tree.
 */
function hasWriteHooks(model: Function): boolean {
  const { hooks } = relationOf(model).model;
  return (["write:plan", "write:outcome"] as const).some((name) => hooks.functionsOf(name).some((fn) => !setBasedAlike.has(fn)));
}

function scopeIsPerOwner(association: ResolvedAssociation): boolean {
  const { limit, offset, distinct } = scopedTargetOf(association, undefined).description;
  return limit !== undefined || offset !== undefined || distinct;
}

const trees = new WeakMap<Function, DependentTree>();

function buildTree(model: Function): DependentTree {
  const nodes: BuiltNode[] = [];
  const all: BuiltNode[] = [];
  fillLevel({ model, nodes }, OWNER, [], all);
  linkParents(OWNER, nodes);
  const groups = writeOrderOf(nodes, all);
  const loops = new Map<readonly DependentNode[], LoopOverModels>();
  for (const group of groups.filter(spansModels)) loops.set(group, loopOverModels(group, all, model));
  const relinkable = [...loops.keys()].every((group) => !group.some((node) => hasWriteHooks(node.association.target)));
  const destroys = all.filter((node) => node.dependent === "destroy");
  const reachSteps = reachStepsOf([...groups].reverse(), all);
  const plannable = all.every((node) => !scopeIsPerOwner(node.association));
  // A destroy's rows may be records of the target's subclasses, whose own callbacks need the records too.
  const callbackFree = destroys.every(({ association: { target } }) => ![target, ...rowSubclassesOf(target)].some(hasOtherDestroyHooks));
  return {
    nodes,
    all,
    recursive: all.some((node) => node.parents.some((parent) => parent >= node.tag)),
    plannable,
    reachSteps,
    setBased: plannable && relinkable && callbackFree,
    restricts: all.some((node) => node.dependent === "restrictWithError"),
    loops: [...loops.values()],
    writeSteps: writeStepsOf(groups, loops, model),
  };
}

/** The dependent tree of a Model, built at its first destroy. */
export function dependentTreeOf(model: Function): DependentTree {
  let tree = trees.get(model);
  if (!tree) trees.set(model, (tree = buildTree(model)));
  return tree;
}
