import type { DependentNode } from "./dependent-tree.js";

/**
 * The most SELECTs D1 accepts in one compound SELECT: D1 sets SQLite's `SQLITE_LIMIT_COMPOUND_SELECT` to 5 (SQLite's
 * default is 500) and refuses more with "too many terms in compound SELECT". A compound nested in a subquery or in
 * another common table expression counts on its own.
 */
const MAX_COMPOUND_TERMS = 5;

/** The recursive terms one recursive query may hold: the other term is its start (the owner, or the steps before). */
const MAX_RECURSIVE_TERMS = MAX_COMPOUND_TERMS - 1;

/**
 * The nodes whose rows other nodes hang from, split into the steps of a chain of recursive queries, each of at most
 * `MAX_RECURSIVE_TERMS` nodes and each starting from the rows the steps before reached: `groups` come parents first,
 * and the nodes of one loop share a step (a recursive query reads only its own rows). Undefined when one loop alone
 * has more such nodes than a step holds.
 */
export function reachStepsOf(groups: readonly (readonly DependentNode[])[], all: readonly DependentNode[]): DependentNode[][] | undefined {
  const parentTags = new Set(all.flatMap((node) => node.parents));
  const steps: DependentNode[][] = [[]];
  for (const group of groups) {
    const parents = group.filter((node) => parentTags.has(node.tag));
    if (parents.length > MAX_RECURSIVE_TERMS) return undefined;
    if (steps.at(-1)!.length + parents.length > MAX_RECURSIVE_TERMS) steps.push([]);
    steps.at(-1)!.push(...parents);
  }
  return steps;
}
