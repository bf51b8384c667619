import type { Relation } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";
import { associationsOf } from "./registry.js";

/**
 * The narrowing's equalities a record built from `relation` starts with, less the keys that a `belongsTo` named in
 * `attributes` gives (`post.taggings().where({ tag: ts }).build({ tag: rust })` belongs to rust), as on a Relation of
 * the Model; the keys of the `association` built through stay, which naming its owner is refused with.
 */
export function narrowingUnder(relation: Relation, association: ResolvedAssociation, attributes: object): Record<string, unknown> {
  const narrowing = relation.scopeAttributes();
  const associations = associationsOf(relation.model.model);
  const own = [association.foreignKey, association.polymorphic?.foreignType];
  for (const name of Object.keys(attributes)) {
    const named = associations.get(name);
    if (named?.kind !== "belongsTo") continue;
    for (const key of [named.foreignKey, named.polymorphic?.foreignType]) if (!own.includes(key)) delete narrowing[key!];
  }
  return narrowing;
}
