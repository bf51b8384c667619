import { anyMatch, countOf, Relation } from "../../kernel/index.js";
import { ASSOCIATION_OF } from "./association-relation.js";
import { loadedCount } from "./loaded-count.js";
import type { ThroughSlot } from "./through-slot.js";
import { throughRelation } from "./through-relation.js";
import { throughWrites } from "./through-writes.js";

/**
 * `post.tags()` of `tags = hasMany(Tag, { through: this.taggings })`: a Relation of the targets (narrow, count,
 * page it: each query is one statement, see `throughRelation`; narrowed, it still builds and creates through the
 * association, see association-relation.ts). Used as it is, it answers from what is loaded
 * (`includes("tags")`, or a first `toArray`) without a query. `add`, `remove`, `set` and `setIds` write the join rows.
 */
export function throughCollection(slot: ThroughSlot): Relation {
  const { owner, association } = slot.requireOwner();
  const relation = throughRelation(owner, association).withExtension(ASSOCIATION_OF, slot);
  const loaded = (): any[] => slot.value as any[];
  const hasRows = async (): Promise<boolean> => {
    const known = loadedCount(owner, association);
    return known === undefined ? await anyMatch(relation) : known > 0;
  };
  return Object.defineProperties(relation, {
    ...throughWrites(slot),
    toArray: {
      async value() {
        slot.takes("toArray", arguments.length, 0);
        if (!slot.loaded) slot.remember(await Relation.prototype.toArray.call(relation));
        return [...loaded()];
      },
    },
    // Before a load, a count `withCount` loaded answers without a query.
    size: {
      async value() {
        slot.takes("size", arguments.length, 0);
        return slot.loaded ? loaded().length : (loadedCount(owner, association) ?? (await countOf(relation)));
      },
    },
    isEmpty: {
      async value() {
        slot.takes("isEmpty", arguments.length, 0);
        return slot.loaded ? loaded().length === 0 : !(await hasRows());
      },
    },
    hasAny: {
      async value() {
        slot.takes("hasAny", arguments.length, 0);
        return slot.loaded ? loaded().length > 0 : await hasRows();
      },
    },
  });
}
