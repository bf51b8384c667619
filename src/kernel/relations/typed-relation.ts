/**
 * The typed face of a query: a Model's Relation with the methods plugins add, and associations for `includes`.
 * Types only; below `Base`, whose statics hand these out.
 */
import type { RecordOfModel } from "./query-typing.js";
import type { Relation } from "./relation.js";

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

/**
 * An immutable query for records of type `R`: the kernel's `Relation`, whose methods are typed for `R`, and the
 * methods plugins add (first, so that a plugin's overloads, as `find` of several ids, are tried before the kernel's).
 */
export type TypedRelation<R> = PluginRelationMethods<R> & Relation<R>;

/** D1's `meta` result of a write. */
export type WriteMeta = Record<string, unknown>;

/** A Relation of Model `M`: the Relation methods, typed for its records, plus what plugins add for the Model. */
export type RelationOf<M> = TypedRelation<RecordOfModel<M>> & AllOf<PluginModelRelation<M>[keyof PluginModelRelation<M>]>;
