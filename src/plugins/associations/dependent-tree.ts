import { relationOf } from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
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
}

/** A Model's dependent tree and what a destroy of one of its records needs, worked out once per Model. */
export interface DependentTree {
  readonly nodes: readonly DependentNode[];
  /** Every node once, a node before its children. */
  readonly all: readonly DependentNode[];
  /** Whether the tree loops: its rows are then reached by one recursive query, whatever the depth of the data. */
  readonly recursive: boolean;
  /** Whether set-based reads and writes keep the tree's meaning: no scope with a limit or offset (each owner's own). */
  readonly plannable: boolean;
  /**
   * Whether the tree can be destroyed with set-based writes alone: plannable, every loop within one Model (its rows
   * deleted by one statement), and no record reached by `destroy` has destroy hooks other than this plugin's
   * (callbacks run per record, so they need records; so does a plugin that plans a record's own write).
   */
  readonly setBased: boolean;
  /** Whether any node is `restrictWithError`: the refusal needs a read before anything is written. */
  readonly restricts: boolean;
  /**
   * The set-based writes, in the order they are sent: each group of nodes after every group below it, so that each
   * statement still finds the rows it reaches through; a group is one node, or the nodes of one loop.
   */
  readonly writeOrder: readonly (readonly DependentNode[])[];
}

/** Hooks that need each record destroyed through its own write: callbacks, and a plan of the write (a soft delete's UPDATE). */
const DESTROY_HOOKS = ["record:beforeDestroy", "record:beforeDelete", "record:afterDestroy", "write:plan", "write:outcome"] as const;

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

/** Fills a level's nodes, and those below; a `destroy` whose target is already on the path loops back to it. */
function fillLevel(level: Level, path: readonly Level[], all: BuiltNode[]): void {
  const here = [...path, level];
  for (const association of dependentAssociations(level.model)) {
    const node: BuiltNode = { association, dependent: association.options.dependent!, tag: all.length + 1, children: [], parents: [] };
    all.push(node);
    level.nodes.push(node);
    if (node.dependent !== "destroy") continue;
    const earlier = here.find((each) => each.model === association.target);
    if (earlier) node.children = earlier.nodes;
    else fillLevel({ model: association.target, nodes: node.children }, here, all);
  }
}

/** Records each node's parents, following every edge once (a loop's edges too). */
function linkParents(parent: number, nodes: readonly BuiltNode[]): void {
  for (const node of nodes) {
    if (node.parents.includes(parent)) continue;
    node.parents.push(parent);
    linkParents(node.tag, node.children);
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

/** Whether a Model's records have destroy hooks other than `own` (this plugin's dependents handling). */
export function hasOtherDestroyHooks(model: Function, own: Function): boolean {
  const { hooks } = relationOf(model).model;
  return DESTROY_HOOKS.some((name) => hooks.functionsOf(name).some((fn) => fn !== own));
}

function scopeIsPerOwner(association: ResolvedAssociation): boolean {
  const { limit, offset, distinct } = scopedTargetOf(association, undefined).description;
  return limit !== undefined || offset !== undefined || distinct;
}

const trees = new WeakMap<Function, DependentTree>();

function buildTree(model: Function, own: Function): DependentTree {
  const nodes: BuiltNode[] = [];
  const all: BuiltNode[] = [];
  fillLevel({ model, nodes }, [], all);
  linkParents(OWNER, nodes);
  const writeOrder = writeOrderOf(nodes, all);
  const destroys = all.filter((node) => node.dependent === "destroy");
  const plannable = all.every((node) => !scopeIsPerOwner(node.association));
  const oneModelLoops = writeOrder.every((group) => group.every((node) => node.association.target === group[0]!.association.target));
  const callbackFree = destroys.every((node) => !hasOtherDestroyHooks(node.association.target, own));
  return {
    nodes,
    all,
    recursive: all.some((node) => node.parents.some((parent) => parent >= node.tag)),
    plannable,
    setBased: plannable && oneModelLoops && callbackFree,
    restricts: all.some((node) => node.dependent === "restrictWithError"),
    writeOrder,
  };
}

/** The dependent tree of a Model; `own` is the hook that handles dependents, which does not count as a callback. */
export function dependentTreeOf(model: Function, own: Function): DependentTree {
  let tree = trees.get(model);
  if (!tree) trees.set(model, (tree = buildTree(model, own)));
  return tree;
}
