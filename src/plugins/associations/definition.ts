import { attributesOf, camelize, InvalidModel, isPlainObject, previewText, primaryKeyOf, underscore } from "../../kernel/index.js";
import { counterAttributeOf } from "./counter-column.js";

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
  /**
   * The target's polymorphic `belongsTo` that points back at the owner (Rails' `as:`): the children are the rows
   * whose type names the owner's Model and whose key is the owner's; the foreign key is that `belongsTo`'s.
   */
  as?: string;
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
  /**
   * Keeps a count of the children on the parent (Rails' `counter_cache`): `true` for the child's table in camelCase
   * plus `Count` (`commentsCount` for comments), or the parent's attribute to keep. Creating, destroying and moving a
   * child update it in the write's own batch; see the guide, "Counter caches".
   */
  counterCache?: true | string;
}

/** The kind of an association. */
export type AssociationKind = "hasMany" | "hasOne" | "belongsTo";

/** One association as declared by a field: its kind, target Model and options. */
export interface AssociationDefinition {
  readonly kind: AssociationKind;
  /** The target Model; a polymorphic `belongsTo` has none (reading it throws): its `models` are the candidates. */
  readonly target: Function;
  /** The Models a polymorphic `belongsTo`'s type may name. */
  readonly models?: readonly Function[];
  readonly options: { dependent?: Dependent; scope?: HasManyOptions["scope"]; foreignKey?: string; optional?: boolean; counterCache?: true | string; as?: string; through?: unknown; source?: string; sourceType?: string };
}

/**
 * The type column of a polymorphic association and the Models it names, by the value naming each (the Model's
 * name): all the listed Models for a polymorphic `belongsTo` (the column is the owner's), the owner's alone for a
 * `hasMany` or `hasOne` declared `as` it (the column is the target's).
 */
export interface PolymorphicSide {
  /** The attribute holding the type. */
  readonly foreignType: string;
  readonly models: ReadonlyMap<string, Function>;
}

/** An association resolved for a Model: its name and the keys that join owner and target. */
export interface ResolvedAssociation extends AssociationDefinition {
  readonly name: string;
  /** The attribute holding the other side's key: on the target for hasMany/hasOne, on the owner for belongsTo. */
  readonly foreignKey: string;
  /** The key the foreign key points at: the owner's primary key, or the target's for belongsTo. */
  readonly primaryKey: string;
  /** For a `belongsTo` with `counterCache`: the parent's attribute that counts the children. */
  readonly counterCache?: string;
  /** The type column and the Models it names, for a polymorphic `belongsTo` and for `as`. */
  readonly polymorphic?: PolymorphicSide;
  /**
   * For a through association, the name of the owner's association it goes through (whose keys join it; its own
   * `foreignKey` and `primaryKey` are then the owner's primary key).
   */
  readonly through?: string;
}

/** The class name an owner's foreign keys are named after: the Model class just below its nameless declaration. */
function ownerName(model: Function): string {
  let named = model;
  for (let current: Function = model; current.name; current = Object.getPrototypeOf(current) as Function) named = current;
  return named.name;
}

/** Each option an association takes, and what it must hold. */
export type OptionChecks = Record<string, { expected: string; fits(value: unknown): boolean }>;

/** The `dependent` values of each kind, as an option check. */
export const dependentOption = (kind: "hasMany" | "hasOne") => ({
  expected: `one of ${DEPENDENTS_OF[kind].join(", ")}`,
  fits: (value: unknown) => (DEPENDENTS_OF[kind] as readonly unknown[]).includes(value),
});

/** An option naming an attribute (`foreignKey`, `foreignType`). */
export const ATTRIBUTE_NAME_OPTION = { expected: "an attribute name", fits: (value: unknown) => typeof value === "string" };

/** An option that is on or off (`optional`). */
export const BOOLEAN_OPTION = { expected: "a boolean", fits: (value: unknown) => typeof value === "boolean" };

/** The options of a `hasMany` or `hasOne`, which differ only in their `dependent` values. */
const ownerSideOptions = (kind: "hasMany" | "hasOne"): OptionChecks => ({
  dependent: dependentOption(kind),
  foreignKey: ATTRIBUTE_NAME_OPTION,
  scope: { expected: "a function of the Relation", fits: (value) => typeof value === "function" },
  as: { expected: "the name of the target's polymorphic belongsTo", fits: (value) => typeof value === "string" },
});

/** Each option an association of a kind takes, and what it must hold. */
const OPTIONS_OF: Record<AssociationKind, OptionChecks> = {
  hasMany: ownerSideOptions("hasMany"),
  hasOne: ownerSideOptions("hasOne"),
  belongsTo: {
    foreignKey: ATTRIBUTE_NAME_OPTION,
    optional: BOOLEAN_OPTION,
    counterCache: { expected: "true or the name of the parent's counter attribute", fits: (value) => value === true || typeof value === "string" },
  },
};

/** Why an option of Rails' is refused rather than ignored: an association keyed otherwise would join the wrong rows. */
const NOT_SUPPORTED: Record<string, string> = {
  primaryKey: "not supported: an association joins on the primary key of the Model that owns the key",
};

/**
 * Refuses options that the association's kind (or `known`) does not take (a misspelt `dependant` would leave
 * children behind) and values of the wrong kind, naming the Model, the association and the option, and listing the
 * valid ones.
 */
export function checkOptions(owner: Function, name: string, { kind, target, options }: AssociationDefinition, known: OptionChecks = OPTIONS_OF[kind]): void {
  const where = `${owner.name}.${name} (${kind})`;
  if (typeof target !== "function") throw new InvalidModel(`${where}: the target must be a Model class, not ${previewText(target)}`);
  if (!isPlainObject(options)) throw new InvalidModel(`${where}: options must be a plain object, not ${previewText(options)}`);
  for (const [option, value] of Object.entries(options)) {
    const check = known[option];
    if (!check) {
      const reason = NOT_SUPPORTED[option] ?? "an unknown option";
      throw new InvalidModel(`${where}: ${option} is ${reason} (options: ${Object.keys(known).join(", ")})`);
    }
    if (value !== undefined && !check.fits(value)) throw new InvalidModel(`${where}: ${option} must be ${check.expected}, not ${previewText(value)}`);
  }
}

/** Resolves the keys of an association declared on `owner` under `name`; InvalidModel if an option or key is wrong. */
export function resolveAssociation(owner: Function, name: string, definition: AssociationDefinition): ResolvedAssociation {
  checkOptions(owner, name, definition);
  const { kind, target, options } = definition;
  const belongs = kind === "belongsTo";
  const foreignKey = options.foreignKey ?? (belongs ? `${name}Id` : `${camelize(underscore(ownerName(owner)))}Id`);
  const keyOwner = belongs ? owner : target;
  if (!attributesOf(keyOwner).some((attribute) => attribute.name === foreignKey)) {
    throw new InvalidModel(`${owner.name}.${name}: ${keyOwner.name} has no attribute ${foreignKey} (the foreign key); pass { foreignKey }`);
  }
  const primaryKey = primaryKeyOf(belongs ? target : owner).name;
  const counted = belongs && options.counterCache !== undefined;
  return { ...definition, name, foreignKey, primaryKey, ...(counted && { counterCache: counterAttributeOf(owner, name, target, options.counterCache!) }) };
}
