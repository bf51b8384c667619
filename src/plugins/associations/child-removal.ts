import { attributesOf, type BatchItem, type Relation } from "../../kernel/index.js";
import { writeChildren } from "./child-writes.js";
import type { ResolvedAssociation } from "./definition.js";
import { detachedKeys } from "./polymorphic-type.js";

type Loaded = Record<string, any>;

/** How an association takes out a child it no longer holds: destroyed, its row deleted, or its foreign key unset. */
export type Removal = "destroy" | "delete" | "nullify";

/**
 * How a `hasMany` or `hasOne` removes the children a replacement leaves out, as Rails' has_many and has_one replace
 * do: by the association's `dependent`, `destroy` destroying them (their callbacks run), `deleteAll` or `delete`
 * deleting their rows; any other (`nullify`, `restrictWithError`, none) setting their foreign key to NULL.
 */
export function removalOf(association: ResolvedAssociation): Removal {
  const { dependent } = association.options;
  if (dependent === "destroy") return "destroy";
  return dependent === "deleteAll" || dependent === "delete" ? "delete" : "nullify";
}

/** The children's foreign key (or, for `as`, their type) that is NOT NULL, which `nullify` cannot unset; undefined if none. */
export function notNullableKey(association: ResolvedAssociation): string | undefined {
  const detached = Object.keys(detachedKeys(association));
  return attributesOf(association.target).find((attribute) => detached.includes(attribute.name) && !attribute.nullable)?.name;
}

/**
 * The writes that remove the children `rows` selects, by `removalOf`: the destroy of each of `destroyed` (the
 * records of those rows, read before), else one set-based DELETE or UPDATE. All are planned writes, so a counter
 * cache on the child's `belongsTo` takes them off their parent in the same batch; `method` (`Post.comments.remove`)
 * is what their plans name as asking.
 */
export async function removalWrites(association: ResolvedAssociation, rows: Relation, destroyed: readonly Loaded[], method?: string): Promise<BatchItem[]> {
  switch (removalOf(association)) {
    case "destroy":
      return destroyed.map((child) => child.toDestroy());
    case "delete":
      return [await writeChildren(rows, "deleteDependents", undefined, method)];
    case "nullify":
      return [await writeChildren(rows, "nullify", new Map(Object.entries(detachedKeys(association))), method)];
  }
}
