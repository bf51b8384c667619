import { Relation } from "../../kernel/index.js";
import { anyMatch, countOf } from "../calculations.js";
import type { AssociationSlot } from "./slot.js";

/**
 * `user.posts()`: a Relation of the children. Narrowing it queries as usual; used as it is, it answers from the
 * loaded children (after `includes` or a first `toArray`) without a query, and `build` adds a child that the
 * owner's next save writes in the same batch.
 */
export function collection(slot: AssociationSlot): Relation {
  const { owner, association } = slot.requireOwner();
  const key = owner.readAttribute(association.primaryKey);
  const base = slot.scopedTarget();
  const relation = key === null ? base.where({ [association.foreignKey]: null }).none() : base.where({ [association.foreignKey]: key });
  const loaded = (): any[] => slot.value as any[];
  return Object.defineProperties(relation, {
    build: {
      value(attributes: object = {}) {
        const child = Relation.prototype.build.call(relation, attributes);
        slot.pending.push(child);
        if (slot.loaded) loaded().push(child);
        return child;
      },
    },
    toArray: {
      async value() {
        if (!slot.loaded) slot.remember(await Relation.prototype.toArray.call(relation));
        return [...loaded()];
      },
    },
    size: {
      value: async () => (slot.loaded ? loaded().length : countOf(relation)),
    },
    isEmpty: {
      value: async () => (slot.loaded ? loaded().length === 0 : !(await anyMatch(relation))),
    },
    hasAny: {
      value: async () => (slot.loaded ? loaded().length > 0 : anyMatch(relation)),
    },
  });
}
