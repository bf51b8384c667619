/**
 * What a query takes, typed for a record's attributes: conditions, comparisons, ordering, and the attributes and
 * records of a Model. Types only; below `Relation`, whose methods are declared with them.
 */
import type { AssignAttributes, ComparisonScalar, ConditionScalar, PluginTypeValue } from "../records/attribute-values.js";
import type { Comparison, OrderingOperator } from "../sql/conditions.js";

/**
 * The comparison helpers an attribute of type `T` takes, with values of its own type (`ComparisonScalar`): every
 * helper on a string attribute, the ordering ones (`gt`, `gte`, `lt`, `lte`, `between`) on a number or datetime
 * attribute and on one of a type a plugin added (refused at run time unless the type is `comparable`), none on others.
 */
export type ComparisonOf<T> = T extends string
  ? Comparison<ComparisonScalar<T>>
  : T extends number | Date | PluginTypeValue
    ? Comparison<ComparisonScalar<T>, OrderingOperator>
    : never;

/** What a condition on an attribute of type `T` may be: a value, null, a list, or a comparison. */
export type ConditionValue<T> =
  | ConditionScalar<NonNullable<T>>
  | null
  | ReadonlyArray<ConditionScalar<NonNullable<T>> | null>
  | ComparisonOf<NonNullable<T>>;

/** A `where` object: attribute names to condition values. */
export type Conditions<A> = { [K in keyof A]?: ConditionValue<A[K]> };

declare const conditionBrand: unique symbol;

/**
 * A record field that a `where` object also takes by its name, with a value `V` (a `belongsTo` field takes its
 * target's records): the field's type extends it, so that the kernel types such conditions without knowing the
 * plugin that declares the field.
 */
export interface ConditionField<V> {
  /** @internal Marks the fields conditions take (it exists only in types). */
  readonly [conditionBrand]: V;
}

/** What a `ConditionField` takes: a value, null, or a list of them; nothing for any other field. */
export type FieldCondition<F> = F extends ConditionField<infer V> ? V | null | ReadonlyArray<V | null> : never;

/**
 * A `where` object `C` checked for records `R`: each key an attribute, with its condition value, or a
 * `ConditionField` of the records, with what it takes. Generic in the object given, so that a record's fields are
 * looked into only for the keys given that are no attribute: a Relation compared with another, or a condition on
 * attributes alone (in an association's scope of a Model that refers back to it), needs no field's type.
 */
export type RecordConditions<R, C> = {
  [K in keyof C]: K extends keyof AttributesOfRecord<R> ? ConditionValue<AttributesOfRecord<R>[K]> : K extends keyof R ? FieldCondition<R[K]> : never;
};

declare const assignmentBrand: unique symbol;

/**
 * A record field that an object of attributes (`build`, `create`, `assign`, `update`, ...) also takes by its name,
 * with a value `V` (a `belongsTo` field takes a record of its target, or null): the field's type extends it, so that
 * the kernel types such objects without knowing the plugin that declares the field.
 */
export interface AssignableField<V> {
  /** @internal Marks the fields attribute objects take (it exists only in types). */
  readonly [assignmentBrand]: V;
}

/** The record fields of `R` that attribute objects take by name (see `AssignableField`), each with what it takes. */
export type AssignableFields<R> = {
  [K in keyof R as R[K] extends AssignableField<any> ? K : never]?: R[K] extends AssignableField<infer V> ? V : never;
};

/**
 * The attribute object `build`, `create`, `assign` and `update` take for records `R`: values of its attributes, and
 * the record fields attribute objects take by name (a `belongsTo`'s record: `Comment.create({ post })`).
 */
export type RecordAssignment<R> = AssignAttributes<AttributesOfRecord<R>> & AssignableFields<R>;

/** An order direction, or the long form with NULLs placement. */
export type OrderDirection = "asc" | "desc" | { direction: "asc" | "desc"; nulls?: "first" | "last" };

/** An `order` object: attribute names to directions. */
export type Ordering<A> = { [K in keyof A]?: OrderDirection };

/** The attributes of a record type. */
export type AttributesOfRecord<R> = 0 extends 1 & R ? any : R extends { attributes(): infer A } ? A : never;

/** The attributes of a Model class. */
export type AttributesOfModel<M> = M extends abstract new (...args: any) => infer R ? AttributesOfRecord<R> : never;

/** The record type of a Model class. */
export type RecordOfModel<M> = M extends abstract new (...args: any) => infer R ? R : never;
