import { argumentError, type Batchable, databaseOfRecord, type Database, refuseExtraArguments } from "../../kernel/index.js";
import { assignParentsByName } from "./assigned-parents.js";
import { blankForeignKeyAsNull } from "./blank-keys.js";
import { dependentsBeforeDelete, planDependentReads, prepareDependentTargets } from "./dependents.js";
import type { PluginWork } from "./installation.js";
import { copyKey } from "./keys.js";
import { parentsFirst, saveNewParents } from "./new-parents.js";
import { planPreloads } from "./preload.js";
import { preparePreloads } from "./preload-targets.js";
import { replaceSavedChildren } from "./replace-child.js";
import { validatePolymorphicTypes } from "./polymorphic-type.js";
import { validateRequiredParents } from "./required-parents.js";
import { associationsOf, slotsOf } from "./registry.js";
import { serializeWithAssociations } from "./serialization.js";

type Owner = Record<string, any>;

function attach(record: Owner): void {
  for (const [association, slot] of slotsOf(record)) slot.attach(record, association);
}

/** Children built through the owner's associations, whose foreign key takes the owner's key. */
function pendingChildren(record: Owner): Array<{ child: Owner; foreignKey: string; key: unknown }> {
  const children = [];
  for (const [association, slot] of slotsOf(record)) {
    if (association.kind === "belongsTo") continue;
    // The key the record's own write leaves (not the stored one): the children's inserts follow it in the batch.
    const key = record.readAttribute(association.primaryKey);
    for (const child of slot.pending) children.push({ child, foreignKey: association.foreignKey, key });
  }
  return children;
}

function clearPending(record: Owner): void {
  for (const [, slot] of slotsOf(record)) slot.pending.length = 0;
}

/** Records saved as one level of a graph with database-assigned keys: the next level is written for them all. */
const savedInLevel = new WeakSet<object>();

/** The checked save of each child waiting for its owner's database-assigned key, made with the owner's next levels. */
const lateWrites = new WeakMap<object, Batchable>();

/**
 * Children still waiting for their owner's database-assigned key, which they take now: those built through the owner,
 * and saved records `add` attached to it.
 */
function takeLateChildren(owner: Owner): Owner[] {
  const late = parentsFirst(pendingChildren(owner)).filter(({ child, foreignKey }) => child.readAttribute(foreignKey) === null);
  for (const { child, foreignKey, key } of late) copyKey(child, foreignKey, key);
  return late.map(({ child }) => child);
}

/** The checked save of a late child (its validations and before-callbacks ran with the owner's); used once. */
function lateWriteOf(child: Owner): Batchable {
  const write = lateWrites.get(child) ?? child.toSave();
  lateWrites.delete(child);
  return write;
}

/**
 * Database-assigned keys: the children learn their owner's key only once it is written, so each level of the graph
 * below the record goes in a batch of its own, after the level above, all of a level's children in one batch. Their
 * checks ran with the record's save, before anything was written. A level the database refuses is put back as it
 * was and stays attached, with everything below it, so that saving the record again writes it; the levels above
 * stay written.
 */
async function saveLevelsBelow(record: Owner): Promise<void> {
  const database = databaseOfRecord(record) as Database;
  const written = [record];
  for (let level = takeLateChildren(record); level.length > 0; level = level.flatMap(takeLateChildren)) {
    for (const child of level) savedInLevel.add(child);
    try {
      await database.batch(level.map(lateWriteOf));
    } finally {
      for (const child of level) savedInLevel.delete(child);
    }
    written.push(...level);
  }
  for (const owner of written) clearPending(owner);
}

/** `record.reloadAssociation(name)`: loads the association again, forgetting what it held and what waited to be saved. */
async function reloadAssociation(this: Owner, name: string): Promise<unknown> {
  refuseExtraArguments(`${this.constructor.name}.reloadAssociation`, arguments.length, 1);
  if (typeof name !== "string") throw argumentError(`${this.constructor.name}.reloadAssociation`, "an association name", name);
  const association = associationsOf(this.constructor as Function).get(name);
  if (!association) throw new TypeError(`${this.constructor.name} has no association ${name}`);
  const field = this[name];
  if (association.kind !== "hasMany") return field.reload();
  slotsOf(this).find(([candidate]) => candidate.name === name)![1].discard();
  return field().toArray();
}

/** `record.asJson({ include })`: its JSON with the loaded associations named nested. */
function asJson(this: Owner, options: { include?: never } = {}): Record<string, unknown> {
  return serializeWithAssociations(this as never, options.include);
}

/**
 * What the `associations` plugin does (see plugin.ts), for the Models that declare associations: slots attached to
 * each record, children and new parents saved with it, dependents destroyed with it, preloads planned in its batch.
 */
export const associationWork: PluginWork = {
  appliesTo: (model) => associationsOf(model).size > 0,
  methods: { reloadAssociation, asJson },
  hooks: {
    "record:initialize": ({ record }) => attach(record),
    "record:assign": assignParentsByName,
    "attribute:input": blankForeignKeyAsNull,
    "record:hydrate": ({ record }) => attach(record),
    "record:validate"({ record }) {
      validateRequiredParents(record);
      validatePolymorphicTypes(record);
    },
    async "record:beforeWrite"({ record, batch, batchBefore, later }) {
      for (const { child, foreignKey, key } of parentsFirst(pendingChildren(record))) {
        if (key === null) {
          // Written after the record, once its key is known; checked now, so that a refusal writes nothing.
          const write = child.toSave();
          lateWrites.set(child, write);
          later.push(write);
          continue;
        }
        copyKey(child, foreignKey, key);
        batch.push(child.toSave());
      }
      await replaceSavedChildren(record, batchBefore);
      await saveNewParents(record, batchBefore);
    },
    "record:afterSave"({ record }) {
      if (savedInLevel.has(record)) return;
      if (pendingChildren(record).length === 0) return clearPending(record);
      return saveLevelsBelow(record);
    },
    "record:beforeDestroy": prepareDependentTargets,
    "record:planDestroy": planDependentReads,
    "record:beforeDelete": dependentsBeforeDelete,
    "relation:preparePlan": preparePreloads,
    "relation:plan": planPreloads,
  },
};
