import { type AnyModel, definePlugin, installRelationChecks, IrreversibleOrder, type OrderTerm, primaryKeyOrder, type RecordOfModel, type Relation } from "../kernel/index.js";

function reversed(term: OrderTerm, modelName: string): OrderTerm {
  if (term.kind === "sql") throw new IrreversibleOrder(`${modelName}: last() cannot reverse an order given as an sql fragment; use reorder() or first() with the opposite order`);
  const nulls = term.nulls && (term.nulls === "first" ? "last" : "first");
  return { ...term, direction: term.direction === "asc" ? "desc" : "asc", ...(nulls ? { nulls } : {}) };
}

/**
 * The last record: the order reversed (`IrreversibleOrder` for an sql order, whatever the rest); null if none.
 * Without an order, the last by primary key. With a `limit` or `offset`, the last of the records `toArray()` gives,
 * as reversing the order would move the window.
 */
async function last(this: Relation): Promise<unknown> {
  const { order: given, limit, offset } = this.description;
  const order = given.length > 0 ? given : primaryKeyOrder(this.model);
  const reversedOrder = order.map((term) => reversed(term, this.model.name));
  if (limit !== undefined || offset !== undefined) {
    const ordered = given.length > 0 ? this : this.with({ order });
    return (await ordered.toArray()).at(-1) ?? null;
  }
  return this.with({ order: reversedOrder }).take();
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
  }
  interface PluginStatics<A> {
    /** `all().last()`. */
    last<M extends AnyModel>(this: M): Promise<RecordOfModel<M> | null>;
  }
}
