import type { BatchItem } from "../../kernel/index.js";
import { removalOf, removalWrites } from "./child-removal.js";
import type { ResolvedAssociation } from "./definition.js";
import { childRows } from "./dependents.js";
import { slotsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

type Owner = Record<string, any>;

/** Whether the owner is saved and a new child was built through the `hasOne`: it replaces the child saved before. */
function replacesChild(owner: Owner, association: ResolvedAssociation, slot: AssociationSlot): boolean {
  return association.kind === "hasOne" && !owner.isNewRecord() && slot.pending.some((child) => child.isNewRecord());
}

/**
 * As Rails replaces a has_one target: a new child built for a saved owner removes the child saved before, by the
 * association's `dependent` (see `removalOf`). The writes join the owner's save batch, before the new child's insert:
 * the owner never has two children, and a save that is refused or fails leaves the old child as it was.
 */
export async function replaceSavedChildren(owner: Owner, batchBefore: BatchItem[]): Promise<void> {
  for (const [association, slot] of slotsOf(owner)) {
    if (!replacesChild(owner, association, slot)) continue;
    const rows = childRows(owner, association);
    const destroyed = removalOf(association) === "destroy" ? await rows.toArray() : [];
    batchBefore.push(...(await removalWrites(association, rows, destroyed, `${owner.constructor.name}#save`)));
  }
}
