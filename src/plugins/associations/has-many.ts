import { anyMatch, countOf, RecordNotSaved, Relation } from "../../kernel/index.js";
import { ASSOCIATION_OF } from "./association-relation.js";
import { collectionWrites } from "./collection-writes.js";
import { cachedCount } from "./counter-cache.js";
import { ownerKeys, rowKeyOf } from "./keys.js";
import { loadedCount } from "./loaded-count.js";
import { refuseAnotherOwner } from "./owner-parent.js";
import { markBuiltThroughOwner } from "./required-parents.js";
import type { AssociationSlot } from "./slot.js";

/**
 * `user.posts()`: a Relation of the children. Narrowing it queries as usual (and still builds and creates through the
 * association, see association-relation.ts); used as it is, it answers from the loaded children (after `includes` or
 * a first `toArray`) without a query, and `build` adds a child that the owner's next save writes in the same batch;
 * `toArray`, `size`, `isEmpty` and `hasAny` count such a child. Before a
 * load, `size`, `isEmpty` and `hasAny` read the count `withCount` loaded or the owner's counter cache, else query.
 * `add` and `remove` make records children or take them out, `set` and `setIds` replace a saved owner's children (see
 * collection-writes.ts).
 */
export function collection(slot: AssociationSlot): Relation {
  const { owner, association } = slot.requireOwner();
  const key = rowKeyOf(owner, association.primaryKey);
  const base = slot.scopedTarget();
  const keyed = key === null ? base.where({ [association.foreignKey]: null }).none() : base.where({ [association.foreignKey]: key });
  const relation = keyed.withExtension(ASSOCIATION_OF, slot);
  const loaded = (): any[] => slot.value as any[];
  // Built children not yet written; one created through the association is a row already, counted as such.
  const unsaved = (): number => slot.pending.filter((child) => child.isNewRecord()).length;
  // The rows: a count `withCount` loaded, or the owner's counter cache, answers without a query, as Rails' size does.
  const knownCount = (): number | undefined => loadedCount(owner, association) ?? cachedCount(owner, association);
  const rowCount = async (): Promise<number> => knownCount() ?? (await countOf(relation));
  const hasRows = async (): Promise<boolean> => {
    const known = knownCount();
    return known === undefined ? await anyMatch(relation) : known > 0;
  };
  // As Rails refuses it: the row would be written now, pointing at an owner row that does not exist (or at no key).
  const createdThrough = (method: "create" | "createOrThrow") => ({
    value(...given: [object?]) {
      if (!owner.isNewRecord()) return Relation.prototype[method].apply(relation, given as [object]);
      return Promise.reject(new RecordNotSaved(`${slot.methodName(method)}: the ${owner.constructor.name} is not saved yet; save it first, or build the child with build (its save writes both)`));
    },
  });
  return Object.defineProperties(relation, {
    ...collectionWrites(slot),
    create: createdThrough("create"),
    createOrThrow: createdThrough("createOrThrow"),
    build: {
      value(attributes: object = {}) {
        slot.takes("build", arguments.length, 1);
        refuseAnotherOwner(slot, attributes);
        const child = Relation.prototype.build.call(relation, attributes).assign(ownerKeys(association, key));
        markBuiltThroughOwner(child, owner);
        slot.pending.push(child);
        if (slot.loaded) loaded().push(child);
        return child;
      },
    },
    toArray: {
      async value() {
        slot.takes("toArray", arguments.length, 0);
        // As in Rails, children built before the load are among the children (the owner's next save writes them).
        if (!slot.loaded) slot.remember([...(await Relation.prototype.toArray.call(relation)), ...slot.pending]);
        return [...loaded()];
      },
    },
    // Before a load, the rows are asked of the database and the built children added, as Rails' size and empty? do.
    size: {
      async value() {
        slot.takes("size", arguments.length, 0);
        return slot.loaded ? loaded().length : (await rowCount()) + unsaved();
      },
    },
    isEmpty: {
      async value() {
        slot.takes("isEmpty", arguments.length, 0);
        return slot.loaded ? loaded().length === 0 : unsaved() === 0 && !(await hasRows());
      },
    },
    hasAny: {
      async value() {
        slot.takes("hasAny", arguments.length, 0);
        return slot.loaded ? loaded().length > 0 : unsaved() > 0 || (await hasRows());
      },
    },
  });
}
