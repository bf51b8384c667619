import { argumentError } from "../records/arguments.js";
import { isPlainObject } from "../records/plain-object.js";

/**
 * What `includes` takes: an association name, or an object of association names to what to include below each
 * (a name, a list, or another such object): `{ posts: { comments: "author" } }`.
 */
export type IncludeSpec = string | { readonly [name: string]: IncludeSpec | readonly IncludeSpec[] };

const EXPECTED = "association names, or objects of association names to what to include below them";

/**
 * The paths an `includes` argument names, each level's own before those below it; nested names are joined with dots
 * (`posts`, `posts.comments`), as a Relation's `includes` holds them.
 */
export function includePaths(method: string, specs: readonly unknown[], prefix: string): string[] {
  const paths: string[] = [];
  for (const spec of specs) {
    if (typeof spec === "string") {
      paths.push(prefix + spec);
      continue;
    }
    if (!isPlainObject(spec)) throw argumentError(method, EXPECTED, spec);
    for (const [name, below] of Object.entries(spec)) {
      paths.push(prefix + name);
      paths.push(...includePaths(method, Array.isArray(below) ? below : [below], `${prefix}${name}.`));
    }
  }
  return paths;
}
