import type { BatchItem } from "../../kernel/index.js";
import { writeChildren } from "./child-writes.js";
import type { ResolvedAssociation } from "./definition.js";
import { childRows } from "./dependents.js";
import { detachedKeys } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

type Owner = Record<string, any>;

/** Whether the owner is saved and a new child was built through the `hasOne`: it replaces the child saved before. */
function replacesChild(owner: Owner, association: ResolvedAssociation, slot: AssociationSlot): boolean {
  return association.kind === "hasOne" && !owner.isNewRecord() && slot.pending.some((child) => child.isNewRecord());
}

/**
 * As Rails replaces a has_one target: a new child built for a saved owner removes the child saved before, by the
 * association's `dependent` (`destroy`, with the child's callbacks, or `delete`), else by setting its foreign key to
 * null. The writes join the owner's save batch, before the new child's insert: the owner never has two children,
 * and a save that is refused or fails leaves the old child as it was. The DELETE and UPDATE are planned writes, so
 * a counter cache on the child's `belongsTo` takes the old child off its parent in the same batch.
 */
export async function replaceSavedChildren(owner: Owner, batchBefore: BatchItem[]): Promise<void> {
  for (const [association, slot] of slotsOf(owner)) {
    if (!replacesChild(owner, association, slot)) continue;
    const rows = childRows(owner, association);
    const { dependent } = association.options;
    if (dependent === "destroy") {
      for (const child of await rows.toArray()) batchBefore.push(child.toDestroy());
    } else if (dependent === "delete") {
      batchBefore.push(await writeChildren(rows, "deleteDependents"));
    } else {
      batchBefore.push(await writeChildren(rows, "nullify", new Map(Object.entries(detachedKeys(association)))));
    }
  }
}
