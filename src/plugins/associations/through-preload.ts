import type { IncludeTree } from "./preload-targets.js";
import { associationsOf } from "./registry.js";
import { throughHops } from "./through-hops.js";

/**
 * The tree below a polymorphic `belongsTo` that only `sourceType` sources were expanded to: the types they reach,
 * the only ones its preload reads (`tag.posts`, through taggings with source `taggable` and sourceType `Post`, reads
 * the posts, not the photos, nor the includes below it for photos).
 */
const typesBelow = new WeakMap<IncludeTree, ReadonlySet<string>>();

/**
 * The types a preload of a polymorphic `belongsTo` reads, given the tree below it: those of the `sourceType` sources
 * it was expanded from; undefined (every listed Model) when it was also included otherwise.
 */
export function typesRead(below: IncludeTree): ReadonlySet<string> | undefined {
  return typesBelow.get(below);
}

/** The tree below a `sourceType` source's hop: a copy of `below`, which reads the one type. */
function typedTree(below: IncludeTree, type: string): IncludeTree {
  const typed: IncludeTree = new Map(below);
  typesBelow.set(typed, new Set([type]));
  return typed;
}

/** Adds `from` into `into`, name by name, at every depth; a name read for some types and for others reads both. */
function merge(into: IncludeTree, from: IncludeTree): void {
  for (const [name, below] of from) {
    const there = into.get(name);
    if (!there) {
      into.set(name, below);
      continue;
    }
    merge(there, below);
    const [types, more] = [typesBelow.get(there), typesBelow.get(below)];
    if (types && more) typesBelow.set(there, new Set([...types, ...more]));
    else typesBelow.delete(there);
  }
}

/**
 * An `includes` tree of `model`'s associations with each through association in it replaced by the direct
 * associations it crosses, nested, with what is included below it under the last: `tags` (through `taggings`, source
 * `tag`) is preloaded as `{ taggings: { tag } }`, each level by a subquery of the one above, all in the batch of the
 * main query; `post.tags` then answers from them (see `ThroughSlot`). A `sourceType` source is preloaded as its
 * polymorphic `belongsTo`, for that type only (see `typesRead`). A name that is no association stays as it is.
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
    const nested = hops.reduceRight<IncludeTree>((inner, hop) => new Map([[hop.association.name, hop.ownType ? typedTree(inner, hop.ownType.value) : inner]]), below);
    merge(expanded, nested);
  }
  return expanded;
}
