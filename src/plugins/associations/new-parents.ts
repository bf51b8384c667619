import { abort, type BatchItem, primaryKeyOf, RecordInvalid, RecordNotSaved } from "../../kernel/index.js";
import { copyKey } from "./keys.js";
import { slotsOf } from "./registry.js";
import { ownerBuiltThrough } from "./required-parents.js";

type Owner = Record<string, any>;

/** Whether `parent` holds `child` among the records built through its associations (its save writes them). */
function writesChild(parent: Owner, child: Owner): boolean {
  return slotsOf(parent).some(([, slot]) => slot.pending.includes(child));
}

/** Parents assigned with `belongsTo` that are still new, and whose own save does not write the record anyway. */
function newParents(record: Owner): Array<{ parent: Owner; name: string; foreignKey: string; primaryKey: string }> {
  const parents = [];
  for (const [association, slot] of slotsOf(record)) {
    if (association.kind !== "belongsTo") continue;
    const parent = slot.pending[0];
    // The parent's own primary key: a polymorphic association's depends on the parent's Model.
    if (parent?.isNewRecord() && !writesChild(parent, record)) parents.push({ parent, name: association.name, foreignKey: association.foreignKey, primaryKey: primaryKeyOf(parent.constructor).name });
  }
  return parents;
}

/**
 * Whether `parent` is a sibling of `record` that their owner's save writes: the record's save must not write it again.
 * Both must still wait in the owner (a child taken out since, or written, is no longer the owner's to write).
 */
function writtenBySibling(record: Owner, parent: Owner): boolean {
  const owner = ownerBuiltThrough(record) as Owner | undefined;
  return owner !== undefined && ownerBuiltThrough(parent) === owner && writesChild(owner, parent) && writesChild(owner, record);
}

/**
 * An owner's children in the order its save writes them: a child that is another's new `belongsTo` parent (a reply
 * built with its parent comment under one link) before it, as a `REFERENCES` constraint needs.
 */
export function parentsFirst<T extends { child: Owner }>(children: T[]): T[] {
  const entryOf = new Map(children.map((entry) => [entry.child, entry]));
  const ordered = new Set<T>();
  const visit = (entry: T | undefined): void => {
    if (entry === undefined || ordered.has(entry)) return;
    ordered.add(entry);
    for (const { parent } of newParents(entry.child)) visit(entryOf.get(parent));
    ordered.delete(entry);
    ordered.add(entry);
  };
  children.forEach(visit);
  return [...ordered];
}

/**
 * A parent whose key the database assigns is saved on its own first (a level of the graph in its own round
 * trip), then the record takes its key. A refused parent refuses the record's save, as a refused child does.
 */
async function saveFirst(record: Owner, parent: Owner, foreignKey: string, primaryKey: string): Promise<void> {
  try {
    await parent.saveOrThrow();
  } catch (error) {
    if (error instanceof RecordInvalid) record.errors.add("base", "invalid", error.message);
    if (error instanceof RecordInvalid || error instanceof RecordNotSaved) throw abort(error.message);
    throw error;
  }
  copyKey(record, foreignKey, parent.readAttribute(primaryKey));
}

/**
 * Writes the new parents assigned to a record through `belongsTo` before the record itself, as Rails' autosave
 * does: in the same atomic batch when the parent's key is known before insert, else in a round trip of its own.
 */
export async function saveNewParents(record: Owner, batchBefore: BatchItem[]): Promise<void> {
  for (const { parent, name, foreignKey, primaryKey } of newParents(record)) {
    const key = parent.readAttribute(primaryKey);
    const sibling = writtenBySibling(record, parent);
    if (key === null && sibling) {
      // Its key comes with the level the record is written in: a level of its own would be one more round trip per depth.
      throw new RecordNotSaved(`${record.constructor.name}.${name}: the ${parent.constructor.name} it names is built through the same ${ownerBuiltThrough(record)!.constructor.name}, and the database assigns its key, so it has none yet: save it first`);
    }
    if (key === null) {
      await saveFirst(record, parent, foreignKey, primaryKey);
      continue;
    }
    copyKey(record, foreignKey, key);
    if (!sibling) batchBefore.push(parent.toSave());
  }
}
