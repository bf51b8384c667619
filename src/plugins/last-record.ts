import { type AnyModel, countArgument, definePlugin, installRelationChecks, IrreversibleOrder, type OrderTerm, primaryKeyOrder, type RecordOfModel, type Relation, refuseExtraArguments } from "../kernel/index.js";

/** The term read from the other end: an `sql` term only when it carries its reversed form (`orderByCount`'s). */
function reversed(term: OrderTerm, modelName: string): OrderTerm {
  if (term.kind === "sql") {
    if (term.reversed) return { kind: "sql", fragment: term.reversed, reversed: term.fragment };
    throw new IrreversibleOrder(`${modelName}: last() cannot reverse an order given as an sql fragment; use reorder() or first() with the opposite order`);
  }
  return { ...term, direction: term.direction === "asc" ? "desc" : "asc", ...(term.nulls && { nulls: term.nulls === "first" ? "last" : "first" }) };
}

/**
 * The last record: the order reversed (`IrreversibleOrder` for an sql order, whatever the rest); null if none.
 * Without an order, the last by primary key. With a `limit` or `offset`, the last of the records `toArray()` gives,
 * as reversing the order would move the window. Given a count, the last `count` records, in the Relation's order.
 */
async function last(this: Relation, ...count: unknown[]): Promise<unknown> {
  const where = `${this.model.name}.last`;
  refuseExtraArguments(where, count.length, 1);
  const many = count.length === 1 ? countArgument(where, count[0]) : undefined;
  const { order: given, limit, offset } = this.description;
  const order = given.length > 0 ? given : primaryKeyOrder(this.model);
  const reversedOrder = order.map((term) => reversed(term, this.model.name));
  if (limit !== undefined || offset !== undefined) {
    const records = await (given.length > 0 ? this : this.with({ order })).toArray();
    return many === undefined ? (records.at(-1) ?? null) : records.slice(Math.max(records.length - many, 0));
  }
  const fromTheEnd = this.with({ order: reversedOrder });
  return many === undefined ? await fromTheEnd.take() : (await fromTheEnd.take(many)).reverse();
}

/** The last record of a Relation or Model, `last()`: `first()` read from the other end. */
export const lastRecord = definePlugin({
  name: "lastRecord",
  setup: installRelationChecks,
  relationMethods: { last },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * The last record: the order reversed (`IrreversibleOrder` for an sql order), else the last by primary key; null
     * if none. With a `limit` or `offset`, the last of the records `toArray()` gives.
     */
    last(): Promise<R | null>;
    /** The last `count` records, in the Relation's order (Rails' `last(n)`). */
    last(count: number): Promise<R[]>;
  }
  interface PluginStatics<A> {
    /** `all().last()`. */
    last<M extends AnyModel>(this: M): Promise<RecordOfModel<M> | null>;
    /** `all().last(count)`: the last `count` records by primary key, in ascending order. */
    last<M extends AnyModel>(this: M, count: number): Promise<RecordOfModel<M>[]>;
  }
}
