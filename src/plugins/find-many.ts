import { type AnyModel, CastError, comparableStored, definePlugin, previewList, previewValue, readAsCondition, type RecordOfModel, RecordNotFound, refuseUnfitValue, type Relation } from "../kernel/index.js";

type FindOne = (this: Relation, ...ids: unknown[]) => Promise<unknown>;

/**
 * An id as the primary key's conditions store it (`"1"` is 1 on an integer key), comparable (bytes by their content);
 * undefined when it cannot be one.
 */
function storedKey(relation: Relation, id: unknown): unknown {
  const key = relation.model.primaryKey;
  const cast = id === null ? undefined : readAsCondition(relation.model.model, key.name, id);
  return cast === undefined ? undefined : comparableStored(key.type.toDatabase(cast));
}

function assertFound(relation: Relation, missingIds: readonly unknown[]): void {
  const { name, primaryKey: key } = relation.model;
  if (missingIds.length > 0) throw new RecordNotFound(`${name}: no records with ${key.name} ${previewList(missingIds, (id) => previewValue(key, id))}`);
}

/**
 * Wraps the kernel's `find`: one id that is not an object (the hot path) goes straight to it, whose checks it keeps,
 * with no promise of its own around it; anything else (a list or several ids) is checked before anything looks inside
 * it, then found in one query, the records in the order of the ids, each once (`RecordNotFound` naming those missing).
 */
function wrapFind(findOne: FindOne): FindOne {
  return function find(this: Relation, ...ids: unknown[]): Promise<unknown> {
    const [id] = ids;
    if (ids.length === 1 && (typeof id !== "object" || id === null)) return findOne.call(this, id);
    return findList(this, ids, findOne);
  };
}

async function findList(relation: Relation, ids: unknown[], findOne: FindOne): Promise<unknown> {
  const key = relation.model.primaryKey;
  const where = `${relation.model.name}.find: ${key.name}`;
  const target = { model: relation.model.model, attribute: key.name };
  // Before anything looks inside: a revoked Proxy fails even Array.isArray.
  for (const id of ids) refuseUnfitValue(where, id, target);
  if (ids.length === 0 || (ids.length === 1 && !Array.isArray(ids[0]))) return await findOne.call(relation, ...ids);
  const list = ids.length === 1 ? (ids[0] as unknown[]) : ids;
  if (list !== ids) for (const id of list) refuseUnfitValue(where, id, target);
  if (list.includes(undefined)) throw new CastError(`${relation.model.name}.find: an id is undefined`, target.model, target.attribute, list);
  const stored = list.map((id) => storedKey(relation, id));
  assertFound(relation, list.filter((_, index) => stored[index] === undefined));
  const records = (await relation.where({ [key.name]: list }).toArray()) as Record<string, unknown>[];
  const byKey = new Map(records.map((record) => [storedKey(relation, record[key.name]), record]));
  assertFound(relation, list.filter((_, index) => !byKey.has(stored[index])));
  // As Rails makes the ids unique: a record found twice would be two names for one row.
  return [...new Set(stored)].map((id) => byKey.get(id));
}

/** Finding several records by primary key at once: `find([id, ...])` and `find(id, id, ...)`. */
export const findMany = definePlugin({
  name: "findMany",
  wrap: { relation: { find: wrapFind } },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** The records with these primary keys, in the order of the ids, each once (`RecordNotFound` naming those missing). */
    find(ids: readonly unknown[]): Promise<R[]>;
    /** The records with these primary keys, in the order of the ids, each once (`RecordNotFound` naming those missing). */
    find(first: unknown, second: unknown, ...more: unknown[]): Promise<R[]>;
  }

  interface PluginStatics<A> {
    /** `all().find(ids)`: the records with these primary keys, in the order of the ids, each once. */
    find<M extends AnyModel>(this: M, ids: readonly unknown[]): Promise<RecordOfModel<M>[]>;
    /** `all().find(first, second, ...more)`: the records with these primary keys, in the order of the ids, each once. */
    find<M extends AnyModel>(this: M, first: unknown, second: unknown, ...more: unknown[]): Promise<RecordOfModel<M>[]>;
  }
}
