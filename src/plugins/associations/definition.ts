import { attributesOf, camelize, InvalidModel, primaryKeyOf, underscore } from "../../kernel/index.js";

/**
 * What `dependent` does with an owner's children when the owner is destroyed, in the owner's destroy batch:
 * `destroy` destroys each child (its callbacks and dependents run); `deleteAll` (`delete` for `hasOne`) deletes
 * the rows with one DELETE, no callbacks; `nullify` sets their foreign key to NULL with one UPDATE, no callbacks;
 * `restrictWithError` makes the owner's destroy refuse while a child exists, with the reason in `errors`.
 */
export type Dependent = "destroy" | "deleteAll" | "delete" | "nullify" | "restrictWithError";

/** The `dependent` values of a `hasMany`. */
export type HasManyDependent = Exclude<Dependent, "delete">;

/** The `dependent` values of a `hasOne` (as in Rails, `delete` where `hasMany` says `deleteAll`). */
export type HasOneDependent = Exclude<Dependent, "deleteAll">;

const DEPENDENTS_OF = {
  hasMany: ["destroy", "deleteAll", "nullify", "restrictWithError"],
  hasOne: ["destroy", "delete", "nullify", "restrictWithError"],
} as const;

/** Options of `hasMany`. */
export interface HasManyOptions {
  /** What happens to the children when the owner is destroyed (see `Dependent`); nothing by default. */
  dependent?: HasManyDependent;
  /** The child's attribute holding the owner's key; the owner's name in camelCase plus `Id` by default. */
  foreignKey?: string;
  /**
   * Narrows the children: `scope: (q) => q.where({ published: true })`. Preloading (`includes`) a scope with a
   * `limit` or `offset` throws, since one query cannot limit each owner's children.
   */
  scope?: (relation: any) => any;
}

/** Options of `hasOne`. */
export interface HasOneOptions extends Omit<HasManyOptions, "dependent"> {
  /** What happens to the child when the owner is destroyed (see `Dependent`); nothing by default. */
  dependent?: HasOneDependent;
}

/** Options of `belongsTo`. */
export interface BelongsToOptions {
  /** The attribute holding the target's key; the association's name plus `Id` by default. */
  foreignKey?: string;
  /**
   * A null foreign key is allowed. Without it, as in Rails 5+, a record whose foreign key is null fails validation
   * with "must exist" (unless a parent was assigned or it was built through its parent).
   */
  optional?: boolean;
}

/** The kind of an association. */
export type AssociationKind = "hasMany" | "hasOne" | "belongsTo";

/** One association as declared by a field: its kind, target Model and options. */
export interface AssociationDefinition {
  readonly kind: AssociationKind;
  readonly target: Function;
  readonly options: { dependent?: Dependent; scope?: HasManyOptions["scope"]; foreignKey?: string; optional?: boolean };
}

/** An association resolved for a Model: its name and the keys that join owner and target. */
export interface ResolvedAssociation extends AssociationDefinition {
  readonly name: string;
  /** The attribute holding the other side's key: on the target for hasMany/hasOne, on the owner for belongsTo. */
  readonly foreignKey: string;
  /** The key the foreign key points at: the owner's primary key, or the target's for belongsTo. */
  readonly primaryKey: string;
}

/** The class name an owner's foreign keys are named after: the Model class just below its nameless declaration. */
function ownerName(model: Function): string {
  let named = model;
  for (let current: Function = model; current.name; current = Object.getPrototypeOf(current) as Function) named = current;
  return named.name;
}

/** Resolves the keys of an association declared on `owner` under `name`; InvalidModel if a key is missing. */
export function resolveAssociation(owner: Function, name: string, definition: AssociationDefinition): ResolvedAssociation {
  const { kind, target, options } = definition;
  const belongs = kind === "belongsTo";
  const foreignKey = options.foreignKey ?? (belongs ? `${name}Id` : `${camelize(underscore(ownerName(owner)))}Id`);
  const keyOwner = belongs ? owner : target;
  if (!attributesOf(keyOwner).some((attribute) => attribute.name === foreignKey)) {
    throw new InvalidModel(`${owner.name}.${name}: ${keyOwner.name} has no attribute ${foreignKey} (the foreign key); pass { foreignKey }`);
  }
  const dependent = options.dependent;
  if (dependent !== undefined && (belongs || !(DEPENDENTS_OF[kind] as readonly string[]).includes(dependent))) {
    const allowed = belongs ? "belongsTo takes no dependent option" : `use one of ${DEPENDENTS_OF[kind].join(", ")}`;
    throw new InvalidModel(`${owner.name}.${name}: dependent ${JSON.stringify(dependent)} is not known; ${allowed}`);
  }
  const primaryKey = primaryKeyOf(belongs ? target : owner).name;
  return { ...definition, name, foreignKey, primaryKey };
}
