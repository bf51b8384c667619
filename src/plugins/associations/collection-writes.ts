import {
  argumentError,
  attributeWas,
  type BatchItem,
  currentDatabase,
  databaseForBatch,
  databaseOfRecord,
  isAttributeChanged,
  previewText,
  primaryKeyOf,
  RecordNotFound,
  RecordNotSaved,
  type Relation,
  writeStoredAttribute,
} from "../../kernel/index.js";
import { notNullableKey, removalOf, removalWrites } from "./child-removal.js";
import { meetsConditions } from "./conditions-in-memory.js";
import { cachedCount, holdCount, holdCountMoved } from "./counter-cache.js";
import type { ResolvedAssociation } from "./definition.js";
import { childRows } from "./dependents.js";
import { recordsGiven } from "./given-records.js";
import { castKeys, keysGiven, readKeyedTargets } from "./keyed-targets.js";
import { copyKey, keyTexts, ownerKeys, rowKeyOf, rowKeyText } from "./keys.js";
import { detachedKeys } from "./polymorphic-type.js";
import { slotsOf } from "./registry.js";
import { markBuiltThroughOwner } from "./required-parents.js";
import type { AssociationSlot } from "./slot.js";

type Loaded = Record<string, any>;

/** What a write of a `hasMany`'s children works with: the owner, the association and the method. */
interface Writing {
  readonly owner: Loaded;
  readonly association: ResolvedAssociation;
  readonly slot: AssociationSlot;
  /** `Post.comments.setIds`, as errors name the method. */
  readonly where: string;
}

/** The write of `method` on the owner's children. */
function writing(slot: AssociationSlot, method: string): Writing {
  const { owner, association } = slot.requireOwner();
  return { owner, association, slot, where: slot.methodName(method) };
}

/**
 * The write of `method` on a saved owner's children. A new owner is refused: its rows do not exist yet for the children
 * to point at (build its children with `build`, or attach them with `add`: its save writes them).
 */
function savedOwnerWriting(slot: AssociationSlot, method: string): Writing {
  const writes = writing(slot, method);
  const model = writes.owner.constructor.name;
  if (writes.owner.isNewRecord()) throw new TypeError(`${writes.where}: the ${model} is not saved yet; save it first, or build its children with build or attach them with add`);
  return writes;
}

/** The values that make a child the owner's (see `ownerKeys`). */
function keysOfOwner({ owner, association }: Writing): Record<string, unknown> {
  return ownerKeys(association, rowKeyOf(owner, association.primaryKey));
}

/** A child's key as stored (new children have none yet): what its row is found by. */
const childKey = ({ association }: Writing, child: Loaded): unknown => rowKeyOf(child, primaryKeyOf(association.target).name);

/** Whether two records are the same row: the same record, or saved ones of the same key. */
function sameRow(one: Loaded, other: Loaded): boolean {
  return one === other || (!one.isNewRecord() && !other.isNewRecord() && rowKeyText(one) === rowKeyText(other));
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

/**
 * The refusal to take out a child whose NOT NULL foreign key `nullify` would set to NULL, naming the way out: `how`
 * the write takes it out (`left out` by a replacement, `removed`), and what else the caller may do.
 */
function notNullRefusal(writes: Writing, child: Loaded, how: string, otherwise = ""): RecordNotSaved {
  const { association, where } = writes;
  const target = association.target.name;
  return new RecordNotSaved(
    `${where}: ${target} ${previewText(childKey(writes, child))} would be ${how}, but ${target}.${notNullableKey(association)} is NOT NULL; ` +
      `give ${association.name} dependent: "destroy" or "deleteAll" to remove the children ${how}${otherwise}`,
  );
}

/**
 * Points each child at the owner (see `ownerKeys`); returns what puts back the values it changed, for a write that
 * fails to leave the children as they were.
 */
function pointAtOwner(writes: Writing, children: readonly Loaded[]): () => void {
  const values = Object.entries(keysOfOwner(writes));
  const before = children.map((child) => new Map(values.map(([name]) => [name, child.readAttribute(name)])));
  for (const child of children) for (const [name, value] of values) copyKey(child, name, value);
  return () => {
    children.forEach((child, index) => {
      for (const [name, value] of before[index]!) copyKey(child, name, value);
    });
  };
}

/** Whether a child pointed at the owner joins it by its save: a new one, or one whose row points elsewhere. */
function joinsOwner(writes: Writing, child: Loaded): boolean {
  return child.isNewRecord() || Object.keys(keysOfOwner(writes)).some((name) => isAttributeChanged(child, name));
}

/**
 * Whether a saved child's row is one of the owner's children, as last loaded or saved: it holds the owner's keys, and
 * meets the association's `scope` where memory can tell (else the statement that removes it keeps to the scope).
 */
function isChildRow(writes: Writing, child: Loaded): boolean {
  const stored = (name: string) => attributeWas(child, name);
  // By stored form, as text: a key of bytes is a new object in each record.
  const pointsAtOwner = Object.entries(keysOfOwner(writes)).every(([name, value]) => {
    const textOf = keyTexts(child.constructor, name);
    return textOf(stored(name)) === textOf(value);
  });
  return pointsAtOwner && meetsConditions(childRows(writes.owner, writes.association).description.conditions, stored) !== false;
}

/** The refusal to remove a record that is not one of the owner's children, naming it. */
function notAChild(writes: Writing, record: Loaded): RecordNotFound {
  const { owner, association, where } = writes;
  const target = association.target.name;
  const named = record.isNewRecord() ? `a new ${target} not built or added through it` : `${target} ${previewText(childKey(writes, record))}`;
  return new RecordNotFound(`${where}: ${named} is not one of this ${owner.constructor.name}'s ${association.name}`);
}

/** Sets each child's `belongsTo` back to the owner (the association's foreign key) to hold `parent`. */
function holdParent(writes: Writing, children: readonly Loaded[], parent: Loaded | null): void {
  for (const child of children) {
    for (const [association, slot] of slotsOf(child)) if (association.kind === "belongsTo" && association.foreignKey === writes.association.foreignKey) slot.remember(parent);
  }
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
  holdParent(writes, children, owner);
  holdCount(owner, association, children);
}

/** Takes `children` out of what the owner holds: the children waiting for its save, and its loaded ones (the same rows too). */
function forgetChildren(writes: Writing, children: readonly Loaded[]): void {
  const { slot } = writes;
  const kept = (held: Loaded) => !children.some((child) => sameRow(held, child));
  slot.pending.splice(0, slot.pending.length, ...slot.pending.filter(kept));
  if (slot.loaded) slot.remember((slot.value as Loaded[]).filter(kept));
}

/** Appends `children` to the loaded association, if loaded, in place of any record loaded for the same row. */
function holdAdded(writes: Writing, children: readonly Loaded[]): void {
  const { slot } = writes;
  const loaded = slot.loaded ? (slot.value as Loaded[]) : undefined;
  if (loaded) slot.remember([...loaded.filter((held) => !children.some((child) => sameRow(held, child))), ...children]);
}

/**
 * Sends `items` in ONE batch, nothing when there are none, on the owner's database (the one `withDatabase` opened,
 * else the owner's own: records given may have been read through another); a failure calls `restore` before it
 * propagates.
 */
async function writeBatch({ owner }: Writing, items: () => BatchItem[], restore: () => void): Promise<void> {
  try {
    const batch = items();
    if (batch.length > 0) await (currentDatabase() ?? databaseOfRecord(owner) ?? (await databaseForBatch(batch))).batch(batch);
  } catch (error) {
    restore();
    throw error;
  }
}

/**
 * Makes `children` the owner's and removes the others (`left`, selecting them; `read`, what `leftOutRead` read of
 * them), in ONE batch, so all of it is written or none: the removals (see `removalWrites`), then the save of each
 * child that is new or pointed elsewhere (its validations and callbacks run; one already the owner's is not touched).
 */
async function replace(writes: Writing, children: readonly Loaded[], left: Relation, read: readonly Loaded[] | undefined): Promise<void> {
  if (removalOf(writes.association) === "nullify" && read !== undefined && read.length > 0) {
    throw notNullRefusal(writes, read[0]!, "left out", ", or keep them in the list");
  }
  const removals = read?.length === 0 ? [] : await removalWrites(writes.association, left, read ?? [], writes.where);
  const restore = pointAtOwner(writes, children);
  await writeBatch(writes, () => [...removals, ...children.filter((child) => joinsOwner(writes, child)).map((child) => child.toSave())], restore);
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
  const kept = children.filter((child) => !child.isNewRecord()).map((child) => childKey(writes, child));
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

/**
 * Attaches children to a new owner, as `build` does: pointed at it (a key it does not have yet is NULL until its
 * save), they wait for its next save, which writes them in its batch with their validations and callbacks.
 */
function attachToNewOwner(writes: Writing, children: readonly Loaded[]): void {
  pointAtOwner(writes, children);
  for (const child of children) markBuiltThroughOwner(child, writes.owner);
  writes.slot.pending.push(...children.filter((child) => !writes.slot.pending.includes(child)));
  holdAdded(writes, children);
}

/**
 * `post.comments().add(...comments)` (Rails' `<<`): each record becomes a child, pointed at the owner (see
 * `ownerKeys`) and saved, its validations and callbacks run. A saved owner's are written now, in ONE batch with
 * no read (each counter cache moved in it); a refused save or the database's error writes none, and the records keep
 * the keys they had. A new owner's wait for its next save.
 */
async function add(writes: Writing, records: readonly unknown[]): Promise<void> {
  const { owner, association } = writes;
  const children = recordsGiven(writes.where, association.target, records);
  if (owner.isNewRecord()) return attachToNewOwner(writes, children);
  const before = cachedCount(owner, association);
  const restore = pointAtOwner(writes, children);
  const joining = children.filter((child) => joinsOwner(writes, child));
  await writeBatch(writes, () => children.map((child) => child.toSave()), restore);
  forgetChildren(writes, children);
  holdAdded(writes, children);
  holdParent(writes, children, owner);
  holdCountMoved(owner, association, before, joining, 1);
}

/**
 * Takes saved children out of a saved owner, in ONE batch with no read, by the association's `dependent` (see
 * `removalWrites`, each counter cache kept in it): destroyed with their callbacks, or their rows (those of the
 * association still, its `scope` kept to) deleted or unlinked by one statement, the records then holding NULL keys as
 * their rows do.
 */
async function removeRows(writes: Writing, children: readonly Loaded[]): Promise<void> {
  const { owner, association } = writes;
  const removal = removalOf(association);
  if (removal === "nullify" && notNullableKey(association) !== undefined) throw notNullRefusal(writes, children[0]!, "removed");
  const before = cachedCount(owner, association);
  const rows = childRows(owner, association).where({ [primaryKeyOf(association.target).name]: children.map((child) => childKey(writes, child)) });
  const items = await removalWrites(association, rows, children, writes.where);
  await writeBatch(writes, () => items, () => {});
  if (removal === "nullify") {
    for (const child of children) for (const name of Object.keys(detachedKeys(association))) writeStoredAttribute(child, name, null);
    holdParent(writes, children, null);
  }
  holdCountMoved(owner, association, before, children, -1);
}

/** Puts back the stored keys of saved children that waited for a new owner's save (see `attachToNewOwner`). */
function detachWaiting(writes: Writing, children: readonly Loaded[]): void {
  for (const child of children.filter((each) => !each.isNewRecord())) {
    for (const name of Object.keys(keysOfOwner(writes))) copyKey(child, name, attributeWas(child, name));
  }
}

/**
 * `post.comments().remove(...comments)` (Rails' `delete`): the children stop being the owner's. Those waiting for the
 * owner's save are only dropped from it; the saved ones are removed now (see `removeRows`). A record that is no child
 * of the owner is `RecordNotFound` naming it, before anything is written.
 */
async function remove(writes: Writing, records: readonly unknown[]): Promise<void> {
  const children = recordsGiven(writes.where, writes.association.target, records);
  const { owner, slot } = writes;
  // A saved child waiting with a saved owner is a row already (created through the association): removed as one.
  const waiting = children.filter((child) => slot.pending.includes(child) && (child.isNewRecord() || owner.isNewRecord()));
  const rows = children.filter((child) => !waiting.includes(child));
  const stranger = rows.find((child) => child.isNewRecord() || owner.isNewRecord() || !isChildRow(writes, child));
  if (stranger) throw notAChild(writes, stranger);
  if (rows.length > 0) await removeRows(writes, rows);
  detachWaiting(writes, waiting);
  forgetChildren(writes, children);
}

/** The writes of a `hasMany` collection (not through another): `add`, `remove`, `set` and `setIds`, each resolving once written. */
export function collectionWrites(slot: AssociationSlot): PropertyDescriptorMap {
  return {
    add: { value: async (...records: unknown[]) => await add(writing(slot, "add"), records) },
    remove: { value: async (...records: unknown[]) => await remove(writing(slot, "remove"), records) },
    set: {
      async value(records: unknown) {
        slot.takes("set", arguments.length, 1);
        return await set(savedOwnerWriting(slot, "set"), records);
      },
    },
    setIds: {
      async value(ids: unknown) {
        slot.takes("setIds", arguments.length, 1);
        return await setIds(savedOwnerWriting(slot, "setIds"), ids);
      },
    },
  };
}
