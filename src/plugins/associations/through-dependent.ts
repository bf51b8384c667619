import { InvalidModel } from "../../kernel/index.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import type { AssociationSlot } from "./slot.js";
import { throughHops } from "./through-hops.js";
import { slotNamed } from "./through-slot.js";

/** What a through association's `dependent` does to its join rows: as in Rails, `nullify` deletes them too. */
const ON_JOIN_ROWS: Partial<Record<Dependent, Dependent>> = { destroy: "destroy", deleteAll: "deleteAll", nullify: "deleteAll", restrictWithError: "restrictWithError" };

const joinRowsOf = new WeakMap<ResolvedAssociation, ResolvedAssociation>();

/**
 * The association whose rows a `dependent` handles: a direct one itself; for a through association, as in Rails,
 * the owner's join rows, never the targets (`tags = hasMany(Tag, { through: this.taggings, dependent: "destroy" })`
 * destroys the post's taggings, their callbacks run), under the through association's name.
 */
export function dependentRows(model: Function, association: ResolvedAssociation): ResolvedAssociation {
  if (association.through === undefined) return association;
  let rows = joinRowsOf.get(association);
  if (!rows) {
    const [join, source, ...more] = throughHops(model, association);
    if (more.length > 0 || join!.association.kind !== "hasMany" || source!.association.kind !== "belongsTo") {
      throw new InvalidModel(`${model.name}.${association.name}: dependent needs a hasMany through a hasMany whose source is a belongsTo (the join rows to delete)`);
    }
    const dependent = ON_JOIN_ROWS[association.options.dependent!];
    rows = { ...join!.association, name: association.name, options: { ...join!.association.options, dependent } };
    joinRowsOf.set(association, rows);
  }
  return rows;
}

/** A record's dependent association with its slot, as `dependentRows` gives it: a through one's join rows' slot. */
export function dependentSlot(record: Record<string, any>, [association, slot]: [ResolvedAssociation, AssociationSlot]): [ResolvedAssociation, AssociationSlot] {
  if (association.through === undefined) return [association, slot];
  const rows = dependentRows(record.constructor, association);
  return [rows, slotNamed(record, throughHops(record.constructor, association)[0]!.association.name)!];
}
