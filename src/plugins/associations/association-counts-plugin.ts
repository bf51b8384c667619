import {
  type AnyModel,
  type AssociatedRecord,
  type AssociationField,
  type AttributesOfRecord,
  definePlugin,
  type RecordOfModel,
  type Relation,
  type RelationOf,
  type TypedRelation,
} from "../../kernel/index.js";
import { forwardedHooks, forwardedMethods } from "./installation.js";

/**
 * Counts of associations in the main query (Laravel's and Lucid's `withCount`, Prisma's `_count`):
 * `withCount(...names)`, `whereCount(name, operator, n)` and `orderByCount(name, direction)` on every Relation and
 * Model, each count a correlated subquery of the one SELECT. `link.comments().size()` answers from a loaded count.
 *
 * What it does is brought by the declarations (see installation.ts): a Worker whose Models declare no association
 * bundles only this.
 */
export const associationCounts = definePlugin({
  name: "association-counts",
  relationMethods: forwardedMethods("associationCounts", ["withCount", "whereCount", "orderByCount"], (relation: Relation) => relation.model.model),
  hooks: forwardedHooks("associationCounts", ["model:finalize"]),
});

/** The `hasMany` associations of records `R` (direct, `as:` or through): what `whereCount` and `orderByCount` count. */
export type CountableName<R> = { [K in keyof R]: R[K] extends AssociationField<ReadonlyArray<any>> ? K : never }[keyof R] & string;

/**
 * The `hasMany` associations of records `R` that `withCount` loads: those without an attribute `<name>Count` (a
 * counter cache), which the loaded count would hide.
 */
export type CountedName<R> = {
  [K in keyof R]: R[K] extends AssociationField<ReadonlyArray<any>> ? (`${K & string}Count` extends keyof AttributesOfRecord<R> ? never : K) : never;
}[keyof R] &
  string;

/** What `withCount` adds to records `R` for the names `K`: `<name>Count`, a number. */
export type WithCounts<K extends string> = { readonly [N in K as `${N}Count`]: number };

/** The scopes of `withCount`'s object form: association names to a function narrowing the counted records. */
export type CountScopesOf<R> = [CountedName<R>] extends [never]
  ? never
  : { readonly [K in CountedName<R>]?: (q: TypedRelation<AssociatedRecord<R[K]>>) => TypedRelation<AssociatedRecord<R[K]>> };

/** One argument of `withCount`: a name, or an object of names to scopes. */
export type CountSpec<R> = CountedName<R> | CountScopesOf<R>;

/** The names of a `withCount` argument: a name, or the keys of an object of scopes. */
type NamesOf<S> = S extends string ? S : keyof S & string;

/** How `whereCount` compares a count with its number. */
export type CountOperator = "=" | "!=" | ">" | ">=" | "<" | "<=";

declare module "../../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * Loads the number of each record's records of the named `hasMany` associations as `<name>Count` (a number), in
     * the same SELECT; an object narrows what is counted: `withCount({ comments: (q) => q.where({ approved: true }) })`.
     */
    withCount<const S extends readonly [CountSpec<R>, ...CountSpec<R>[]]>(...counts: S): TypedRelation<R & WithCounts<NamesOf<S[number]>>>;
    /** Narrows to the records whose count of the association compares so with `count` (`whereCount("comments", ">", 5)`). */
    whereCount(name: CountableName<R>, operator: CountOperator, count: number): this;
    /** Orders by the count of the association (ascending unless told), after the order given before it. */
    orderByCount(name: CountableName<R>, direction?: "asc" | "desc"): this;
  }

  interface PluginStatics<A> {
    /** `all().withCount(...)`: the records with the number of their records of each named `hasMany`. */
    withCount<M extends AnyModel, const S extends readonly [CountSpec<RecordOfModel<M>>, ...CountSpec<RecordOfModel<M>>[]]>(
      this: M,
      ...counts: S
    ): TypedRelation<RecordOfModel<M> & WithCounts<NamesOf<S[number]>>>;
    /** `all().whereCount(...)`. */
    whereCount<M extends AnyModel>(this: M, name: CountableName<RecordOfModel<M>>, operator: CountOperator, count: number): RelationOf<M>;
    /** `all().orderByCount(...)`. */
    orderByCount<M extends AnyModel>(this: M, name: CountableName<RecordOfModel<M>>, direction?: "asc" | "desc"): RelationOf<M>;
  }
}
