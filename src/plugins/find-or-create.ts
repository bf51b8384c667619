/**
 * Rails' `find_or_create_by` and `find_or_initialize_by`: the first record matching some attribute values, or a new
 * one with them. Two round trips when it creates (the lookup, then the INSERT), as in Rails; a unique index is what
 * keeps two concurrent requests from both creating.
 */
import {
  type AnyModel,
  argumentError,
  type AssignAttributes,
  type AttributesOfModel,
  type AttributesOfRecord,
  type ConditionField,
  type Conditions,
  definePlugin,
  isPlainObject,
  type RecordAssignment,
  type RecordOfModel,
  refuseExtraArguments,
  type Relation,
} from "../kernel/index.js";

/** Attribute values a record is found by and, when none matches, created with: each both a condition and assignable. */
export type FindOrCreateAttributes<A> = Conditions<A> & AssignAttributes<A>;

/**
 * A find-or-create object `C` for records `R`: attribute values, and the record fields conditions take by name (a
 * `belongsTo` takes a record of its target, or null), whose key the new record starts with.
 */
export type FindOrCreateFields<R, C> = {
  [K in keyof C]: K extends keyof AttributesOfRecord<R>
    ? FindOrCreateAttributes<AttributesOfRecord<R>>[K]
    : K extends keyof R
      ? R[K] extends ConditionField<infer V>
        ? V | null
        : never
      : never;
};

type Make = "create" | "createOrThrow" | "build";

/** The first record of the Relation matching `attributes`, else one made by `make` with them and `extra`. */
function findOr(method: string, make: Make) {
  return async function (this: Relation, attributes: object, extra: object = {}): Promise<unknown> {
    const where = `${this.model.name}.${method}`;
    refuseExtraArguments(where, arguments.length, 2);
    if (!isPlainObject(attributes)) throw argumentError(where, "a plain object of attribute values", attributes);
    if (!isPlainObject(extra)) throw argumentError(where, "a plain object of the attributes only a new record gets", extra);
    // A belongsTo given by name (`{ author: user }`) finds by a list of records too, but a new record takes one: refused before the lookup.
    for (const [name, value] of Object.entries(attributes)) {
      if (!this.model.byName.has(name) && Array.isArray(value)) throw argumentError(`${where}: ${name}`, "one record to create with", value);
    }
    const narrowed = this.where(attributes as never, method);
    const found = await narrowed.take();
    // Awaited here, so that a create refused as it builds is handled at once, not a microtask after its rejection.
    return found ?? (await (narrowed[make] as (attributes: object) => unknown)({ ...attributes, ...extra }));
  };
}

/**
 * `findOrCreateBy`, `findOrCreateByOrThrow` and `findOrInitializeBy` on a Relation or Model: the record the Relation
 * would find by the attribute values, or a new one that starts with them (and the Relation's own equality conditions,
 * and `extra`, attributes a new record alone gets: Rails' `create_with`).
 */
export const findOrCreate = definePlugin({
  name: "findOrCreate",
  relationMethods: {
    findOrCreateBy: findOr("findOrCreateBy", "create"),
    findOrCreateByOrThrow: findOr("findOrCreateByOrThrow", "createOrThrow"),
    findOrInitializeBy: findOr("findOrInitializeBy", "build"),
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /**
     * The first record matching `attributes`, else one created with them and `extra` (as `create`: check its `errors` or
     * `isPersisted`, or use `findOrCreateByOrThrow`).
     */
    findOrCreateBy(attributes: FindOrCreateAttributes<AttributesOfRecord<R>>, extra?: RecordAssignment<R>): Promise<R>;
    /** `findOrCreateBy` by attributes and by the record fields conditions take (`{ author: user }`). */
    findOrCreateBy<C extends object>(attributes: C & FindOrCreateFields<R, C>, extra?: RecordAssignment<R>): Promise<R>;
    /** As `findOrCreateBy`, throwing `RecordInvalid` or `RecordNotSaved` when the create is refused. */
    findOrCreateByOrThrow(attributes: FindOrCreateAttributes<AttributesOfRecord<R>>, extra?: RecordAssignment<R>): Promise<R>;
    /** `findOrCreateByOrThrow` by attributes and by the record fields conditions take (`{ author: user }`). */
    findOrCreateByOrThrow<C extends object>(attributes: C & FindOrCreateFields<R, C>, extra?: RecordAssignment<R>): Promise<R>;
    /** The first record matching `attributes`, else a new, unsaved one built with them and `extra`. */
    findOrInitializeBy(attributes: FindOrCreateAttributes<AttributesOfRecord<R>>, extra?: RecordAssignment<R>): Promise<R>;
    /** `findOrInitializeBy` by attributes and by the record fields conditions take (`{ author: user }`). */
    findOrInitializeBy<C extends object>(attributes: C & FindOrCreateFields<R, C>, extra?: RecordAssignment<R>): Promise<R>;
  }
  interface PluginStatics<A> {
    /** `all().findOrCreateBy(attributes, extra)`. */
    findOrCreateBy<M extends AnyModel>(
      this: M,
      attributes: FindOrCreateAttributes<AttributesOfModel<M>>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
    /** `all().findOrCreateBy(attributes, extra)`, by the record fields conditions take too (`{ author: user }`). */
    findOrCreateBy<M extends AnyModel, C extends object>(
      this: M,
      attributes: C & FindOrCreateFields<RecordOfModel<M>, C>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
    /** `all().findOrCreateByOrThrow(attributes, extra)`. */
    findOrCreateByOrThrow<M extends AnyModel>(
      this: M,
      attributes: FindOrCreateAttributes<AttributesOfModel<M>>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
    /** `all().findOrCreateByOrThrow(attributes, extra)`, by the record fields conditions take too (`{ author: user }`). */
    findOrCreateByOrThrow<M extends AnyModel, C extends object>(
      this: M,
      attributes: C & FindOrCreateFields<RecordOfModel<M>, C>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
    /** `all().findOrInitializeBy(attributes, extra)`. */
    findOrInitializeBy<M extends AnyModel>(
      this: M,
      attributes: FindOrCreateAttributes<AttributesOfModel<M>>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
    /** `all().findOrInitializeBy(attributes, extra)`, by the record fields conditions take too (`{ author: user }`). */
    findOrInitializeBy<M extends AnyModel, C extends object>(
      this: M,
      attributes: C & FindOrCreateFields<RecordOfModel<M>, C>,
      extra?: RecordAssignment<RecordOfModel<M>>,
    ): Promise<RecordOfModel<M>>;
  }
}
