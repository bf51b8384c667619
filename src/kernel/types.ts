/**
 * The typed face of Model classes. `Model({...})` and `ApplicationRecord(...)` hand out these types, computed from the
 * attribute declarations; records and Relations are typed in record-methods.ts and typed-relation.ts.
 */
import type { AssignableValue, AssignAttributes, AttributeName, ComparisonScalar, ConditionScalar, JsonAttributes, NumberAttributeName } from "./records/attribute-values.js";
import type { Base } from "./base.js";
import type { AnyRecord, KernelRecordMethods, PluginRecordMethods, RecordMethods, RecordOf } from "./records/record-methods.js";
import type { AttributesOfModel, Conditions, RecordConditions, RecordOfModel } from "./relations/query-typing.js";
import type { SqlFragment } from "./sql/sql.js";
import type { RelationOf } from "./relations/typed-relation.js";

export type { AnyRecord, AssignableValue, AssignAttributes, AttributeName, ComparisonScalar, ConditionScalar, JsonAttributes, KernelRecordMethods, NumberAttributeName, PluginRecordMethods, RecordMethods, RecordOf };
export type * from "./relations/query-typing.js";
export type * from "./relations/typed-relation.js";

/**
 * The statics plugins add to a Model class with attributes `A` (each method takes `this: M`, the Model). Empty here:
 * each plugin declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginStatics<A> {}

/** Any Model class. */
export type AnyModel = ModelClass<any, any>;

type Rec<M> = RecordOfModel<M>;

/** The settings and declaring statics `Base` has as it is (declared there, once). */
type BaseStatics = Pick<typeof Base, "binding" | "tableName" | "primaryKey" | "hiddenAttributes" | "use" | "hook" | "all" | "build" | "create" | "createOrThrow">;

/** The Relation methods each Model also has as a static, starting from `all()` (base.ts defines them so). */
type RelationStaticName = "order" | "reorder" | "limit" | "offset" | "select" | "distinct" | "none" | "toSql" | "toArray";

/** Each of those statics: the Relation method of the Model it is called on, as declared on `Relation`. */
type RelationStatics = {
  [K in RelationStaticName]: <M extends AnyModel>(this: M, ...args: Parameters<RelationOf<M>[K]>) => ReturnType<RelationOf<M>[K]>;
};

/**
 * The kernel's statics of a Model class with attributes `A`; plugins add theirs to `PluginStatics`. Methods take
 * `this` so that subclasses get their own types.
 */
export interface ModelStatics<A> extends BaseStatics, RelationStatics {
  // Declared here rather than taken from Relation: a static's overloads cannot be mapped.
  /** `all().where(conditions)`. */
  where<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>> | SqlFragment, method?: string): RelationOf<M>;
  /** `all().where(conditions)`, with conditions on the fields a plugin lets them take (see `Relation.where`). */
  where<M extends AnyModel, C extends object>(this: M, conditions: C & RecordConditions<Rec<M>, C>, method?: string): RelationOf<M>;
  /** `all().whereNot(conditions)`. */
  whereNot<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>> | SqlFragment): RelationOf<M>;
  /** `all().whereNot(conditions)`, with conditions on the fields a plugin lets them take (see `Relation.where`). */
  whereNot<M extends AnyModel, C extends object>(this: M, conditions: C & RecordConditions<Rec<M>, C>): RelationOf<M>;
  /** `all().findBy(conditions)`: the first record matching the conditions, or null. */
  findBy<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>>): Promise<Rec<M> | null>;
  /** `all().findBy(conditions)`, with conditions on the fields a plugin lets them take (see `Relation.where`). */
  findBy<M extends AnyModel, C extends object>(this: M, conditions: C & RecordConditions<Rec<M>, C>): Promise<Rec<M> | null>;
  /** `all().findByOrThrow(conditions)`: the first record matching the conditions, or `RecordNotFound`. */
  findByOrThrow<M extends AnyModel>(this: M, conditions: Conditions<AttributesOfModel<M>>): Promise<Rec<M>>;
  /** `all().findByOrThrow(conditions)`, with conditions on the fields a plugin lets them take (see `Relation.where`). */
  findByOrThrow<M extends AnyModel, C extends object>(this: M, conditions: C & RecordConditions<Rec<M>, C>): Promise<Rec<M>>;
  /** The record with this primary key (`RecordNotFound` if none). */
  find<M extends AnyModel>(this: M, id: unknown): Promise<Rec<M>>;
  /** `all().first()`: the first record by primary key, or null. */
  first<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  /** `all().first(count)`: the first `count` records by primary key. */
  first<M extends AnyModel>(this: M, count: number): Promise<Rec<M>[]>;
  /** `all().take()`: one record, or null. */
  take<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  /** `all().take(count)`: up to `count` records. */
  take<M extends AnyModel>(this: M, count: number): Promise<Rec<M>[]>;
}

/**
 * A Model class whose records have attributes `A`: the statics plugins add, then the kernel's (in that order, so
 * that a plugin's overloads of a kernel static, as findMany's `find` of several ids, are tried first).
 */
export type ModelClass<A, Extra = {}> = PluginStatics<A> &
  ModelStatics<A> & {
    new (): RecordOf<A> & Extra;
    readonly prototype: RecordOf<A> & Extra;
  };
