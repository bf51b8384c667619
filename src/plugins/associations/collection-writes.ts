import { argumentError, databaseForBatch, isAttributeChanged, previewText, primaryKeyOf, RecordNotSaved, type Relation } from "../../kernel/index.js";
import { notNullableKey, removalOf, removalWrites } from "./child-removal.js";
import { holdCount } from "./counter-cache.js";
import type { ResolvedAssociation } from "./definition.js";
import { childRows } from "./dependents.js";
import { recordsGiven } from "./given-records.js";
import { castKeys, keysGiven, readKeyedTargets } from "./keyed-targets.js";
import { copyKey, rowKeyOf } from "./keys.js";
import { ownerType } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";
import type { AssociationSlot } from "./slot.js";

type Loaded = Record<string, any>;

/** What a write of a `hasMany`'s children works with: the saved owner, the association and the method. */
interface Writing {
  readonly owner: Loaded;
  readonly association: ResolvedAssociation;
  readonly slot: AssociationSlot;
  /** `Post.comments.setIds`, as errors name the method. */
  readonly where: string;
}

/**
 * The write of `method` on the owner's children. A new owner is refused: its rows do not exist yet for the children
 * to point at (build its children with `build`, which its save writes).
 */
function writing(slot: AssociationSlot, method: string): Writing {
  const { owner, association } = slot.requireOwner();
  const where = slot.methodName(method);
  if (owner.isNewRecord()) throw new TypeError(`${where}: the ${owner.constructor.name} is not saved yet; save it first, or build its children with build`);
  return { owner, association, slot, where };
}

/** The values that make a child the owner's: its foreign key, and for `as` its type. */
function ownerKeys({ owner, association }: Writing): Record<string, unknown> {
  return { [association.foreignKey]: rowKeyOf(owner, association.primaryKey), ...ownerType(association) };
}

/**
 * The owner's children a replacement leaves out: those the association holds (its `scope` and type kept to) whose
 * key is none of `kept`. Rows outside the scope stay, as Rails replaces the association's own records.
 */
function leftOutRows(writes: Writing, kept: readonly unknown[]): Relation {
  const rows = childRows(writes.owner, writes.association);
  return kept.length === 0 ? rows : rows.whereNot({ [primaryKeyOf(writes.association.target).name]: kept });
}

/**
 * What removing the left-out children needs read first, in the batch of any other read: their records, for `destroy`
 * to run their callbacks; one of them, where only `nullify` could remove them and the foreign key is NOT NULL (to
 * refuse clearly rather than by the database's constraint); else nothing, a set-based write removes them.
 */
function leftOutRead(writes: Writing, rows: Relation): Relation | undefined {
  const removal = removalOf(writes.association);
  if (removal === "destroy") return rows;
  return removal === "nullify" && notNullableKey(writes.association) !== undefined ? rows.limit(1) : undefined;
}

/** The refusal to leave out a child whose NOT NULL foreign key `nullify` would set to NULL, naming the way out. */
function notNullRefusal({ association, where }: Writing, child: Loaded): RecordNotSaved {
  const target = association.target.name;
  const key = rowKeyOf(child, primaryKeyOf(association.target).name);
  return new RecordNotSaved(
    `${where}: ${target} ${previewText(key)} would be left out, but ${target}.${notNullableKey(association)} is NOT NULL; ` +
      `give ${association.name} dependent: "destroy" or "deleteAll" to remove the children left out, or keep them in the list`,
  );
}

/**
 * Points each child at the owner (see `ownerKeys`); returns what puts back the values it changed, for a write that
 * fails to leave the children as they were.
 */
function pointAtOwner(writes: Writing, children: readonly Loaded[]): () => void {
  const values = Object.entries(ownerKeys(writes));
  const before = children.map((child) => new Map(values.map(([name]) => [name, child.readAttribute(name)])));
  for (const child of children) for (const [name, value] of values) copyKey(child, name, value);
  return () => {
    children.forEach((child, index) => {
      for (const [name, value] of before[index]!) copyKey(child, name, value);
    });
  };
}

/** Whether a child pointed at the owner needs its save: a new one, or one that pointed elsewhere. */
function needsSave(writes: Writing, child: Loaded): boolean {
  return child.isNewRecord() || Object.keys(ownerKeys(writes)).some((name) => isAttributeChanged(child, name));
}

/**
 * After the write, the association holds exactly `children`, loaded (a later `toArray()` answers without a query):
 * children built and not in the list are dropped, as Rails drops them; each child's `belongsTo` back to the owner
 * holds it; the owner's counter cache of the association, if loaded, counts them.
 */
function holdChildren(writes: Writing, children: readonly Loaded[]): void {
  const { owner, association, slot } = writes;
  slot.pending.length = 0;
  slot.remember([...children]);
  for (const child of children) {
    for (const [parent, parentSlot] of slotsOf(child)) if (parent.kind === "belongsTo" && parent.foreignKey === association.foreignKey) parentSlot.remember(owner);
  }
  holdCount(owner, association, children);
}

/**
 * Makes `children` the owner's and removes the others (`left`, selecting them; `read`, what `leftOutRead` read of
 * them), in ONE batch, so all of it is written or none: the removals (see `removalWrites`), then the save of each
 * child that is new or pointed elsewhere (its validations and callbacks run; one already the owner's is not touched).
 */
async function replace(writes: Writing, children: readonly Loaded[], left: Relation, read: readonly Loaded[] | undefined): Promise<void> {
  if (removalOf(writes.association) === "nullify" && read !== undefined && read.length > 0) throw notNullRefusal(writes, read[0]!);
  const removals = read?.length === 0 ? [] : await removalWrites(writes.association, left, read ?? []);
  const restore = pointAtOwner(writes, children);
  try {
    const items = [...removals, ...children.filter((child) => needsSave(writes, child)).map((child) => child.toSave())];
    if (items.length > 0) await (await databaseForBatch(items)).batch(items);
  } catch (error) {
    restore();
    throw error;
  }
  holdChildren(writes, children);
}

/**
 * `post.comments().set([...])` (Rails' `comments=`): the records become the post's children, and its other children
 * are removed by the association's `dependent` (see `removalOf`); one batch, after a read of the children left out
 * when `destroy` needs their records (or a NOT NULL foreign key must be checked).
 */
async function set(writes: Writing, records: unknown): Promise<void> {
  const { target } = writes.association;
  if (!Array.isArray(records)) throw argumentError(writes.where, `a list of records of ${target.name}`, records);
  const children = recordsGiven(writes.where, target, records);
  const kept = children.filter((child) => !child.isNewRecord()).map((child) => rowKeyOf(child, primaryKeyOf(target).name));
  const left = leftOutRows(writes, kept);
  const read = leftOutRead(writes, left);
  await replace(writes, children, left, read && (await read.toArray()));
}

/**
 * `post.comments().setIds([...])` (Rails' `comment_ids=`): `set` with the target Model's records of these keys
 * (whatever the association's scope, as Rails), read in one batch with what removing the others needs; a key with no
 * row is `RecordNotFound` before anything is written.
 */
async function setIds(writes: Writing, ids: unknown): Promise<void> {
  const { target } = writes.association;
  const keyed = { where: writes.where, target, keyName: primaryKeyOf(target).name, all: writes.slot.targetModel().all() };
  const keys = keysGiven(keyed, ids);
  const left = leftOutRows(writes, castKeys(keys));
  const read = leftOutRead(writes, left);
  const { targets, others } = await readKeyedTargets(keyed, keys, read ? [read] : []);
  await replace(writes, targets, left, others[0]);
}

/** The writes of a `hasMany` collection (not through another): `set` and `setIds`, each resolving once written. */
export function collectionWrites(slot: AssociationSlot): PropertyDescriptorMap {
  return {
    set: {
      async value(records: unknown) {
        slot.takes("set", arguments.length, 1);
        return set(writing(slot, "set"), records);
      },
    },
    setIds: {
      async value(ids: unknown) {
        slot.takes("setIds", arguments.length, 1);
        return setIds(writing(slot, "setIds"), ids);
      },
    },
  };
}
