import { argumentError, type BatchItem, databaseForBatch } from "../../kernel/index.js";
import type { AssociationSlot } from "./slot.js";
import { slotNamed, type ThroughSlot } from "./through-slot.js";

type Loaded = Record<string, any>;

/** The slot of the owner's `hasOne` to its join row. */
type JoinSlot = AssociationSlot;

/**
 * The owner's join association and the join row's source, checked as Rails checks them before writing through a
 * has_one :through: two hops (a through a through is read-only), a `hasOne` join row (a `belongsTo` one is shared
 * with other owners: assign it through its own association) and a `belongsTo` source, which holds the target's key
 * (Rails' HasOneThroughCantAssociateThroughHasOneOrManyReflection); else a TypeError naming the Model, association
 * and method.
 */
function joinOf(slot: ThroughSlot): { join: JoinSlot; source: string; where: string } {
  const { owner, association } = slot.requireOwner();
  const where = `${owner.constructor.name}.${association.name}.set`;
  const [join, source, ...more] = slot.hops();
  if (more.length > 0) throw new TypeError(`${where}: ${association.name} is read-only: it goes through another through association`);
  if (join!.association.kind !== "hasOne") {
    throw new TypeError(`${where}: ${association.name} goes through the belongsTo ${join!.association.name}, whose row other records share; assign it through ${join!.association.name}`);
  }
  if (source!.association.kind !== "belongsTo") {
    throw new TypeError(`${where}: ${association.name} is read-only: its source ${join!.association.target.name}.${source!.association.name} is a ${source!.association.kind}, and the join row holds no key of the target`);
  }
  return { join: slotNamed(owner, join!.association.name)!, source: source!.association.name, where };
}

/** Writes a saved owner's join row now, in one batch: its validations and callbacks run, a refusal throws. */
async function write(items: readonly BatchItem[]): Promise<void> {
  await (await databaseForBatch(items)).batch(items);
}

/**
 * Points the join row at the target: the row there is, else one built through the owner's `hasOne`; a saved
 * owner's is written now. A built row whose write fails leaves the owner: its next save does not write it.
 */
async function link(owner: Loaded, join: JoinSlot, row: Loaded | null, source: string, target: Loaded): Promise<void> {
  const linked = row ?? (owner[join.association!.name] as { build(): Loaded }).build();
  linked[source].set(target);
  if (owner.isNewRecord()) return;
  try {
    await write([linked.toSave()]);
  } finally {
    if (!row) join.pending.length = 0;
    if (!row && linked.isNewRecord()) join.reset();
  }
}

/**
 * `member.club.set(club)` of `club = hasOne(Club, { through: this.membership })`, as Rails' has_one :through
 * assignment: the owner's join row is made to point at the target (its `belongsTo` source set), with the join Model's
 * validations and callbacks. A saved join row is updated, a new one assigned; without one, one is built through the
 * owner's `hasOne` (a new owner's save writes it in its batch; a saved owner's is written now). `null` destroys the
 * join row, never the target. A saved owner's join row not yet loaded is read first, in a round trip of its own.
 */
export async function replaceThroughOne(slot: ThroughSlot, target: unknown): Promise<void> {
  const { owner, association } = slot.requireOwner();
  const { join, source, where } = joinOf(slot);
  if (target !== null && !(target instanceof association.target)) throw argumentError(where, `a record of ${association.target.name} or null`, target);
  const row = (await (owner[join.association!.name] as { load(): Promise<Loaded | null> }).load()) ?? null;
  if (target !== null) await link(owner, join, row, source, target as Loaded);
  else {
    if (row && !row.isNewRecord()) await write([row.toDestroy()]);
    join.pending.length = 0;
    join.remember(null);
  }
  slot.remember(target);
}
