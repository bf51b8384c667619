import type { RelationData } from "./relation-data.js";

/**
 * A description as plugins read it (`relation.description`, the compile hooks' `data`): frozen, its lists and the
 * plugins' entries too, so that no plugin changes a Relation others hold. The kernel never changes a description in
 * place (every Relation method makes a new one), so freezing it needs no copy; once frozen, it is given as it is.
 */
export function frozenDescription(data: RelationData): RelationData {
  if (Object.isFrozen(data)) return data;
  // Its lists and the plugins' entries; freezing a number or a boolean leaves it as it is.
  for (const entry of Object.values(data)) Object.freeze(entry);
  return Object.freeze(data);
}
