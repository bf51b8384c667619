import { type AnyModel, type AttributesOfModel, type AttributesOfRecord, type Conditions, definePlugin, installRelationChecks, type RecordOfModel, refuseExtraArguments, type Relation } from "../kernel/index.js";

/** Loads the records (every attribute, whatever `select` says: their destroy reads the row), then destroys them. */
async function destroyMatching(relation: Relation): Promise<unknown[]> {
  const records = await relation.with({ select: undefined }).toArray();
  // Nothing matched: no write, and no database needed beyond the load's (none() sends nothing at all).
  return records.length === 0 ? records : await (await relation.database()).batch(records.map((record) => record.toDestroy()));
}

/**
 * Rails' `destroy_all` and `destroy_by` on a Relation or Model: loads the matching records (one round trip), then
 * destroys them all as `batch` destroys records given as `toDestroy()`: every record's destroy callbacks and
 * dependents, in ONE atomic D1 batch. A refusal (a callback's abort, a `restrictWithError` association) rejects
 * with `RecordNotDestroyed` and a failed statement with the database's error, nothing destroyed either way.
 */
export const destroyAll = definePlugin({
  name: "destroyAll",
  setup: installRelationChecks,
  relationMethods: {
    async destroyAll(this: Relation) {
      refuseExtraArguments(`${this.model.name}.destroyAll`, arguments.length, 0, "narrow with where(...) first, or use destroyBy({ ... })");
      return await destroyMatching(this);
    },
    async destroyBy(this: Relation, conditions: object) {
      refuseExtraArguments(`${this.model.name}.destroyBy`, arguments.length, 1, "give every condition in one object");
      return await destroyMatching(this.where(conditions, "destroyBy"));
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * Destroys every matching record as `destroy()` would (callbacks, dependents), all in one atomic batch after one
     * load; resolves to the records destroyed. Rejects with `RecordNotDestroyed` when one is refused, nothing destroyed.
     */
    destroyAll(): Promise<R[]>;
    /** `where(conditions).destroyAll()`. */
    destroyBy(conditions: Conditions<AttributesOfRecord<R>>): Promise<R[]>;
  }

  interface PluginStatics<A> {
    /** `all().destroyAll()`. */
    destroyAll<M extends AnyModel>(this: M): Promise<RecordOfModel<M>[]>;
    /** `where(conditions).destroyAll()`. */
    destroyBy<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>>): Promise<RecordOfModel<M>[]>;
  }
}
