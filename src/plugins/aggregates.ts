/**
 * Rails' aggregate calculations: `sum`, `average`, `minimum` and `maximum` of one attribute over the rows a Relation
 * matches. Each is one query that reads one value.
 */
import {
  type AnyModel,
  type Attribute,
  attributeNamed,
  type AttributesOfModel,
  type AttributesOfRecord,
  compiledStatement,
  definePlugin,
  injectedName,
  joinSelect,
  type NumberAttributeName,
  type PluginTypeValue,
  prepareRelation,
  queryOfParts,
  quoteIdentifier,
  refuseExtraArguments,
  type Relation,
  reservedName,
  selectParts,
} from "../kernel/index.js";

/** The attribute names of `A` whose values are ordered (numbers, text, datetimes, a plugin's types): what `minimum` and `maximum` take. */
export type OrderedAttributeName<A> = {
  [K in keyof A]-?: [NonNullable<A[K]>] extends [string | number | Date | PluginTypeValue] ? K : never;
}[keyof A] & string;

type Aggregate = "sum" | "average" | "minimum" | "maximum";

const FUNCTIONS: Record<Aggregate, string> = { sum: "SUM", average: "AVG", minimum: "MIN", maximum: "MAX" };
const NUMBER_TYPES = new Set(["integer", "real"]);
const VALUE = reservedName("value");
const VALUE_COLUMN = injectedName("value");

/** Refuses an attribute the aggregate cannot read: sums and averages of numbers only, extremes of comparable types. */
function refuseUnaggregatable(relation: Relation, method: Aggregate, attribute: Attribute, numeric: boolean): void {
  if (numeric ? NUMBER_TYPES.has(attribute.typeName) : attribute.type.comparable) return;
  const takes = numeric ? "a number attribute (integer or real)" : "an attribute of a comparable type (number, string, datetime)";
  throw new TypeError(`${relation.model.name}.${method}: ${attribute.name} is a ${attribute.typeName}; ${method} takes ${takes}`);
}

/**
 * The SELECT of the aggregate. A Relation with `limit` or `offset` aggregates the rows `toArray()` would give, through a
 * subquery; `distinct()` aggregates the distinct values, as Rails' `distinct.sum(:x)` does.
 */
function aggregateQuery(relation: Relation, method: Aggregate, attribute: Attribute) {
  const { description, model } = relation;
  const column = quoteIdentifier(attribute.column);
  const call = (value: string) => `${FUNCTIONS[method]}(${description.distinct ? "DISTINCT " : ""}${value}) AS ${VALUE_COLUMN}`;
  const paged = description.limit !== undefined || description.offset !== undefined;
  const parts = selectParts(paged ? description : { ...description, order: [] }, model, undefined, "calculate");
  if (!paged) return queryOfParts({ ...parts, distinct: false, columns: call(column) });
  const inner = joinSelect({ ...parts, columns: `${column} AS ${VALUE_COLUMN}` });
  return { sql: `SELECT ${call(VALUE_COLUMN)} FROM (${inner})`, params: parts.params.params, sources: parts.params.sources };
}

function aggregate(method: Aggregate) {
  // The sum and the mean are numbers whatever the attribute's type; the extremes are values of the attribute's type.
  const numeric = method === "sum" || method === "average";
  // What no row gives: SQL's SUM of none is NULL, Rails' sum 0.
  const empty = method === "sum" ? 0 : null;
  return async function (this: Relation, name: string): Promise<unknown> {
    refuseExtraArguments(`${this.model.name}.${method}`, arguments.length, 1);
    const attribute = attributeNamed(this.model, name, method);
    refuseUnaggregatable(this, method, attribute, numeric);
    if (this.description.none) return empty;
    // The attribute read is the Relation's select, so that hooks see it (encrypts refuses to aggregate ciphertext).
    const pending = prepareRelation(this.select(name as never), "calculate");
    const relation = pending instanceof Promise ? await pending : pending;
    const read = (rows: Record<string, unknown>[]) => {
      const value = rows[0]?.[VALUE];
      if (value === null || value === undefined) return empty;
      return numeric ? Number(value) : attribute.type.fromDatabase(value);
    };
    return await relation.run(compiledStatement(aggregateQuery(relation, method, attribute), relation.model, read));
  };
}

/**
 * Aggregates on a Relation or Model: `sum`, `average`, `minimum` and `maximum` of one attribute, within the Relation's
 * conditions (and its `limit`, `offset` and `distinct()`), each one query.
 */
export const aggregates = definePlugin({
  name: "aggregates",
  relationMethods: Object.fromEntries(Object.keys(FUNCTIONS).map((method) => [method, aggregate(method as Aggregate)])),
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** The sum of a number attribute over the matching rows (`SUM`); 0 when none matches, NULLs left out. */
    sum(name: NumberAttributeName<AttributesOfRecord<R>>): Promise<number>;
    /** The mean of a number attribute over the matching rows (`AVG`); null when no row has a value. */
    average(name: NumberAttributeName<AttributesOfRecord<R>>): Promise<number | null>;
    /** The smallest value of an attribute among the matching rows (`MIN`); null when no row has a value. */
    minimum<K extends OrderedAttributeName<AttributesOfRecord<R>>>(name: K): Promise<NonNullable<AttributesOfRecord<R>[K]> | null>;
    /** The largest value of an attribute among the matching rows (`MAX`); null when no row has a value. */
    maximum<K extends OrderedAttributeName<AttributesOfRecord<R>>>(name: K): Promise<NonNullable<AttributesOfRecord<R>[K]> | null>;
  }

  interface PluginStatics<A> {
    /** `all().sum(name)`. */
    sum<M extends AnyModel>(this: M, name: NumberAttributeName<AttributesOfModel<M>>): Promise<number>;
    /** `all().average(name)`. */
    average<M extends AnyModel>(this: M, name: NumberAttributeName<AttributesOfModel<M>>): Promise<number | null>;
    /** `all().minimum(name)`. */
    minimum<M extends AnyModel, K extends OrderedAttributeName<AttributesOfModel<M>>>(this: M, name: K): Promise<NonNullable<AttributesOfModel<M>[K]> | null>;
    /** `all().maximum(name)`. */
    maximum<M extends AnyModel, K extends OrderedAttributeName<AttributesOfModel<M>>>(this: M, name: K): Promise<NonNullable<AttributesOfModel<M>[K]> | null>;
  }
}
