/**
 * The typed face of Model classes. `Model({...})` and `ApplicationRecord(...)` hand out these types, computed from the
 * attribute declarations; records and Relations are typed in record-methods.ts and typed-relation.ts.
 */
import type { AssignableValue, AssignAttributes, AttributeName, ConditionScalar, JsonAttributes } from "./attribute-values.js";
import type { Base } from "./base.js";
import type { AnyRecord, KernelRecordMethods, PluginRecordMethods, RecordMethods, RecordOf } from "./record-methods.js";
import type { AttributesOfModel, Conditions, Ordering, RecordOfModel } from "./query-typing.js";
import type { RelationOf } from "./typed-relation.js";
import type { SqlFragment } from "./sql.js";
import type { SqlQuery } from "./statement.js";

export type { AnyRecord, AssignableValue, AssignAttributes, AttributeName, ConditionScalar, JsonAttributes, KernelRecordMethods, PluginRecordMethods, RecordMethods, RecordOf };
export type * from "./query-typing.js";
export type * from "./typed-relation.js";

/**
 * The statics plugins add to a Model class with attributes `A` (each method takes `this: M`, the Model). Empty here:
 * each plugin declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginStatics<A> {}

/** Any Model class. */
export type AnyModel = ModelClass<any, any>;

type Attrs<M> = AttributesOfModel<M>;
type Rec<M> = RecordOfModel<M>;

/** The settings and declaring statics `Base` has as it is (declared there, once). */
type BaseStatics = Pick<typeof Base, "binding" | "tableName" | "primaryKey" | "hiddenAttributes" | "use" | "hook" | "all" | "build" | "create" | "createOrThrow">;

/** The statics of a Model class with attributes `A`. Methods take `this` so that subclasses get their own types. */
export interface ModelStatics<A> extends BaseStatics, PluginStatics<A> {
  /** Attributes shown as `[FILTERED]`. */
  filterAttributes: (string | RegExp)[];
  /** Default page size. */
  perPage: number;
  /** Largest page size. */
  maxPerPage: number;
  /** Makes generated ids. */
  generateId: (attributeName: string) => string;


  where<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>> | SqlFragment): RelationOf<M>;
  whereNot<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>> | SqlFragment): RelationOf<M>;
  order<M extends AnyModel>(this: M, order: Ordering<Attrs<M>> | SqlFragment): RelationOf<M>;
  reorder<M extends AnyModel>(this: M, order?: Ordering<Attrs<M>> | SqlFragment): RelationOf<M>;
  limit<M extends AnyModel>(this: M, count: number): RelationOf<M>;
  offset<M extends AnyModel>(this: M, count: number): RelationOf<M>;
  select<M extends AnyModel>(this: M, ...names: AttributeName<Attrs<M>>[]): RelationOf<M>;
  distinct<M extends AnyModel>(this: M): RelationOf<M>;
  none<M extends AnyModel>(this: M): RelationOf<M>;
  toSql(): SqlQuery;
  toArray<M extends AnyModel>(this: M): Promise<Rec<M>[]>;
  find<M extends AnyModel>(this: M, ids: readonly unknown[]): Promise<Rec<M>[]>;
  find<M extends AnyModel>(this: M, id: unknown): Promise<Rec<M>>;
  find<M extends AnyModel>(this: M, first: unknown, second: unknown, ...more: unknown[]): Promise<Rec<M>[]>;
  findBy<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>>): Promise<Rec<M> | null>;
  findByOrThrow<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>>): Promise<Rec<M>>;
  first<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  take<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
}

/** A Model class whose records have attributes `A`. */
export interface ModelClass<A, Extra = {}> extends ModelStatics<A> {
  new (): RecordOf<A> & Extra;
  readonly prototype: RecordOf<A> & Extra;
}
