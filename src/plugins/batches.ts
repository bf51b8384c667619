/**
 * Rails' batches: `findEach` and `findInBatches` read a Relation's records a batch at a time, by primary key, each
 * batch one round trip that reads only its own rows (keyset paging: `WHERE id > <the last key> ORDER BY id LIMIT n`,
 * never an OFFSET that would read the rows before it again).
 */
import {
  type AnyModel,
  argumentError,
  countArgument,
  definePlugin,
  installRelationChecks,
  optionsArgument,
  type RecordOfModel,
  type RelationOf,
  refuseExtraArguments,
  type Relation,
} from "../kernel/index.js";

/** How `findEach` and `findInBatches` read: `batchSize` records a round trip (1,000 unless given), by primary key. */
export interface BatchOptions {
  /** Records per batch, a whole number from 1 (Rails' default, 1,000, unless given). */
  batchSize?: number;
  /** Reads by primary key ascending (the default) or descending. */
  order?: "asc" | "desc";
}

/** A record, read by attribute name (its key). */
type Keyed = { readonly [name: string]: unknown };

/** The checked options, and the Relation's own parts that paging by key cannot keep refused. */
function batchPlan(relation: Relation, method: string, given: number, options: BatchOptions | undefined) {
  const where = `${relation.model.name}.${method}`;
  refuseExtraArguments(where, given, 1);
  const { batchSize = 1000, order = "asc" } = optionsArgument(where, options, ["batchSize", "order"]);
  countArgument(`${where}: batchSize`, batchSize, 1);
  if (order !== "asc" && order !== "desc") throw argumentError(`${where}: order`, `"asc" or "desc"`, order);
  const { order: ordered, offset, distinct } = relation.description;
  // Each batch starts after the last key read: another order, an offset or distinct rows would skip or repeat rows.
  if (ordered.length > 0 || offset !== undefined || distinct) {
    throw new TypeError(`${where} reads by primary key: the Relation takes no order (reorder() removes it; give { order: "desc" }), offset or distinct()`);
  }
  return { batchSize, order };
}

/**
 * The batches of a Relation, each the records `read` gives of a page of it; its own `limit` caps the records read in
 * all. The arguments `method` was given (`given` of them) are checked at the first `next()`, which rejects with a
 * refusal as the library's other async methods do, rather than the call throwing.
 */
async function* batchesOf(
  relation: Relation,
  method: string,
  given: number,
  options: BatchOptions | undefined,
  read = (page: Relation) => page.toArray(),
): AsyncGenerator<unknown[]> {
  const { batchSize, order } = batchPlan(relation, method, given, options);
  const key = relation.model.primaryKey;
  const byKey = relation.reorder({ [key.name]: order } as never);
  let left = relation.description.limit ?? Infinity;
  let from = byKey;
  while (left > 0) {
    const size = Math.min(batchSize, left);
    const records = (await read(from.limit(size))) as Keyed[];
    if (records.length > 0) yield records;
    if (records.length < size) return;
    left -= size;
    const after = { kind: "compare", attribute: key, operator: order === "asc" ? ">" : "<", value: key.type.toDatabase(records.at(-1)![key.name]) } as const;
    from = byKey.with({ conditions: [...byKey.description.conditions, after] });
  }
}

/**
 * `findEach` and `findInBatches` on a Relation or Model: its records a batch at a time by primary key, within its
 * conditions, default scopes and `limit`, its `includes` preloaded with each batch; `inBatches`: the Relation narrowed
 * to each batch's keys.
 */
export const batches = definePlugin({
  name: "batches",
  setup: installRelationChecks,
  relationMethods: {
    findInBatches(this: Relation, options?: BatchOptions) {
      return batchesOf(this, "findInBatches", arguments.length, options);
    },
    async *inBatches(this: Relation, options?: BatchOptions) {
      const key = this.model.primaryKey.name;
      // Each batch reads its keys alone (no preload), and is the Relation narrowed to them: a write touches those rows.
      const keysOf = (page: Relation) => page.with({ includes: [] }).select(key as never).toArray();
      // Its limit was the keys' (the batches read no more rows than it allows): the keys alone narrow each batch.
      const unlimited = this.with({ limit: undefined });
      for await (const batch of batchesOf(this, "inBatches", arguments.length, options, keysOf)) {
        yield unlimited.where({ [key]: batch.map((record) => (record as Keyed)[key]) } as never);
      }
    },
    async *findEach(this: Relation, options?: BatchOptions) {
      for await (const batch of batchesOf(this, "findEach", arguments.length, options)) yield* batch;
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * The records one at a time, read `batchSize` (1,000) a round trip by primary key: `for await (const user of
     * User.where({ admin: true }).findEach()) ...`. The Relation must have no order (read by key), offset or distinct().
     */
    findEach(options?: BatchOptions): AsyncGenerator<R, void, undefined>;
    /** The records a batch (an array of up to `batchSize`) at a time, read as `findEach` reads them. */
    findInBatches(options?: BatchOptions): AsyncGenerator<R[], void, undefined>;
    /**
     * The Relation a batch at a time, each narrowed to the primary keys of up to `batchSize` rows (read as `findEach`
     * reads them, the keys alone): `for await (const batch of Post.inBatches()) await batch.updateAll({ ... })`.
     */
    inBatches(options?: BatchOptions): AsyncGenerator<this, void, undefined>;
  }
  interface PluginStatics<A> {
    /** `all().findEach(options)`. */
    findEach<M extends AnyModel>(this: M, options?: BatchOptions): AsyncGenerator<RecordOfModel<M>, void, undefined>;
    /** `all().inBatches(options)`. */
    inBatches<M extends AnyModel>(this: M, options?: BatchOptions): AsyncGenerator<RelationOf<M>, void, undefined>;
    /** `all().findInBatches(options)`. */
    findInBatches<M extends AnyModel>(this: M, options?: BatchOptions): AsyncGenerator<RecordOfModel<M>[], void, undefined>;
  }
}
