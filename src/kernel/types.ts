/**
 * The typed face of Models, records and Relations. The runtime classes (`Base`, `Relation`) are loosely typed;
 * `Model({...})` and `ApplicationRecord(...)` hand out these types, computed from the attribute declarations.
 */
import type { Batchable } from "./batchable.js";
import type { Comparison, OrderingOperator } from "./conditions.js";
import type { Errors } from "./errors-collection.js";
import type { ModelHookName, ModelHooks } from "./hooks.js";
import type { Plugin } from "./plugin.js";
import type { OrderDirection } from "./relation.js";
import type { SqlFragment } from "./sql.js";
import type { SqlQuery, Statement } from "./statement.js";
import type { QueryPlanStep } from "./query-plan.js";

/** What may be assigned to an attribute of JavaScript type `T`: the type itself or a form that casts to it. */
export type AssignableValue<T> = unknown extends T
  ? unknown
  : T extends Date
    ? Date | string
    : T extends number
      ? number | string
      : T extends boolean
        ? boolean | number | string
        : T;

/** The attribute object `build`, `create`, `assign` and `update` take: known names only. */
export type AssignAttributes<A> = { [K in keyof A]?: AssignableValue<A[K]> };

type ConditionScalar<T> = unknown extends T ? unknown : T extends string ? string | number : AssignableValue<T>;

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

/** A record's attribute names. */
export type AttributeName<A> = keyof A & string;

/** One or more attribute names, as `pluck(a, b, ...)` takes them (it throws `TypeError` when given none). */
export type AttributeNames<A> = readonly [AttributeName<A>, ...AttributeName<A>[]];

/** A row of `pluck(a, b, ...)`: the tuple of the named attributes' values. */
export type PluckedRow<A, K extends AttributeNames<A>> = { -readonly [I in keyof K]: A[K[I]] };

/** The JSON form of a record's attributes: dates as ISO strings. */
export type JsonAttributes<A> = { [K in keyof A]: A[K] extends Date ? string : Extract<A[K], Date> extends never ? A[K] : string | Exclude<A[K], Date> };

declare const associationBrand: unique symbol;

/**
 * What the kernel knows of an association field (`hasMany`, `belongsTo`, `hasOne`): that it is one, and what
 * loading it gives (`Loaded`), so that `includes` and `reloadAssociation` take association names only.
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

/** The associations `asJson({ include })` nests: what `includes` takes (a name, a list, a nested object). */
export type JsonInclude<R> = IncludesBelow<R>;

/** The methods every record has, typed for its attributes `A`. */
export interface RecordMethods<A> {
  /** Whether the record has not been saved yet. */
  isNewRecord(): boolean;
  /** Whether the record is saved and not destroyed. */
  isPersisted(): boolean;
  /** Whether the record was destroyed. */
  isDestroyed(): boolean;
  /** Why validation failed, or an association refused a destroy. */
  readonly errors: Errors;
  /** The reason given by the callback that aborted the last save or destroy. */
  readonly abortReason: string | undefined;
  /** Reads an attribute by name. */
  readAttribute<K extends AttributeName<A>>(name: K): A[K];
  /** Assigns an attribute by name, cast to its type. */
  writeAttribute<K extends AttributeName<A>>(name: K, value: AssignableValue<A[K]>): void;
  /** Sets several attributes without saving. */
  assign(attributes: AssignAttributes<A>): this;
  /** Every loaded attribute as a plain object (Dates as Date), hidden ones included. */
  attributes(): A;
  /** The attributes for JSON: dates as ISO strings, `hiddenAttributes` left out. */
  toJSON(): Partial<JsonAttributes<A>>;
  /** Validates and saves; false when validation failed or a callback aborted. */
  save(): Promise<boolean>;
  /** Saves, or throws `RecordInvalid` or `RecordNotSaved`. */
  saveOrThrow(): Promise<true>;
  /** Assigns and saves. */
  update(attributes: AssignAttributes<A>): Promise<boolean>;
  /** Assigns and saves, or throws `RecordInvalid` or `RecordNotSaved`. */
  updateOrThrow(attributes: AssignAttributes<A>): Promise<true>;
  /** Destroys the record; false when a callback aborted. */
  destroy(): Promise<this | false>;
  /** Destroys the record, or throws `RecordNotDestroyed`. */
  destroyOrThrow(): Promise<this>;
  /** Reloads the row, discarding unsaved changes. */
  reload(): Promise<this>;
  /** The save of this record as a batch item. */
  toSave(): Batchable<this>;
  /** The destroy of this record as a batch item. */
  toDestroy(): Batchable<this>;
  /** Whether any attribute has an unsaved change. */
  isChanged(): boolean;
  /** Names of the attributes with unsaved changes. */
  changed(): AttributeName<A>[];
  /** Old values of the attributes with unsaved changes. */
  changedAttributes(): Partial<A>;
  /** Each unsaved change as `[old, new]`. */
  changes(): { [K in keyof A]?: [A[K], A[K]] };
  /** The attribute's value as last loaded or saved. */
  attributeWas<K extends AttributeName<A>>(name: K): A[K];
  /** Whether the attribute has an unsaved change, optionally from or to a given value (cast as a condition is). */
  isAttributeChanged<K extends AttributeName<A>>(
    name: K,
    options?: { from?: ConditionScalar<NonNullable<A[K]>> | null; to?: ConditionScalar<NonNullable<A[K]>> | null },
  ): boolean;
  /** Whether the next save writes this attribute. */
  willSaveChangeTo(name: AttributeName<A>): boolean;
  /** The changes the last save wrote. */
  savedChanges(): { [K in keyof A]?: [A[K], A[K]] };
  /** The `[old, new]` the last save wrote to the attribute. */
  savedChangeTo<K extends AttributeName<A>>(name: K): [A[K], A[K]] | undefined;
  /** Whether the last save changed the attribute. */
  hasSavedChangeTo(name: AttributeName<A>): boolean;
  /** The attribute's value before the last save. */
  attributeBeforeLastSave<K extends AttributeName<A>>(name: K): A[K];
  /** Undoes unsaved changes to the named attributes, or to all. */
  restoreAttributes(...names: AttributeName<A>[]): this;
  /** Loads an association again (one declared with `hasMany`, `hasOne` or `belongsTo`); resolves to what it holds. */
  reloadAssociation<K extends AssociationName<this>>(name: K): Promise<LoadedAssociation<this[K]>>;
  /**
   * `toJSON()` with the loaded associations named in `include` nested (`asJson({ include: ["user", { comments:
   * ["user"] }] })`); hidden attributes stay out. An included association that is not loaded throws
   * `AssociationNotLoaded`: nothing is queried.
   */
  asJson<const I extends JsonInclude<this>>(options?: { include?: I }): Partial<JsonAttributes<A>> & Record<string, unknown>;
}

/** A record of attributes `A`: its attributes as properties, plus the record methods. */
export type RecordOf<A> = RecordMethods<A> & A;

/** Any record, of any Model: what `RecordInvalid`'s `error.record` is until `instanceof <Model>` narrows it. */
export type AnyRecord = RecordMethods<any>;

/** Any Model class. */
export type AnyModel = ModelClass<any, any>;

type RecordOfModel<M> = M extends abstract new (...args: any) => infer R ? R : never;

/** An immutable query for records of type `R`. */
export interface TypedRelation<R> {
  where(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment): this;
  whereNot(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment): this;
  or(other: TypedRelation<R>): this;
  order(order: Ordering<AttributesOfRecord<R>> | SqlFragment): this;
  reorder(order?: Ordering<AttributesOfRecord<R>> | SqlFragment): this;
  limit(count: number): this;
  offset(count: number): this;
  select(...names: AttributeName<AttributesOfRecord<R>>[]): this;
  distinct(): this;
  none(): this;
  merge(other: TypedRelation<R>): this;
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
  pluck<K extends AttributeName<AttributesOfRecord<R>>>(name: K): Promise<AttributesOfRecord<R>[K][]>;
  pluck<const K extends AttributeNames<AttributesOfRecord<R>>>(...names: K): Promise<PluckedRow<AttributesOfRecord<R>, K>[]>;
  count(): Promise<number>;
  exists(conditions?: Conditions<AttributesOfRecord<R>>): Promise<boolean>;
  size(): Promise<number>;
  isEmpty(): Promise<boolean>;
  hasAny(): Promise<boolean>;
  build(attributes?: AssignAttributes<AttributesOfRecord<R>>): R;
  create(attributes?: AssignAttributes<AttributesOfRecord<R>>): Promise<R>;
  createOrThrow(attributes?: AssignAttributes<AttributesOfRecord<R>>): Promise<R>;
  paginate(options: PaginateOptions & { count: false }): Promise<UncountedPage<R>>;
  paginate(options?: PaginateOptions & { count?: true }): Promise<Page<R>>;
  paginate(options: PaginateOptions): Promise<Page<R> | UncountedPage<R>>;
  /** Sets attributes on every matching row, skipping validations and callbacks; resolves to the rows changed. */
  updateAll(attributes: AssignAttributes<AttributesOfRecord<R>>): Promise<number>;
  /** Deletes every matching row, skipping callbacks; resolves to the rows deleted. */
  deleteAll(): Promise<number>;
  /** `updateAll` as a Statement for `batch`. */
  toUpdateAll(attributes: AssignAttributes<AttributesOfRecord<R>>): Statement<number>;
  /** `deleteAll` as a Statement for `batch`. */
  toDeleteAll(): Statement<number>;
}

/** Options of `insert` and `insertAll`. */
export interface InsertOptions {
  /** `"skip"` leaves out rows that would duplicate a unique key; by default a duplicate throws `RecordNotUnique`. */
  onDuplicate?: "skip" | "raise";
}

/** Options of `upsert` and `upsertAll`. */
export interface UpsertOptions<A = Record<string, unknown>> {
  /** The attributes of the unique key that decides a conflict; the primary key by default. */
  uniqueBy?: AttributeName<A>[];
}

/** D1's `meta` result of a write. */
export type WriteMeta = Record<string, unknown>;

declare const scopeBrand: unique symbol;

/**
 * The type of a scope static. Write it out (`static recent: ScopeStatic<[days: number]> = this.scope(...)`)
 * when the scope's body names its own class, which TypeScript cannot infer through.
 */
export interface ScopeStatic<Args extends unknown[]> {
  <M extends AnyModel>(this: M, ...args: Args): RelationOf<M>;
  /** @internal Marks scopes apart from other statics (it exists only in types). */
  readonly [scopeBrand]: Args;
}

type ScopeMethods<M> = {
  [K in keyof M as M[K] extends ScopeStatic<any> ? K : never]: M[K] extends ScopeStatic<infer Args> ? (...args: Args) => RelationOf<M> : never;
};

/** A Relation of Model `M`: the Relation methods, typed for its records, plus the Model's scopes. */
export type RelationOf<M> = TypedRelation<RecordOfModel<M>> & ScopeMethods<M>;

/** What every page of records has, counted or not. */
export interface BasePage<R> {
  /** The records of the page. */
  readonly records: R[];
  /** The page number, from 1. */
  readonly page: number;
  /** The page size used. */
  readonly perPage: number;
  /** Whether a next page exists. */
  readonly hasNext: boolean;
  /** Whether a previous page exists. */
  readonly hasPrevious: boolean;
}

/** A page of records, the result of `paginate` (which counts the matching rows unless given `count: false`). */
export interface Page<R> extends BasePage<R> {
  /** Total matching rows. */
  readonly total: number;
  /** Number of pages. */
  readonly totalPages: number;
}

/** A page of `paginate({ count: false })`: no count was made, so `total` and `totalPages` are absent. */
export interface UncountedPage<R> extends BasePage<R> {
  readonly total?: undefined;
  readonly totalPages?: undefined;
}

/** Options of `paginate`: numbers or query-string text; missing, null or empty means the first page and the default size. */
export interface PaginateOptions {
  page?: number | string | null;
  perPage?: number | string | null;
  /** `false` skips the count, leaving `total` and `totalPages` out. */
  count?: boolean;
}

/**
 * Rails' `allowNil` and `allowBlank`: a check skips a null value, or one blank as `presence` defines it. Given on a
 * check's own options (not `presence`'s, which is only `true`) or on the whole declaration, where `presence` follows it
 * too; the check's own setting wins.
 */
export interface AllowNilOrBlank {
  allowNil?: boolean;
  allowBlank?: boolean;
}

/**
 * The options of checks registered with `defineValidator`, by name, for an attribute of type `T`: empty here, each
 * check adds its own by declaration merging (`declare module "recordflare" { interface ValidatorOptions<T> { email?:
 * ValidatorOption } }`).
 */
export interface ValidatorOptions<T = unknown> {}

/** What every check's long form takes besides its own options. */
type CheckOptions = AllowNilOrBlank & { message?: string };

/** A check's option: `true`, or its long form, an object of its own options with `allowNil`, `allowBlank` and `message`. */
export type ValidatorOption<Own extends object = {}> = true | (Own & CheckOptions);

/**
 * The options of `validates` for an attribute of type `T`; each present key adds one check. Null is checked, as
 * Rails checks nil.
 */
export interface ValidationOptions<T = unknown> extends AllowNilOrBlank, ValidatorOptions<T> {
  /** The attribute must not be null, false, an empty or blank string, or an empty array. */
  presence?: true;
  /**
   * No other row has the same value (`caseSensitive: false` compares with SQLite's NOCASE, ASCII letters only; give
   * the column a `:unique_nocase` index so that it searches instead of reading the table); null is taken by a NULL row.
   */
  uniqueness?: true | ({ caseSensitive?: boolean } & CheckOptions);
  /** Length of a string or array; null has length 0. */
  length?: { minimum?: number; maximum?: number } & CheckOptions;
  /** A string the RegExp matches (null is tested as ""); the long form `{ with: /re/ }` takes `allowNil`. */
  format?: RegExp | ({ with: RegExp } & CheckOptions);
  /** One of the allowed values, of the attribute's type; the long form `{ in: [...] }` takes `allowNil`. */
  inclusion?: readonly T[] | ({ in: readonly T[] } & CheckOptions);
  /** A number, optionally an integer or greater than a bound; null is not a number. */
  numericality?: true | ({ onlyInteger?: boolean; greaterThan?: number } & CheckOptions);
  /** Replaces the default message of every check of this declaration (a check's own `message` wins). */
  message?: string;
  /** Runs the checks on the saves of new records only (`"create"`) or of persisted ones only (`"update"`). */
  on?: "create" | "update";
  /** Runs the checks only when it gives a truthy value for the record being saved (it may be async). */
  if?: (record: any) => unknown;
}

/** A callback: receives the record; `throw abort(reason)` in a before-callback stops the operation. */
export type Callback<R> = (record: R) => void | Promise<void>;

type Attrs<M> = AttributesOfModel<M>;
type Rec<M> = RecordOfModel<M>;

/** The statics of a Model class with attributes `A`. Methods take `this` so that subclasses get their own types. */
export interface ModelStatics<A> {
  /** Name of the database binding queries use outside `withDatabase`. */
  binding: string | undefined;
  /** The table. */
  tableName: string;
  /** The primary key attribute. */
  primaryKey: string;
  /** Attributes omitted from `toJSON()`. */
  hiddenAttributes: string[];
  /** Attributes shown as `[FILTERED]`. */
  filterAttributes: (string | RegExp)[];
  /** Default page size. */
  perPage: number;
  /** Largest page size. */
  maxPerPage: number;
  /** Makes generated ids. */
  generateId: (attributeName: string) => string;
  /** Registers plugins on this class. */
  use(...plugins: Plugin[]): void;
  /** Adds a hook function on this Model. */
  hook<Name extends ModelHookName>(name: Name, fn: ModelHooks[Name]): void;

  all<M extends AnyModel>(this: M): RelationOf<M>;
  build<M extends AnyModel>(this: M, attributes?: AssignAttributes<Attrs<M>>): Rec<M>;
  create<M extends AnyModel>(this: M, attributes?: AssignAttributes<Attrs<M>>): Promise<Rec<M>>;
  createOrThrow<M extends AnyModel>(this: M, attributes?: AssignAttributes<Attrs<M>>): Promise<Rec<M>>;
  permit<M extends AnyModel, const K extends AttributeName<Attrs<M>>>(this: M, input: unknown, ...names: K[]): { [P in K]?: Attrs<M>[P] };
  permit<M extends AnyModel, const K extends AttributeName<Attrs<M>>>(
    this: M,
    input: unknown,
    names: readonly K[],
    options: { emptyAsNull?: boolean },
  ): { [P in K]?: Attrs<M>[P] | (Attrs<M>[P] extends string ? never : null) };

  where<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>> | SqlFragment): RelationOf<M>;
  whereNot<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>> | SqlFragment): RelationOf<M>;
  or<M extends AnyModel>(this: M, other: TypedRelation<Rec<M>>): RelationOf<M>;
  order<M extends AnyModel>(this: M, order: Ordering<Attrs<M>> | SqlFragment): RelationOf<M>;
  reorder<M extends AnyModel>(this: M, order?: Ordering<Attrs<M>> | SqlFragment): RelationOf<M>;
  limit<M extends AnyModel>(this: M, count: number): RelationOf<M>;
  offset<M extends AnyModel>(this: M, count: number): RelationOf<M>;
  select<M extends AnyModel>(this: M, ...names: AttributeName<Attrs<M>>[]): RelationOf<M>;
  distinct<M extends AnyModel>(this: M): RelationOf<M>;
  none<M extends AnyModel>(this: M): RelationOf<M>;
  merge<M extends AnyModel>(this: M, other: TypedRelation<Rec<M>>): RelationOf<M>;
  /** Preloads the named associations (an object names those below them) in the batch of the query: one round trip. */
  includes<M extends AnyModel>(this: M, ...associations: Array<AssociationName<Rec<M>> | IncludeObject<Rec<M>>>): RelationOf<M>;
  toSql(): SqlQuery;
  /** SQLite's plan for `all()`'s query (`EXPLAIN QUERY PLAN`): look for `SCAN <table>`, a read of every row. */
  explain(): Promise<QueryPlanStep[]>;
  toArray<M extends AnyModel>(this: M): Promise<Rec<M>[]>;
  find<M extends AnyModel>(this: M, ids: readonly unknown[]): Promise<Rec<M>[]>;
  find<M extends AnyModel>(this: M, id: unknown): Promise<Rec<M>>;
  find<M extends AnyModel>(this: M, first: unknown, second: unknown, ...more: unknown[]): Promise<Rec<M>[]>;
  findBy<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>>): Promise<Rec<M> | null>;
  findByOrThrow<M extends AnyModel>(this: M, conditions: Conditions<Attrs<M>>): Promise<Rec<M>>;
  first<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  last<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  take<M extends AnyModel>(this: M): Promise<Rec<M> | null>;
  pluck<M extends AnyModel, K extends AttributeName<Attrs<M>>>(this: M, name: K): Promise<Attrs<M>[K][]>;
  pluck<M extends AnyModel, const K extends AttributeNames<Attrs<M>>>(this: M, ...names: K): Promise<PluckedRow<Attrs<M>, K>[]>;
  count(): Promise<number>;
  exists<M extends AnyModel>(this: M, conditions?: Conditions<Attrs<M>>): Promise<boolean>;
  size(): Promise<number>;
  isEmpty(): Promise<boolean>;
  hasAny(): Promise<boolean>;
  paginate<M extends AnyModel>(this: M, options: PaginateOptions & { count: false }): Promise<UncountedPage<Rec<M>>>;
  paginate<M extends AnyModel>(this: M, options?: PaginateOptions & { count?: true }): Promise<Page<Rec<M>>>;
  paginate<M extends AnyModel>(this: M, options: PaginateOptions): Promise<Page<Rec<M>> | UncountedPage<Rec<M>>>;
  updateAll<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>): Promise<number>;
  deleteAll(): Promise<number>;
  toUpdateAll<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>): Statement<number>;
  toDeleteAll(): Statement<number>;
  /** Inserts one row, skipping validations and callbacks; resolves to D1's `meta`. */
  insert<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>, options?: InsertOptions): Promise<WriteMeta>;
  /** Inserts rows in one statement (bound as one JSON value); resolves to D1's `meta`. */
  insertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<Attrs<M>>[], options?: InsertOptions): Promise<WriteMeta>;
  /** Inserts a row, or updates it when its key exists. */
  upsert<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>, options?: UpsertOptions<Attrs<M>>): Promise<WriteMeta>;
  /** Inserts rows, updating those whose key exists. */
  upsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<Attrs<M>>[], options?: UpsertOptions<Attrs<M>>): Promise<WriteMeta>;
  toInsert<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>, options?: InsertOptions): Statement<WriteMeta>;
  toInsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<Attrs<M>>[], options?: InsertOptions): Statement<WriteMeta>;
  toUpsert<M extends AnyModel>(this: M, attributes: AssignAttributes<Attrs<M>>, options?: UpsertOptions<Attrs<M>>): Statement<WriteMeta>;
  toUpsertAll<M extends AnyModel>(this: M, rows: readonly AssignAttributes<Attrs<M>>[], options?: UpsertOptions<Attrs<M>>): Statement<WriteMeta>;
  /** Declares validations of an attribute (in a `static {}` block). */
  validates<M extends AnyModel, K extends AttributeName<Attrs<M>>>(this: M, attribute: K, options: ValidationOptions<Attrs<M>[K]>): void;
  /** Runs before the validations of every save; may change the record (normalize it) or `throw abort(reason)`. */
  beforeValidation<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs after the validations of every save, whether they passed or not; may add to `errors` or abort. */
  afterValidation<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /**
   * Normalizes attributes on assignment and in conditions (`findBy({ email })`), before validation:
   * `this.normalizes("email", (email) => email.trim().toLowerCase())`. Null stays null unless `applyToNull`.
   */
  normalizes<M extends AnyModel, K extends AttributeName<Attrs<M>>>(
    this: M,
    attributes: K | readonly K[],
    normalize: (value: NonNullable<Attrs<M>[K]>) => Attrs<M>[K],
    options?: { applyToNull?: false },
  ): void;
  normalizes<M extends AnyModel, K extends AttributeName<Attrs<M>>>(
    this: M,
    attributes: K | readonly K[],
    normalize: (value: Attrs<M>[K]) => Attrs<M>[K],
    options: { applyToNull: true },
  ): void;
  /** Runs before every save (after validation). */
  beforeSave<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs before the save of a new record. */
  beforeCreate<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs before the save of a persisted record. */
  beforeUpdate<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs after every save. */
  afterSave<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs after the save of a new record. */
  afterCreate<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs after the save of a persisted record. */
  afterUpdate<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs before a destroy, before `dependent` strategies. */
  beforeDestroy<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Runs after a destroy. */
  afterDestroy<M extends AnyModel>(this: M, callback: Callback<Rec<M>>): void;
  /** Declares a scope: `static published = this.scope((q) => q.where({ published: true }))`. */
  scope<M extends AnyModel, Args extends unknown[]>(this: M, body: (q: TypedRelation<Rec<M>>, ...args: Args) => TypedRelation<Rec<M>>): ScopeStatic<Args>;
}

/** A Model class whose records have attributes `A`. */
export interface ModelClass<A, Extra = {}> extends ModelStatics<A> {
  new (): RecordOf<A> & Extra;
  readonly prototype: RecordOf<A> & Extra;
}
