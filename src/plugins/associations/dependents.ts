import { abort, type BatchItem, humanize } from "../../kernel/index.js";
import { deleteAllStatement, updateAllStatement } from "../bulk-writes.js";
import { anyMatch } from "../calculations.js";
import type { Dependent, ResolvedAssociation } from "./definition.js";
import { slotsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

type Owner = Record<string, any>;

/** What one `dependent` value does when the owner is destroyed: adds writes to the owner's destroy batch, or aborts. */
type Strategy = (owner: Owner, association: ResolvedAssociation, slot: AssociationSlot, batch: BatchItem[]) => Promise<void> | void;

async function loadChildren(owner: Owner, association: ResolvedAssociation): Promise<Owner[]> {
  const field = owner[association.name];
  return association.kind === "hasMany" ? field().toArray() : [await field.load()].filter(Boolean);
}

/** The owner's children as one Relation, for the strategies that write them with one statement and no callbacks. */
export function childRows(owner: Owner, association: ResolvedAssociation, slot: AssociationSlot) {
  return slot.scopedTarget().where({ [association.foreignKey]: owner.readAttribute(association.primaryKey) });
}

const destroyEach: Strategy = async (owner, association, _slot, batch) => {
  for (const child of await loadChildren(owner, association)) batch.push(child.toDestroy());
};

const deleteRows: Strategy = (owner, association, slot, batch) => {
  batch.push(deleteAllStatement(childRows(owner, association, slot)));
};

/** Rails' messages: "dependent posts exist" for a `hasMany`, "a dependent profile exists" for a `hasOne`. */
function restrictionMessage({ kind, name }: ResolvedAssociation): string {
  const record = humanize(name).toLowerCase();
  return kind === "hasOne" ? `Cannot delete record because a dependent ${record} exists` : `Cannot delete record because dependent ${record} exist`;
}

const STRATEGIES: Record<Dependent, Strategy> = {
  destroy: destroyEach,
  deleteAll: deleteRows,
  delete: deleteRows,
  nullify(owner, association, slot, batch) {
    batch.push(updateAllStatement(childRows(owner, association, slot), { [association.foreignKey]: null }));
  },
  // One query that reads a row at most, as Rails' exists?: the children are not loaded to be counted.
  async restrictWithError(owner, association, slot) {
    if (!(await anyMatch(childRows(owner, association, slot)))) return;
    const reason = restrictionMessage(association);
    owner.errors.add("base", "restrict_dependent_destroy", reason);
    throw abort(reason);
  },
};

/** Whether destroying the record has dependents to handle. */
export function hasDependents(record: Owner): boolean {
  return slotsOf(record).some(([association]) => association.kind !== "belongsTo" && association.options.dependent);
}

/**
 * Applies each association's `dependent` strategy, after the owner's before-destroy callbacks: the writes join the
 * owner's destroy batch, before its DELETE. The children are read fresh, and forgotten after.
 */
export async function handleDependents(record: Owner, batch: BatchItem[]): Promise<void> {
  for (const [association, slot] of slotsOf(record)) {
    const dependent = association.options.dependent;
    if (association.kind === "belongsTo" || !dependent) continue;
    slot.reset();
    try {
      await STRATEGIES[dependent](record, association, slot, batch);
    } finally {
      slot.reset();
    }
  }
}
