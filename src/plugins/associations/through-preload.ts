import type { IncludeTree } from "./preload-targets.js";
import { associationsOf } from "./registry.js";
import { throughHops } from "./through-hops.js";

/** Adds `from` into `into`, name by name, at every depth. */
function merge(into: IncludeTree, from: IncludeTree): void {
  for (const [name, below] of from) {
    const there = into.get(name);
    if (there) merge(there, below);
    else into.set(name, below);
  }
}

/**
 * An `includes` tree of `model`'s associations with each through association in it replaced by the direct
 * associations it crosses, nested, with what is included below it under the last: `tags` (through `taggings`, source
 * `tag`) is preloaded as `{ taggings: { tag } }`, each level by a subquery of the one above, all in the batch of the
 * main query; `post.tags` then answers from them (see `ThroughSlot`). A name that is no association stays as it is.
 */
export function throughHopsTree(model: Function, tree: IncludeTree): IncludeTree {
  const known = associationsOf(model);
  const expanded: IncludeTree = new Map();
  for (const [name, below] of tree) {
    const association = known.get(name);
    if (association?.through === undefined) {
      merge(expanded, new Map([[name, below]]));
      continue;
    }
    const hops = throughHops(model, association);
    const nested = hops.reduceRight<IncludeTree>((inner, hop) => new Map([[hop.association.name, inner]]), below);
    merge(expanded, nested);
  }
  return expanded;
}
