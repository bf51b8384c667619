import { keysChanged, pointsAtNothing } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";

type Owner = Record<string, any>;

/** Records built through an owner's `hasMany` or `hasOne`, and that owner: their parent, whose save writes them. */
const builtThroughOwner = new WeakMap<object, object>();

/** Marks a child built through an owner's association: it takes the owner's key when the owner is written. */
export function markBuiltThroughOwner(child: object, owner: object): void {
  builtThroughOwner.set(child, owner);
}

/** The owner a child was built through, if any (a counter cache counts the child on it in memory). */
export function ownerBuiltThrough(child: object): object | undefined {
  return builtThroughOwner.get(child);
}

/**
 * Rails 5's required `belongsTo`: a record whose foreign key (or a polymorphic one's type) is null fails validation
 * with "must exist", unless the association is declared `optional: true`, a parent was assigned with `set`, or the
 * record was built through its parent's association (both get the key when the parent is written). Checked without
 * a query, on a new record or a changed key only, as Rails 7.1 does: that the row exists is the FOREIGN KEY
 * constraint's job.
 */
export function validateRequiredParents(record: Owner): void {
  if (builtThroughOwner.has(record)) return;
  for (const [association, slot] of slotsOf(record)) {
    if (association.kind !== "belongsTo" || association.options.optional) continue;
    if (!record.isNewRecord() && !keysChanged(record, association)) continue;
    if (pointsAtNothing(record, association) && slot.pending.length === 0) {
      record.errors.add(association.name, "required", "must exist");
    }
  }
}
