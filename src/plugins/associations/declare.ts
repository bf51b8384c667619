import type { AnyModel, AssignableField, AssociatedRecord, AssociationField, AssociationName, AttributeName, AttributesOfModel, ConditionField, NumberAttributeName, RecordAssignment, RelationOf } from "../../kernel/index.js";
import type { BelongsToOptions, HasManyOptions, HasOneOptions } from "./definition.js";
import { ASSOCIATION, AssociationSlot } from "./slot.js";
import { collection } from "./has-many.js";
import { BelongsToAssociation, HasOneAssociation } from "./single.js";
import { PolymorphicDefinition, type PolymorphicBelongsToOptions } from "./polymorphic.js";
import { PolymorphicBelongsToAssociation } from "./polymorphic-belongs-to.js";
import { throughCollection } from "./through-collection.js";
import { ThroughOneAssociation } from "./through-one.js";
import { ThroughSlot } from "./through-slot.js";
import { goesThrough } from "./through-definition.js";
import { installAssociationWork } from "./work.js";

type RecordOf<T> = T extends abstract new (...args: any) => infer R ? R : never;

declare const polymorphicBrand: unique symbol;

/** The names of the polymorphic `belongsTo` fields of a record type `R`: what `as` and a `sourceType`'s `source` may name. */
type PolymorphicName<R> = { [K in keyof R]: R[K] extends { readonly [polymorphicBrand]: unknown } ? K : never }[keyof R] & string;

/** The Models a polymorphic `belongsTo` field lists. */
type ListedModels<F> = F extends { readonly [polymorphicBrand]: infer T } ? T : never;

/** The options of a `hasMany` or `hasOne` to `T`, whose `foreignKey` must name an attribute of `T`. */
type ChildOptions<Options, T extends AnyModel> = Omit<Options, "as"> & { foreignKey?: AttributeName<AttributesOfModel<T>> };

/**
 * The options of a `hasMany` or `hasOne` declared `as` a polymorphic `belongsTo` of `T`, which `as` must name (a
 * separate signature, so that a Model's children of its own Model are typed without looking into `T`'s fields).
 */
type ChildOfPolymorphicOptions<Options, T extends AnyModel> = ChildOptions<Options, T> & { as: PolymorphicName<RecordOf<T>> };

/** The options of a `belongsTo` to `T`, whose `counterCache` must be `true` or name a number attribute of `T`. */
type ParentOptions<T extends AnyModel> = Omit<BelongsToOptions, "counterCache"> & { counterCache?: true | NumberAttributeName<AttributesOfModel<T>> };

/** The number attributes every Model of `T` has: what a polymorphic `belongsTo`'s `counterCache` may name. */
type SharedCounterName<T extends readonly AnyModel[]> = T extends readonly [infer First extends AnyModel, ...infer Rest extends readonly AnyModel[]]
  ? NumberAttributeName<AttributesOfModel<First>> & SharedCounterName<Rest>
  : string;

/** The options of a polymorphic `belongsTo` of the Models `T`, whose `counterCache` must be `true` or name a number attribute of each. */
type PolymorphicParentOptions<T extends readonly AnyModel[]> = Omit<PolymorphicBelongsToOptions, "counterCache"> & { counterCache?: true | SharedCounterName<T> };

/** Any key as `setIds` takes it: a scalar, read as a condition on the key reads it. */
type AnyKey = string | number | bigint;

/**
 * The type of a key of `T`'s records: its `id` attribute's, when it has one (a Model's `primaryKey` is not known to
 * TypeScript) and it is a scalar; else any key (a plugin type's key is given as text or a number, as a form sends it).
 */
export type TargetKey<T extends AnyModel> = AttributesOfModel<T> extends { id: infer K } ? (NonNullable<K> extends AnyKey ? NonNullable<K> : AnyKey) : AnyKey;

/**
 * `user.posts()`: the children as a Relation, plus `build` for a child saved with its owner, `add` and `remove`, and
 * `set` and `setIds`.
 */
export type AssociationRelation<T extends AnyModel> = RelationOf<T> & {
  /** Builds a child with the owner's key, saved with the owner in one atomic batch. */
  build(attributes?: RecordAssignment<RecordOf<T>>): RecordOf<T>;
  /**
   * Makes each record a child (Rails' `<<`): its foreign key (and an `as` association's type) set to the owner's, and
   * saved with its validations and callbacks, in one atomic batch for a saved owner (no read); a new owner's save
   * writes them. A refused record writes none and throws, as `saveOrThrow` does.
   */
  add(...children: RecordOf<T>[]): Promise<void>;
  /**
   * Takes children out (Rails' `delete`), in one batch, by the association's `dependent`: `destroy` destroys them,
   * `deleteAll` deletes their rows, else their foreign key is set to NULL. A record that is no child of the owner
   * throws `RecordNotFound` before anything is written.
   */
  remove(...children: RecordOf<T>[]): Promise<void>;
  /**
   * Makes `children` the saved owner's children (Rails' `posts=`), removing the others by the association's
   * `dependent` (`destroy`, `deleteAll`, else their foreign key set to NULL), in one batch.
   */
  set(children: readonly RecordOf<T>[]): Promise<void>;
  /**
   * `set` with the records of these keys (Rails' `post_ids=`), read in one batch; `RecordNotFound` naming the Model and
   * each key no row has, before anything is written.
   */
  setIds(ids: readonly TargetKey<T>[]): Promise<void>;
};

/** A `hasMany` field: call it for the children. */
export interface HasMany<T extends AnyModel> extends AssociationField<RecordOf<T>[]> {
  (): AssociationRelation<T>;
}

/**
 * A `belongsTo` field: `load()` the parent, `set(record)` to assign it. Conditions take it by name, with a saved
 * record of `T`, null or a list of them: `Post.where({ author: user })`; so do attribute objects, with a record of
 * `T` (a new one too) or null, assigned as `set` assigns it: `Post.create({ author: user })`.
 */
export interface BelongsTo<T extends AnyModel> extends AssociationField<RecordOf<T> | null>, ConditionField<RecordOf<T>>, AssignableField<RecordOf<T> | null> {
  /** The parent, loaded once (or from `includes`); null when the key is null or the row is gone. */
  load(): Promise<RecordOf<T> | null>;
  /** The loaded parent; throws when it was not loaded (use `load()` or `includes`). */
  get(): RecordOf<T> | null;
  /** Assigns the parent: sets the foreign key to its key (null clears it). */
  set(record: RecordOf<T> | null): void;
  /** Loads the parent again; a new parent assigned and not yet saved is dropped. */
  reload(): Promise<RecordOf<T> | null>;
  /** Whether the parent was loaded or assigned. */
  readonly isLoaded: boolean;
}

/** A polymorphic `belongsTo` field: a `belongsTo` whose parent is a record of any of the listed Models `T`. */
export interface PolymorphicBelongsTo<T extends AnyModel> extends BelongsTo<T> {
  /** Marks polymorphic fields apart from other `belongsTo` fields, with the Models listed (it exists only in types). */
  readonly [polymorphicBrand]: T;
}

/** A `hasOne` field: `load()` the child, `build()` a new one saved with the owner. */
export interface HasOne<T extends AnyModel> extends AssociationField<RecordOf<T> | null> {
  /** The child, loaded once (or from `includes`); null if none. */
  load(): Promise<RecordOf<T> | null>;
  /** The loaded child; throws when it was not loaded. */
  get(): RecordOf<T> | null;
  /** Builds the child with the owner's key, saved with the owner in one atomic batch. */
  build(attributes?: RecordAssignment<RecordOf<T>>): RecordOf<T>;
  /** Loads the child again; a child built and not yet saved is dropped. */
  reload(): Promise<RecordOf<T> | null>;
  /** Whether the child was loaded or built. */
  readonly isLoaded: boolean;
}

/**
 * The options of an association through another (`through: this.taggings`, an association field of the owner, so
 * that TypeScript checks it), and `source`, the association of the Model gone through that reaches the target when
 * it is not named as the association is (or as its singular), checked against that Model's associations.
 */
export interface ThroughOptions<F extends AssociationField<any>> {
  /** The owner's association to go through: its field, `this.taggings`, declared before this one. */
  through: F;
  /**
   * The association of the Model gone through that reaches the target; the association's name or its singular by
   * default. A polymorphic `belongsTo` is a source with `sourceType` only (see `SourceTypeOptions`).
   */
  source?: Exclude<AssociationName<AssociatedRecord<F>>, PolymorphicName<AssociatedRecord<F>>>;
}

/**
 * The options of an association through another whose source is a polymorphic `belongsTo` of the Model gone through
 * (Rails' `source_type`): `posts = hasMany(Post, { through: this.taggings, source: "taggable", sourceType: "Post" })`
 * reaches the posts among the taggables. The target must be one of the Models the source lists (a compile error
 * otherwise); `sourceType` is the type the join rows store for it, its class name (checked at first use: TypeScript
 * does not know a class's name).
 */
export interface SourceTypeOptions<F extends AssociationField<any>, S extends string> {
  /** The owner's association to go through: its field, `this.taggings`, declared before this one. */
  through: F;
  /** The polymorphic `belongsTo` of the Model gone through; by default its one that lists `sourceType`. */
  source?: S;
  /** The name of the Model to reach, as the source's type column stores it (`"Post"`). */
  sourceType: string;
}

/** The Models a `sourceType` association may target: those the source of the Model gone through lists. */
type SourceModels<F extends AssociationField<any>, S extends string> = ListedModels<AssociatedRecord<F>[S & keyof AssociatedRecord<F>]>;

/**
 * The `scope` of an association through another (Rails' `has_many :tags, -> { where(...) }, through: :taggings`):
 * narrows the targets for reads, `includes` and counts; `build` starts with its equality conditions.
 */
export interface ThroughScope<T extends AnyModel> {
  /** Narrows the targets: `scope: (q) => q.where({ official: true })`; a `limit` or `offset` cannot be preloaded. */
  scope?: (relation: RelationOf<T>) => RelationOf<T>;
}

/** The options of a `hasMany` through another: `dependent` deletes the join rows (see `HasManyOptions`). */
export interface HasManyThroughOptions<F extends AssociationField<any>> extends ThroughOptions<F> {
  /**
   * What happens to the owner's join rows when it is destroyed, as in Rails (the targets stay): `destroy` destroys
   * them with their callbacks, `deleteAll` and `nullify` delete them with one DELETE, `restrictWithError` refuses.
   */
  dependent?: HasManyOptions["dependent"];
}

/** `post.tags()` of a `hasMany` through another: the targets as a Relation, and the writes of the join rows. */
export type ThroughRelation<T extends AnyModel> = RelationOf<T> & {
  /** Adds a join row to each target (Rails' `<<`): now for a saved owner, in one batch; with the owner's save for a new one. */
  add(...targets: RecordOf<T>[]): Promise<void>;
  /** Deletes the owner's join rows to the targets (Rails' `delete`), never the targets; their callbacks run. */
  remove(...targets: RecordOf<T>[]): Promise<void>;
  /** Makes the join rows those of `targets` (Rails' `tags=`): reads them, then writes the difference in one batch. */
  set(targets: readonly RecordOf<T>[]): Promise<void>;
  /** `set` with the targets of these keys (Rails' `tag_ids=`), read with the join rows; `RecordNotFound` for a missing one. */
  setIds(ids: ReadonlyArray<string | number | bigint>): Promise<void>;
  /** Builds a target with its join row (Rails' `build`); the owner's next save writes both. */
  build(attributes?: RecordAssignment<RecordOf<T>>): RecordOf<T>;
};

/** A `hasMany` through another: call it for the targets. */
export interface HasManyThrough<T extends AnyModel> extends AssociationField<RecordOf<T>[]> {
  (): ThroughRelation<T>;
}

/** A `hasOne` through another: `load()` the target; `set` it through the join row. */
export interface HasOneThrough<T extends AnyModel> extends AssociationField<RecordOf<T> | null> {
  /**
   * Points the owner's join row at `record` (Rails' has_one :through assignment), its validations and callbacks run:
   * updates it, or builds one through the owner's `hasOne` (a saved owner's written now, a new owner's with its
   * save); `null` destroys the join row, never the target. Throws for a through association that cannot write its
   * join row (a through a through, a join row that holds no key of the target, or one reached by a `belongsTo`).
   */
  set(record: RecordOf<T> | null): Promise<void>;
  /** The target, loaded once (or from `includes`); null if none. */
  load(): Promise<RecordOf<T> | null>;
  /** The loaded target; throws when it was not loaded. */
  get(): RecordOf<T> | null;
  /** Loads the target again. */
  reload(): Promise<RecordOf<T> | null>;
  /** Whether the target was loaded. */
  readonly isLoaded: boolean;
}

/**
 * Declares a one-to-many association as an instance field: `posts = hasMany(Post, { dependent: "destroy" })`.
 * `user.posts()` is a Relation of the children; `user.posts().build(attrs)` builds one saved with the owner, and
 * `add`, `remove`, `set` and `setIds` write them.
 * With `through`, the targets the owner reaches through another of its associations:
 * `tags = hasMany(Tag, { through: this.taggings })`; `post.tags()` is their Relation, and `add`, `remove`, `set`
 * and `setIds` write the join rows.
 */
export function hasMany<T extends AnyModel, F extends AssociationField<any>>(target: T, options: HasManyThroughOptions<F> & ThroughScope<T>): HasManyThrough<T>;
/**
 * Declares the targets reached through a polymorphic source, of one of its Models (Rails' `source_type`):
 * `posts = hasMany(Post, { through: this.taggings, source: "taggable", sourceType: "Post" })`.
 */
export function hasMany<F extends AssociationField<any>, S extends PolymorphicName<AssociatedRecord<F>>, T extends AnyModel & SourceModels<F, S>>(
  target: T,
  options: SourceTypeOptions<F, S> & Pick<HasManyThroughOptions<F>, "dependent"> & ThroughScope<T>,
): HasManyThrough<T>;
export function hasMany<T extends AnyModel>(target: T, options?: ChildOptions<HasManyOptions, T>): HasMany<T>;
/** Declares the children of a polymorphic `belongsTo`: `comments = hasMany(Comment, { as: "commentable" })`. */
export function hasMany<T extends AnyModel>(target: T, options: ChildOfPolymorphicOptions<HasManyOptions, T>): HasMany<T>;
export function hasMany(target: AnyModel, options: object = {}): unknown {
  installAssociationWork();
  if (goesThrough(options)) {
    const slot = new ThroughSlot({ kind: "hasMany", target, options });
    return Object.defineProperty(() => throughCollection(slot), ASSOCIATION, { value: slot });
  }
  const slot = new AssociationSlot({ kind: "hasMany", target, options });
  const field = () => collection(slot);
  return Object.defineProperty(field, ASSOCIATION, { value: slot });
}

/**
 * Declares a polymorphic owning side: `commentable = belongsTo([Post, Photo], { polymorphic: true })` stores the
 * parent's key in `commentableId` and its Model's name in `commentableType`; `get()` is a `Post` or a `Photo`.
 * `counterCache` keeps a count of the children on each parent (see `PolymorphicBelongsToOptions`).
 */
export function belongsTo<const T extends readonly [AnyModel, ...AnyModel[]]>(targets: T, options: PolymorphicParentOptions<T>): PolymorphicBelongsTo<T[number]>;
/**
 * Declares the owning side as an instance field: `user = belongsTo(User)`; `post.user.load()`, `post.user.set(u)`.
 * `belongsTo(Post, { counterCache: true })` keeps a count of the children on the parent (see `BelongsToOptions`).
 */
export function belongsTo<T extends AnyModel>(target: T, options?: ParentOptions<T>): BelongsTo<T>;
export function belongsTo(target: AnyModel | readonly AnyModel[], options: BelongsToOptions | PolymorphicBelongsToOptions = {}): unknown {
  installAssociationWork();
  if (Array.isArray(target) || (options as { polymorphic?: unknown } | null)?.polymorphic !== undefined) {
    return new PolymorphicBelongsToAssociation(new AssociationSlot(new PolymorphicDefinition(target as AnyModel[], options as PolymorphicBelongsToOptions)));
  }
  return new BelongsToAssociation(new AssociationSlot({ kind: "belongsTo", target: target as AnyModel, options }));
}

/**
 * Declares a one-to-one association as an instance field: `profile = hasOne(Profile)`; `user.profile.build()`.
 * With `through`, the one target reached through another association of the owner (each hop a `hasOne` or
 * `belongsTo`): `accountHistory = hasOne(AccountHistory, { through: this.account })`.
 */
export function hasOne<T extends AnyModel, F extends AssociationField<any>>(target: T, options: ThroughOptions<F> & ThroughScope<T>): HasOneThrough<T>;
/** Declares the one target reached through a polymorphic source, of one of its Models (Rails' `source_type`). */
export function hasOne<F extends AssociationField<any>, S extends PolymorphicName<AssociatedRecord<F>>, T extends AnyModel & SourceModels<F, S>>(
  target: T,
  options: SourceTypeOptions<F, S> & ThroughScope<T>,
): HasOneThrough<T>;
export function hasOne<T extends AnyModel>(target: T, options?: ChildOptions<HasOneOptions, T>): HasOne<T>;
/** Declares the child of a polymorphic `belongsTo`: `image = hasOne(Image, { as: "imageable" })`. */
export function hasOne<T extends AnyModel>(target: T, options: ChildOfPolymorphicOptions<HasOneOptions, T>): HasOne<T>;
export function hasOne(target: AnyModel, options: object = {}): unknown {
  installAssociationWork();
  if (goesThrough(options)) return new ThroughOneAssociation(new ThroughSlot({ kind: "hasOne", target, options }));
  return new HasOneAssociation(new AssociationSlot({ kind: "hasOne", target, options }));
}
