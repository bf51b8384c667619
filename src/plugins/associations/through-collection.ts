import { anyMatch, countOf, Relation } from "../../kernel/index.js";
import type { ThroughSlot } from "./through-slot.js";
import { throughRelation } from "./through-relation.js";
import { throughWrites } from "./through-writes.js";

/**
 * `post.tags()` of `tags = hasMany(Tag, { through: this.taggings })`: a Relation of the targets (narrow, count,
 * page it: each query is one statement, see `throughRelation`). Used as it is, it answers from what is loaded
 * (`includes("tags")`, or a first `toArray`) without a query. `add`, `remove`, `set` and `setIds` write the join rows.
 */
export function throughCollection(slot: ThroughSlot): Relation {
  const { owner, association } = slot.requireOwner();
  const relation = throughRelation(owner, association);
  const loaded = (): any[] => slot.value as any[];
  return Object.defineProperties(relation, {
    ...throughWrites(slot),
    toArray: {
      async value() {
        if (!slot.loaded) slot.remember(await Relation.prototype.toArray.call(relation));
        return [...loaded()];
      },
    },
    size: { value: async () => (slot.loaded ? loaded().length : countOf(relation)) },
    isEmpty: { value: async () => (slot.loaded ? loaded().length === 0 : !(await anyMatch(relation))) },
    hasAny: { value: async () => (slot.loaded ? loaded().length > 0 : anyMatch(relation)) },
  });
}
