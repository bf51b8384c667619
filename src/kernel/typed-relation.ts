/**
 * The typed face of a query: conditions, ordering, associations for `includes`, and the Relation methods typed for a
 * Model's records. Types only; below `Base`, whose statics hand these out.
 */
import type { AssignAttributes, AttributeName, ConditionScalar } from "./attribute-values.js";
import type { Comparison, OrderingOperator } from "./conditions.js";
import type { OrderDirection } from "./relation.js";
import type { SqlFragment } from "./sql.js";
import type { SqlQuery } from "./statement.js";
import type { QueryPlanStep } from "./query-plan.js";

/**
 * The comparison helpers an attribute of type `T` takes, with values of its own type: every helper on a string
 * attribute, the ordering ones (`gt`, `gte`, `lt`, `lte`, `between`) on a number or datetime attribute, none on others.
 */
export type ComparisonOf<T> = T extends string
  ? Comparison<ConditionScalar<T>>
  : T extends number | Date
    ? Comparison<ConditionScalar<T>, OrderingOperator>
    : never;

/** What a condition on an attribute of type `T` may be: a value, null, a list, or a comparison. */
export type ConditionValue<T> =
  | ConditionScalar<NonNullable<T>>
  | null
  | ReadonlyArray<ConditionScalar<NonNullable<T>> | null>
  | ComparisonOf<NonNullable<T>>;

/** A `where` object: attribute names to condition values. */
export type Conditions<A> = { [K in keyof A]?: ConditionValue<A[K]> };

/** An `order` object: attribute names to directions. */
export type Ordering<A> = { [K in keyof A]?: OrderDirection };

/** The attributes of a record type. */
export type AttributesOfRecord<R> = R extends { attributes(): infer A } ? A : never;

/** The attributes of a Model class. */
export type AttributesOfModel<M> = M extends abstract new (...args: any) => infer R ? AttributesOfRecord<R> : never;

declare const associationBrand: unique symbol;

/**
 * What the kernel knows of an association field (`hasMany`, `belongsTo`, `hasOne`): that it is one, and what
 * loading it gives (`Loaded`), so that `includes` (and a plugin's methods on associations) take association names only.
 */
export interface AssociationField<Loaded = unknown> {
  /** @internal Marks association fields apart from other members (it exists only in types). */
  readonly [associationBrand]: Loaded;
}

/** The names of the association fields of a record type `R`. */
export type AssociationName<R> = { [K in keyof R]: R[K] extends AssociationField<any> ? K : never }[keyof R] & string;

/** What loading an association field gives: the records of a `hasMany`, the record or null of a `belongsTo` or `hasOne`. */
export type LoadedAssociation<F> = F extends AssociationField<infer Loaded> ? Loaded : never;

/** The record an association field loads: a `hasMany`'s child, or the record of a `belongsTo` or `hasOne`. */
export type AssociatedRecord<F> = NonNullable<LoadedAssociation<F>> extends ReadonlyArray<infer Child> ? Child : NonNullable<LoadedAssociation<F>>;

/** What `includes` takes below an association whose records are `R`: a name, a list, or a nested object (four levels). */
export type IncludesBelow<R, Depth extends unknown[] = []> = Depth["length"] extends 4
  ? never
  : AssociationName<R> | IncludeObject<R, Depth> | ReadonlyArray<AssociationName<R> | IncludeObject<R, Depth>>;

/** An object of `includes`: association names of `R` to what to include below each, `{ posts: ["comments"] }`. */
export type IncludeObject<R, Depth extends unknown[] = []> = [AssociationName<R>] extends [never]
  ? never
  : { readonly [K in AssociationName<R>]?: IncludesBelow<AssociatedRecord<R[K]>, [...Depth, unknown]> };

/**
 * The Relation methods plugins add, for a Relation of records `R` (`this` is the Relation). Empty here: each plugin
 * declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginRelationMethods<R> {}

/**
 * What plugins add to every Relation of Model `M` that depends on the Model class itself (methods named by the Model's
 * own statics, say), each under its plugin's name. Empty here: each plugin declares its own with `declare module` (declaration merging).
 */
export interface PluginModelRelation<M> {}

/** The intersection of the members of a union: what every entry of `PluginModelRelation` adds, together. */
type AllOf<U> = (U extends unknown ? (entry: U) => void : never) extends (entry: infer I) => void ? I : never;

/** The record type of a Model class. */
export type RecordOfModel<M> = M extends abstract new (...args: any) => infer R ? R : never;

/** An immutable query for records of type `R`. */
export interface TypedRelation<R> extends PluginRelationMethods<R> {
  where(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment): this;
  whereNot(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment): this;
  order(order: Ordering<AttributesOfRecord<R>> | SqlFragment): this;
  reorder(order?: Ordering<AttributesOfRecord<R>> | SqlFragment): this;
  limit(count: number): this;
  offset(count: number): this;
  select(...names: AttributeName<AttributesOfRecord<R>>[]): this;
  distinct(): this;
  none(): this;
  /**
   * Preloads the named associations. Generic in the names so that a Relation of a subclass that redeclares an
   * association with a subclass of its target (and so has more names) still serves as the base's Relation.
   */
  includes<K extends AssociationName<R>>(...associations: Array<K | IncludeObject<R>>): this;
  toSql(): SqlQuery;
  /** SQLite's plan for this query (`EXPLAIN QUERY PLAN`): look for `SCAN <table>`, a read of every row. */
  explain(): Promise<QueryPlanStep[]>;
  toArray(): Promise<R[]>;
  find(ids: readonly unknown[]): Promise<R[]>;
  find(id: unknown): Promise<R>;
  find(first: unknown, second: unknown, ...more: unknown[]): Promise<R[]>;
  findBy(conditions: Conditions<AttributesOfRecord<R>>): Promise<R | null>;
  findByOrThrow(conditions: Conditions<AttributesOfRecord<R>>): Promise<R>;
  first(): Promise<R | null>;
  last(): Promise<R | null>;
  take(): Promise<R | null>;
  build(attributes?: AssignAttributes<AttributesOfRecord<R>>): R;
  create(attributes?: AssignAttributes<AttributesOfRecord<R>>): Promise<R>;
  createOrThrow(attributes?: AssignAttributes<AttributesOfRecord<R>>): Promise<R>;
}

/** D1's `meta` result of a write. */
export type WriteMeta = Record<string, unknown>;

/** A Relation of Model `M`: the Relation methods, typed for its records, plus what plugins add for the Model. */
export type RelationOf<M> = TypedRelation<RecordOfModel<M>> & AllOf<PluginModelRelation<M>[keyof PluginModelRelation<M>]>;
