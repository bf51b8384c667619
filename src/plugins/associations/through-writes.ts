import { argumentError, type BatchItem, column, databaseForBatch, defaultScopesOf, previewText, RecordNotFound, RecordNotSaved, Relation, relationOf, sql } from "../../kernel/index.js";
import { writeChildren } from "./child-writes.js";
import { hasOtherDestroyHooks } from "./dependent-tree.js";
import { recordsGiven } from "./given-records.js";
import { keysGiven, readKeyedTargets } from "./keyed-targets.js";
import { rowKeyOf } from "./keys.js";
import type { AssociationSlot } from "./slot.js";
import { type Hop, leadingTo, leadsTo } from "./through-hops.js";
import { keysOf, throughRelation } from "./through-relation.js";
import { slotNamed, type ThroughSlot } from "./through-slot.js";

type Loaded = Record<string, any>;

/** What a write through an association works with: the owner, the join rows' hop and the source's. */
interface Writing {
  readonly owner: Loaded;
  readonly slot: ThroughSlot;
  /** `Post.taggings`: the owner's join rows. */
  readonly join: Hop;
  /** `Tagging.tag`: the join row's key of the target. */
  readonly source: Hop;
  /** `Post.tags.add`, as errors name the method. */
  readonly where: (method: string) => string;
}

/**
 * The hops of a through association that writes its join rows: a `hasMany` of the owner's own, then a `belongsTo`
 * source on the join Model; else, as Rails, the association is read-only (a through a through, or one whose join
 * row does not hold the target's key).
 */
function writing(slot: ThroughSlot, method: string): Writing {
  const { owner, association } = slot.requireOwner();
  const where = (name: string) => slot.methodName(name);
  const hops = slot.hops();
  const [join, source] = hops;
  if (hops.length !== 2 || join!.association.kind !== "hasMany" || source!.association.kind !== "belongsTo") {
    throw new TypeError(`${where(method)}: ${association.name} is read-only: only a hasMany through a hasMany whose source is a belongsTo writes its join rows`);
  }
  return { owner, slot, join: join!, source: source!, where };
}

/** The target key a join row holds, or that a target's join row would hold. */
const targetKey = (writes: Writing, target: Loaded) => rowKeyOf(target, writes.source.theirKey);
const keyHeld = (writes: Writing, join: Loaded) => join.readAttribute(writes.source.ownKey);

/**
 * The owner's join-row association: its slot, its Relation (`post.taggings()`, which builds join rows), and the
 * owner's join rows that reach targets (for a `sourceType` source, those of its type).
 */
function joins(writes: Writing): { slot: AssociationSlot | undefined; owned: () => Relation; rows: () => Relation } {
  const name = writes.join.association.name;
  const owned = () => writes.owner[name]() as Relation;
  return { slot: slotNamed(writes.owner, name), owned, rows: () => leadingTo(owned(), writes.source) };
}

/**
 * The owner's join rows that `set` replaces: those to the targets the association reaches (as Rails replaces the
 * loaded targets): a join row to a target outside its `scope`, hidden by the target's default scopes or of another
 * tenant stays. Where the targets are loaded, `inReach` tells them apart in memory, and the join rows are read as
 * they are (from memory too, where loaded).
 */
function replacedJoins(writes: Writing): Relation {
  const rows = joins(writes).rows();
  if (!narrowsTargets(writes) || writes.slot.loaded) return rows;
  const { owner, association } = writes.slot.requireOwner();
  return rows.where(sql`${column(writes.source.ownKey)} IN ${keysOf(throughRelation(owner, association), writes.source.theirKey)}`);
}

/**
 * Whether the association may reach fewer targets than its join rows hold: a `scope`, or a target Model whose queries
 * leave rows out (a default scope, soft delete's too, or a plugin's condition, a tenant's).
 */
function narrowsTargets(writes: Writing): boolean {
  const { association } = writes.slot.requireOwner();
  return association.options.scope !== undefined || defaultScopesOf(association.target).length > 0 || relationOf(association.target).model.hooks.has("relation:where");
}

/** Of the join rows `replacedJoins` read, those to the targets the association reaches (see there). */
function inReach(writes: Writing, read: readonly Loaded[]): readonly Loaded[] {
  if (!narrowsTargets(writes) || !writes.slot.loaded) return read;
  const reached = new Set((writes.slot.value as Loaded[]).map((target) => targetKey(writes, target)));
  return read.filter((join) => reached.has(keyHeld(writes, join)));
}

/** Builds the join row of each target through the owner's join association (a new owner's save writes it). */
function buildJoins(writes: Writing, targets: readonly Loaded[]): Loaded[] {
  return targets.map((target) => {
    const join = (joins(writes).owned() as Relation & { build(): Loaded }).build();
    join[writes.source.association.name].set(target);
    return join;
  });
}

/** Takes join rows out of what the owner holds: those waiting for its save, and its loaded join rows. */
function forgetJoins(writes: Writing, dropped: (join: Loaded) => boolean): void {
  const slot = joins(writes).slot!;
  const kept = slot.pending.filter((join) => !dropped(join));
  slot.pending.splice(0, slot.pending.length, ...kept);
  if (slot.loaded) slot.remember((slot.value as Loaded[]).filter((join) => !dropped(join)));
}

/** Runs a write batch of the owner's; join rows built for it leave the owner's pending writes whatever the outcome. */
async function run(writes: Writing, items: readonly BatchItem[], built: readonly Loaded[]): Promise<void> {
  const slot = joins(writes).slot!;
  const pending = () => slot.pending.filter((join) => !built.includes(join));
  try {
    if (items.length > 0) await (await databaseForBatch(items)).batch(items);
  } catch (error) {
    forgetJoins(writes, (join) => built.includes(join));
    throw error;
  }
  slot.pending.splice(0, slot.pending.length, ...pending());
}

/**
 * `post.tags().add(tag, ...)` (Rails' `<<`): a join row for each target, built through `post.taggings` with its
 * validations and callbacks. A new owner's save writes them in its batch; a saved owner's are written now, in one
 * batch (a new target saved with its join row), and the refusal of any writes none of them.
 */
async function add(writes: Writing, targets: readonly Loaded[]): Promise<void> {
  const built = buildJoins(writes, targets);
  writes.slot.changeLoaded((loaded) => [...loaded, ...targets.filter((target) => !loaded.some(isAmong(writes, [target])))]);
  if (writes.owner.isNewRecord()) return;
  try {
    await run(writes, built.map((join) => join.toSave()), built);
  } catch (error) {
    writes.slot.changeLoaded((loaded) => loaded.filter((target) => !built.some((join) => join[writes.source.association.name].get() === target)));
    throw error;
  }
}

/** The keys of the saved ones of `targets`. */
const savedKeys = (writes: Writing, targets: readonly Loaded[]) => new Set(targets.filter((target) => !target.isNewRecord()).map((target) => targetKey(writes, target)));

/** Whether a target is one of `targets`: the same record, or one loaded for the same row. */
function isAmong(writes: Writing, targets: readonly Loaded[]): (target: Loaded) => boolean {
  const keys = savedKeys(writes, targets);
  return (target) => targets.includes(target) || (!target.isNewRecord() && keys.has(targetKey(writes, target)));
}

/** Whether a join row links one of `targets`: the same record, or the row of its key. */
function linksAny(writes: Writing, targets: readonly Loaded[]): (join: Loaded) => boolean {
  const keys = savedKeys(writes, targets);
  const source = writes.source.association.name;
  return (join) => leadsTo(join, writes.source) && ((join[source].isLoaded && targets.includes(join[source].get())) || keys.has(keyHeld(writes, join)));
}

/**
 * The refusal to remove targets the owner does not link: `RecordNotFound` naming the first of `targets` whose key is
 * not among `linked` (a new one is linked by no row), as a plain `hasMany`'s `remove` names a record not its child.
 */
function notLinked(writes: Writing, targets: readonly Loaded[], linked: readonly unknown[]): RecordNotFound {
  const { owner, association } = writes.slot.requireOwner();
  const stranger = targets.find((target) => target.isNewRecord() || !linked.includes(targetKey(writes, target)))!;
  const named = stranger.isNewRecord() ? `a new ${association.target.name} not built or added through it` : `${association.target.name} ${previewText(targetKey(writes, stranger))}`;
  return new RecordNotFound(`${writes.where("remove")}: ${named} is not one of this ${owner.constructor.name}'s ${association.name}`);
}

/**
 * Deletes the saved owner's join rows to `targets`, each of which it must link: one DELETE when the join Model has no
 * destroy callbacks (planned, so a counter cache on the join Model takes the rows off their parents in its batch),
 * made only where every target has its row, so that nothing is deleted when one has none; else its records are read,
 * then destroyed, their callbacks run, in one batch. `RecordNotFound` for a target not linked, with nothing written.
 */
async function removeRows(writes: Writing, targets: readonly Loaded[]): Promise<void> {
  const { ownKey } = writes.source;
  const keys = [...savedKeys(writes, targets)];
  const rows = joins(writes).rows().where({ [ownKey]: keys });
  const held = (found: readonly Loaded[]) => found.map((join) => keyHeld(writes, join));
  if (!hasOtherDestroyHooks(rows.model.model)) {
    const whole = rows.where(sql`(SELECT count(DISTINCT ${column(ownKey)}) FROM ${keysOf(rows, ownKey)}) = ${keys.length}`);
    const deletion = await writeChildren(whole, "deleteDependents");
    const [deleted] = await (await databaseForBatch([deletion])).batch([deletion]);
    // Found out only now, at the cost of a read: a remove of linked targets is one round trip.
    if (deleted === 0) throw notLinked(writes, targets, held(await rows.toArray()));
    return;
  }
  const found: Loaded[] = await rows.toArray();
  if (new Set(held(found)).size < keys.length) throw notLinked(writes, targets, held(found));
  await run(writes, found.map((join) => join.toDestroy()), []);
}

/**
 * `post.tags().remove(tag, ...)` (Rails' `delete`): the owner stops linking the targets, never removing them. A
 * target linked by a join row waiting for the owner's save (`build`, or `add` to a new owner) is only dropped from
 * it; the saved owner's join rows to the others are deleted (see `removeRows`). A target the owner does not link is
 * `RecordNotFound` naming it, before anything is written.
 */
async function remove(writes: Writing, targets: readonly Loaded[]): Promise<void> {
  const pending = joins(writes).slot?.pending ?? [];
  const rowsOnly = targets.filter((target) => !pending.some(linksAny(writes, [target])));
  if (rowsOnly.length > 0 && (writes.owner.isNewRecord() || rowsOnly.some((target) => target.isNewRecord()))) throw notLinked(writes, rowsOnly, []);
  if (rowsOnly.length > 0) await removeRows(writes, rowsOnly);
  const among = isAmong(writes, targets);
  forgetJoins(writes, linksAny(writes, targets));
  writes.slot.changeLoaded((loaded) => loaded.filter((target) => !among(target)));
}

/**
 * `post.tags().set([...])` (Rails' `tags=`): the join rows become those of `targets`. A saved owner's join rows are
 * read, then the difference written in one batch: the rows to targets left out destroyed (their callbacks run), a
 * row built for each new target; the rows kept are not touched.
 */
async function set(writes: Writing, targets: readonly Loaded[], current?: readonly Loaded[]): Promise<void> {
  if (writes.owner.isNewRecord()) {
    forgetJoins(writes, () => true);
    writes.slot.changeLoaded(() => []);
    return await add(writes, targets);
  }
  const existing = inReach(writes, current ?? (await replacedJoins(writes).toArray()));
  const wanted = new Set(targets.filter((target) => !target.isNewRecord()).map((target) => targetKey(writes, target)));
  const dropped = existing.filter((join) => !wanted.has(keyHeld(writes, join)));
  const held = new Set(existing.map((join) => keyHeld(writes, join)));
  const built = buildJoins(writes, targets.filter((target) => target.isNewRecord() || !held.has(targetKey(writes, target))));
  forgetJoins(writes, (join) => !join.isNewRecord() && leadsTo(join, writes.source) && !wanted.has(keyHeld(writes, join)));
  writes.slot.changeLoaded(() => [...targets]);
  await run(writes, [...dropped.map((join) => join.toDestroy()), ...built.map((join) => join.toSave())], built);
}

/**
 * `post.tags().setIds([...])` (Rails' `tag_ids=`): `set` with the targets of these keys, read in one batch with the
 * owner's join rows (see `readKeyedTargets`: a key with no row is `RecordNotFound` before anything is written).
 */
async function setIds(writes: Writing, ids: unknown): Promise<void> {
  const { association } = writes.slot.requireOwner();
  // As Rails' ids writer: the target Model's rows of those keys, whatever the association's scope.
  const keyed = { where: writes.where("setIds"), target: association.target, keyName: writes.source.theirKey, all: writes.slot.targetModel().all() };
  const { targets, others } = await readKeyedTargets(keyed, keysGiven(keyed, ids), writes.owner.isNewRecord() ? [] : [replacedJoins(writes)]);
  return await set(writes, targets, others[0]);
}

/**
 * `post.tags().build(attributes)`: a new target with its join row, built through `post.taggings`; the owner's next
 * save writes both, new or saved owner alike, in its batch (the target first, in a round trip of its own when the
 * database assigns its key). It starts with the equality conditions of the association's `scope`, as in Rails.
 */
function build(writes: Writing, attributes: object): Loaded {
  const target = newTarget(writes, attributes);
  buildJoins(writes, [target]);
  writes.slot.changeLoaded((loaded) => [...loaded, target]);
  return target;
}

/**
 * A new target, starting with the equality conditions of the association's `scope`. Built by the Relation's own
 * `build`, not its wrapped one, as a plain `hasMany` builds: the default scope's attributes are then those of the
 * Relation the app built from (none after `post.tags().unscoped()`), not those of the target's Relation made here.
 */
function newTarget(writes: Writing, attributes: object): Loaded {
  const { scope } = writes.slot.requireOwner().association.options;
  const all = writes.slot.targetModel().all();
  return Relation.prototype.build.call(scope ? (scope(all) as Relation) : all, attributes);
}

/**
 * `post.tags().create(attributes)` (Rails' create): a new target written now with its join row, as `add` writes them.
 * A new owner is refused, as Rails refuses it: `build` attaches to it. A target its own validations or callbacks
 * refuse is answered unsaved (`createOrThrow` throws), and nothing is written; any other refusal throws.
 */
async function create(writes: Writing, attributes: object, method: string): Promise<Loaded> {
  if (writes.owner.isNewRecord()) throw new RecordNotSaved(`${writes.where(method)}: the ${writes.owner.constructor.name} is not saved yet; save it first, or build the target with build (its save writes both)`);
  const target = newTarget(writes, attributes);
  try {
    await add(writes, [target]);
  } catch (error) {
    const refusedTarget = !target.errors.isEmpty() || target.abortReason !== undefined;
    if (method === "createOrThrow" || !refusedTarget) throw error;
  }
  return target;
}

/** Runs a write of the targets given to `method`, once they are checked. */
function withTargets(slot: ThroughSlot, method: string, targets: readonly unknown[], write: (writes: Writing, targets: readonly Loaded[]) => Promise<void>) {
  const writes = writing(slot, method);
  return write(writes, recordsGiven(writes.where(method), writes.slot.requireOwner().association.target, targets));
}

/** The write methods of a through collection: `add`, `remove`, `set` and `setIds`, each resolving once written, and `build`. */
export function throughWrites(slot: ThroughSlot): PropertyDescriptorMap {
  return {
    add: { value: async (...targets: unknown[]) => await withTargets(slot, "add", targets, add) },
    remove: { value: async (...targets: unknown[]) => await withTargets(slot, "remove", targets, remove) },
    set: {
      async value(targets: unknown) {
        slot.takes("set", arguments.length, 1);
        if (Array.isArray(targets)) return await withTargets(slot, "set", targets, (writes, checked) => set(writes, checked));
        throw argumentError(writing(slot, "set").where("set"), `a list of records of ${slot.requireOwner().association.target.name}`, targets);
      },
    },
    setIds: {
      async value(ids: unknown) {
        slot.takes("setIds", arguments.length, 1);
        return await setIds(writing(slot, "setIds"), ids);
      },
    },
    build: {
      value(attributes: object = {}) {
        slot.takes("build", arguments.length, 1);
        return build(writing(slot, "build"), attributes);
      },
    },
    ...Object.fromEntries(
      ["create", "createOrThrow"].map((method) => [
        method,
        {
          async value(attributes: object = {}) {
            slot.takes(method, arguments.length, 1);
            return await create(writing(slot, method), attributes, method);
          },
        },
      ]),
    ),
  };
}
