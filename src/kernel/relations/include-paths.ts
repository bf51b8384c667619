import { argumentError } from "../records/arguments.js";
import { isPlainObject } from "../records/plain-object.js";

/**
 * What `includes` takes: an association name, or an object of association names to what to include below each
 * (a name, a list, or another such object): `{ posts: { comments: "author" } }`.
 */
export type IncludeSpec = string | { readonly [name: string]: IncludeSpec | readonly IncludeSpec[] };

const EXPECTED = "association names, or objects of association names to what to include below them";

// Far past any Model graph, and far short of the recursion that would exhaust the stack.
const MAX_DEPTH = 100;

/**
 * Refuses an include nested deeper than 100 associations: an object that contains itself nests without end, and
 * would exhaust the stack of whatever walks it.
 */
export function refuseDeepInclude(method: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new TypeError(`${method}: includes nest at most ${MAX_DEPTH} associations deep (does an object contain itself?)`);
}

/**
 * The paths an `includes` argument names, each level's own before those below it; nested names are joined with dots
 * (`posts`, `posts.comments`), as a Relation's `includes` holds them. Nesting deeper than 100 associations is a
 * `TypeError` (`refuseDeepInclude`).
 */
export function includePaths(method: string, specs: readonly unknown[], prefix: string, depth = 0): string[] {
  refuseDeepInclude(method, depth);
  const paths: string[] = [];
  for (const spec of specs) {
    if (typeof spec === "string") {
      paths.push(prefix + spec);
      continue;
    }
    if (!isPlainObject(spec)) throw argumentError(method, EXPECTED, spec);
    for (const [name, below] of Object.entries(spec)) {
      paths.push(prefix + name);
      paths.push(...includePaths(method, Array.isArray(below) ? below : [below], `${prefix}${name}.`, depth + 1));
    }
  }
  return paths;
}
