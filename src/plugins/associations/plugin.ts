import {
  type AnyModel,
  type AssociationName,
  type Batchable,
  databaseOfRecord,
  definePlugin,
  installRelationChecks,
  type Database,
  type IncludeObject,
  type IncludesBelow,
  type IncludeSpec,
  includePaths,
  type JsonAttributes,
  type LoadedAssociation,
  type RecordOfModel,
  type Relation,
  type RelationOf,
} from "../../kernel/index.js";
import { blankForeignKeyAsNull } from "./blank-keys.js";
import { planSetBasedAlike } from "./dependent-tree.js";
import { dependentsBeforeDelete, planDependentReads, prepareDependentTargets } from "./dependents.js";
import { copyKey } from "./keys.js";
import { saveNewParents } from "./new-parents.js";
import { planPreloads } from "./preload.js";
import { preparePreloads } from "./preload-targets.js";
import { replaceSavedChildren } from "./replace-child.js";
import { validatePolymorphicTypes } from "./polymorphic-type.js";
import { validateRequiredParents } from "./required-parents.js";
import { associationsOf, slotsOf } from "./registry.js";
import { serializeWithAssociations } from "./serialization.js";

/** The associations `asJson({ include })` nests: what `includes` takes (a name, a list, a nested object). */
export type JsonInclude<R> = IncludesBelow<R>;

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

/** Children still waiting for their owner's database-assigned key, which they take now. */
function takeLateChildren(owner: Owner): Owner[] {
  const late = pendingChildren(owner).filter(({ child, foreignKey }) => child.isNewRecord() && child.readAttribute(foreignKey) === null);
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

/**
 * Preloads the named associations of the loaded records in the batch of their query; an object names what to
 * include below an association: `includes("user", { posts: ["comments"] })`.
 */
function includes<R extends Relation>(this: R, ...names: IncludeSpec[]): R {
  const paths = includePaths(`${this.model.name}.includes`, names, "");
  return this.with({ includes: [...new Set([...this.description.includes, ...paths])] });
}

/**
 * Associations: `hasMany`, `hasOne` and `belongsTo` declared as instance fields. Children built through an
 * association are saved with their owner in one atomic batch when the owner's key is known before insert (text
 * keys); with database-assigned keys, each level is written in its own batch after the owner. `dependent`
 * strategies run after every before-destroy callback, in the owner's destroy batch. `includes` preloads every
 * association it names, nested ones too, in the batch of the Relation's own SELECT: one round trip, and a second
 * one for the owners whose keys a preload's subquery did not choose (a query SQLite may answer otherwise).
 */
export const associations = definePlugin({
  name: "associations",
  setup(base: { prototype: Record<string, unknown> }) {
    installRelationChecks();
    // Preparing a tree's targets needs no records: a tree stays set-based.
    planSetBasedAlike(prepareDependentTargets);
    base.prototype["reloadAssociation"] = async function reloadAssociation(this: Owner, name: string) {
      const association = associationsOf(this.constructor as Function).get(name);
      if (!association) throw new TypeError(`${this.constructor.name} has no association ${name}`);
      const field = this[name];
      if (association.kind !== "hasMany") return field.reload();
      slotsOf(this).find(([candidate]) => candidate.name === name)![1].discard();
      return field().toArray();
    };
    base.prototype["asJson"] = function asJson(this: Owner, options: { include?: never } = {}) {
      return serializeWithAssociations(this as never, options.include);
    };
  },
  relationMethods: { includes },
  appliesTo: (model: Function) => associationsOf(model).size > 0,
  hooks: {
    "record:initialize": ({ record }) => attach(record),
    "attribute:input": blankForeignKeyAsNull,
    "record:hydrate": ({ record }) => attach(record),
    "record:validate"({ record }) {
      validateRequiredParents(record);
      validatePolymorphicTypes(record);
    },
    async "record:beforeWrite"({ record, batch, batchBefore, later }) {
      for (const { child, foreignKey, key } of pendingChildren(record)) {
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
});

declare module "../../kernel/index.js" {
  interface PluginRecordMethods<A> {
    /** Loads an association again (one declared with `hasMany`, `hasOne` or `belongsTo`); resolves to what it holds. */
    reloadAssociation<K extends AssociationName<this>>(name: K): Promise<LoadedAssociation<this[K]>>;
    /**
     * `toJSON()` with the loaded associations named in `include` nested (`asJson({ include: ["user", { comments:
     * ["user"] }] })`); hidden attributes stay out. An included association that is not loaded throws
     * `AssociationNotLoaded`: nothing is queried.
     */
    asJson<const I extends JsonInclude<this>>(options?: { include?: I }): Partial<JsonAttributes<A>> & Record<string, unknown>;
  }

  interface PluginRelationMethods<R> {
    /**
     * Preloads the named associations (an object names those below them) in the batch of the query: one round trip,
     * two when SQLite's second run of the query (ties or `random()` under a limit) chose other rows than it returned.
     * Generic in the names so that a Relation of a subclass that redeclares an association with a subclass of its
     * target (and so has more names) still serves as the base's Relation.
     */
    includes<K extends AssociationName<R>>(...associations: Array<K | IncludeObject<R>>): this;
  }

  interface PluginStatics<A> {
    /**
     * Preloads the named associations (an object names those below them) in the batch of the query: one round trip,
     * two when SQLite's second run of the query (ties or `random()` under a limit) chose other rows than it returned.
     */
    includes<M extends AnyModel>(this: M, ...associations: Array<AssociationName<RecordOfModel<M>> | IncludeObject<RecordOfModel<M>>>): RelationOf<M>;
  }
}
