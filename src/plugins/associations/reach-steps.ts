import type { DependentNode } from "./dependent-tree.js";

/**
 * The most SELECTs D1 accepts in one compound SELECT: D1 sets SQLite's `SQLITE_LIMIT_COMPOUND_SELECT` to 5 (SQLite's
 * default is 500) and refuses more with "too many terms in compound SELECT". A compound nested in a subquery or in
 * another common table expression counts on its own; a `VALUES` list of several rows counts as none.
 */
const MAX_COMPOUND_TERMS = 5;

/** The recursive terms one recursive query may hold: the other term is its start (the owner, or the steps before). */
const MAX_RECURSIVE_TERMS = MAX_COMPOUND_TERMS - 1;

/** One recursive term: the nodes whose rows it reaches (one node, or several joined in one SELECT). */
export type ReachTerm = readonly DependentNode[];

/** One recursive query of the chain: its recursive terms. */
export type ReachStep = readonly ReachTerm[];

/** `nodes` dealt into at most `count` terms, each of consecutive nodes, their sizes differing by one at most. */
function dealt(nodes: readonly DependentNode[], count: number): ReachTerm[] {
  const terms: ReachTerm[] = [];
  for (let index = 0, start = 0; index < count && start < nodes.length; index++) {
    const size = Math.ceil((nodes.length - start) / (count - index));
    terms.push(nodes.slice(start, start + size));
    start += size;
  }
  return terms;
}

/**
 * The nodes whose rows other nodes hang from, split into the steps of a chain of recursive queries, each of at most
 * `MAX_RECURSIVE_TERMS` terms and each starting from the rows the steps before reached: `groups` come parents first,
 * and the nodes of one loop share a step (a recursive query reads only its own rows). A node is a term of its own;
 * a loop with more such nodes than a step holds has them dealt into the step's terms, several nodes to a term.
 */
export function reachStepsOf(groups: readonly (readonly DependentNode[])[], all: readonly DependentNode[]): ReachStep[] {
  const parentTags = new Set(all.flatMap((node) => node.parents));
  const steps: ReachTerm[][] = [[]];
  for (const group of groups) {
    const parents = group.filter((node) => parentTags.has(node.tag));
    const terms = parents.length > MAX_RECURSIVE_TERMS ? dealt(parents, MAX_RECURSIVE_TERMS) : parents.map((node) => [node]);
    if (steps.at(-1)!.length + terms.length > MAX_RECURSIVE_TERMS) steps.push([]);
    steps.at(-1)!.push(...terms);
  }
  return steps;
}
