import { computedValueOf, reservedName } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";

/** The column `withCount` reads a count back under: `recordflare_count_<association>`, a name no table or column takes. */
export const countColumn = (name: string): string => reservedName(`count_${name}`);

/** The column of a count `withCount` narrowed by a scope of its own, which is not what the association reads. */
export const scopedCountColumn = (name: string): string => reservedName(`scoped_count_${name}`);

/**
 * The number of an owner's records of a `hasMany` that `withCount` loaded with it (what `size()` would count);
 * undefined when none was loaded, or one narrowed by a scope of its own.
 */
export function loadedCount(owner: object, association: ResolvedAssociation): number | undefined {
  const value = computedValueOf(owner, countColumn(association.name));
  return value === undefined ? undefined : Number(value);
}
