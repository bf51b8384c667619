import { attributesOf, InvalidModel, isPlainObject, previewText } from "../../kernel/index.js";
import { counterAttributeOf } from "./counter-column.js";
import { ATTRIBUTE_NAME_OPTION, type AssociationDefinition, BOOLEAN_OPTION, checkOptions, type OptionChecks, type PolymorphicSide, type ResolvedAssociation, resolveAssociation } from "./definition.js";

/** Options of a polymorphic `belongsTo`: `commentable = belongsTo([Post, Photo], { polymorphic: true })`. */
export interface PolymorphicBelongsToOptions {
  /** The parent is a record of whichever listed Model the row's type names. */
  polymorphic: true;
  /** The attribute holding the parent's key; the association's name plus `Id` by default. */
  foreignKey?: string;
  /** The attribute holding the parent's Model name (Rails' `foreign_type`); the association's name plus `Type` by default. */
  foreignType?: string;
  /** A null key and type are allowed; without it, a record with either null fails validation with "must exist". */
  optional?: boolean;
  /**
   * Keeps a count of the children on each parent (Rails' `counter_cache` on a polymorphic `belongsTo`): `true` for
   * the child's table in camelCase plus `Count`, or the attribute to keep, which every listed Model must have. A
   * write adds to or takes from the parent its type and key name, in the write's own batch; see the guide, "Counter
   * caches".
   */
  counterCache?: true | string;
}

const OPTIONS: Record<keyof PolymorphicBelongsToOptions, OptionChecks[string]> = {
  polymorphic: { expected: "true", fits: (value) => value === true },
  foreignKey: ATTRIBUTE_NAME_OPTION,
  foreignType: ATTRIBUTE_NAME_OPTION,
  optional: BOOLEAN_OPTION,
  counterCache: { expected: "true or the name of the parents' counter attribute", fits: (value) => value === true || typeof value === "string" },
};

/**
 * What a polymorphic `belongsTo` field declares. As Rails' reflection of one has no class, it has no one target
 * Model: reading `target` throws, so that no code written for one Model reads a row of another as its own.
 */
export class PolymorphicDefinition implements AssociationDefinition {
  readonly kind = "belongsTo";

  constructor(
    readonly models: readonly Function[],
    readonly options: PolymorphicBelongsToOptions,
  ) {}

  get target(): never {
    throw new InvalidModel("a polymorphic belongsTo has no one target Model: each row's type names its own");
  }
}

/** A polymorphic `belongsTo` resolved for its Model; like its target, its parent's primary key depends on the row. */
class ResolvedPolymorphic extends PolymorphicDefinition implements ResolvedAssociation {
  constructor(
    definition: PolymorphicDefinition,
    readonly name: string,
    readonly foreignKey: string,
    readonly polymorphic: PolymorphicSide,
    readonly counterCache: string | undefined,
  ) {
    super(definition.models, definition.options);
  }

  get primaryKey(): never {
    throw new InvalidModel(`${this.name} is polymorphic: the primary key is that of the Model its ${this.polymorphic.foreignType} names`);
  }
}

/** The Models an association's records may be: a polymorphic `belongsTo`'s listed ones, else its target. */
export function targetModels(association: ResolvedAssociation): Function[] {
  return association.kind === "belongsTo" && association.polymorphic ? [...association.polymorphic.models.values()] : [association.target];
}

/** The listed Model that `model` is or descends from (the nearest), with the type value naming it. */
export function listedEntry(models: ReadonlyMap<string, Function>, model: unknown): [string, Function] | undefined {
  for (let current = model; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    for (const entry of models) if (entry[1] === current) return entry;
  }
  return undefined;
}

/** The listed Models by the name each stores in the type column; InvalidModel for a list that cannot be told apart. */
function modelsByName(where: string, models: unknown): Map<string, Function> {
  if (!Array.isArray(models) || models.length === 0 || models.some((model) => typeof model !== "function")) {
    const given = typeof models === "function" ? `${models.name} alone` : previewText(models);
    throw new InvalidModel(`${where}: polymorphic takes a list of Model classes, as belongsTo([Post, Photo], { polymorphic: true }), not ${given}`);
  }
  const byName = new Map<string, Function>();
  for (const model of models as Function[]) {
    if (!model.name) throw new InvalidModel(`${where}: a listed Model has no class name, which the type column stores`);
    if (byName.has(model.name)) throw new InvalidModel(`${where}: two listed Models are named ${model.name}, which the type column could not tell apart`);
    byName.set(model.name, model);
  }
  return byName;
}

function checkPolymorphicOptions(where: string, options: unknown): asserts options is PolymorphicBelongsToOptions {
  if (!isPlainObject(options)) throw new InvalidModel(`${where}: options must be a plain object, not ${previewText(options)}`);
  for (const [option, value] of Object.entries(options)) {
    const check = OPTIONS[option as keyof PolymorphicBelongsToOptions];
    if (!check) throw new InvalidModel(`${where}: ${option} is an unknown option (options: ${Object.keys(OPTIONS).join(", ")})`);
    if (value !== undefined && !check.fits(value)) throw new InvalidModel(`${where}: ${option} must be ${check.expected}, not ${previewText(value)}`);
  }
  if (options.polymorphic !== true) throw new InvalidModel(`${where}: a list of Models needs { polymorphic: true }`);
}

function requireAttribute(owner: Function, where: string, name: string, role: string, typeName?: string): void {
  const attribute = attributesOf(owner).find((each) => each.name === name);
  if (!attribute) throw new InvalidModel(`${where}: ${owner.name} has no attribute ${name} (${role}); pass { ${role} }`);
  if (typeName && attribute.typeName !== typeName) throw new InvalidModel(`${where}: ${owner.name}.${name} (${role}) is ${attribute.typeName}, not ${typeName}: it stores a Model's name`);
}

/** The counter a `counterCache` keeps on every listed Model, checked on each: its name is the same on each. */
function counterOfModels(owner: Function, name: string, models: ReadonlyMap<string, Function>, option: true | string | undefined): string | undefined {
  if (option === undefined) return undefined;
  return [...models.values()].map((model) => counterAttributeOf(owner, name, model, option))[0];
}

/**
 * Resolves a polymorphic `belongsTo`: its options, its Models (each told by its class name, which the type column
 * stores, as Rails stores the class name), the owner's key and type attributes, and its counter on every listed
 * Model. The Models' associations are not resolved here (each of them may declare `as` children that resolve this
 * Model's associations).
 */
export function resolvePolymorphicBelongsTo(owner: Function, name: string, definition: PolymorphicDefinition): ResolvedAssociation {
  const where = `${owner.name}.${name} (polymorphic belongsTo)`;
  checkPolymorphicOptions(where, definition.options);
  const models = modelsByName(where, definition.models);
  const foreignKey = definition.options.foreignKey ?? `${name}Id`;
  const foreignType = definition.options.foreignType ?? `${name}Type`;
  requireAttribute(owner, where, foreignKey, "foreignKey");
  requireAttribute(owner, where, foreignType, "foreignType", "string");
  const counterCache = counterOfModels(owner, name, models, definition.options.counterCache);
  return new ResolvedPolymorphic(definition, name, foreignKey, { foreignType, models }, counterCache);
}

/** The scopes of `as` associations that declared no `scope` of their own: they narrow the rows by the type alone. */
const typeOnlyScopes = new WeakSet<Function>();

/** Whether an association narrows its rows with a `scope` of its own, beyond the type condition `as` adds. */
export function hasOwnScope(association: ResolvedAssociation): boolean {
  const { scope } = association.options;
  return scope !== undefined && !typeOnlyScopes.has(scope);
}

/**
 * Resolves a `hasMany` or `hasOne` declared `as` the target's polymorphic `belongsTo` (`parent`): its foreign key is
 * that association's (unless given), and its rows are those whose type names the owner's Model, a condition added
 * before its own `scope`, so that every read and write of the children (loads, preloads, dependents) keeps to it.
 */
export function resolveAs(owner: Function, name: string, definition: AssociationDefinition, parent: ResolvedAssociation | undefined): ResolvedAssociation {
  checkOptions(owner, name, definition);
  const { target, options } = definition;
  if (parent?.kind !== "belongsTo" || !parent.polymorphic) {
    throw new InvalidModel(`${owner.name}.${name}: ${target.name} has no polymorphic belongsTo named ${options.as} (as)`);
  }
  const { foreignType, models } = parent.polymorphic;
  const entry = listedEntry(models, owner);
  if (!entry) throw new InvalidModel(`${owner.name}.${name}: ${target.name}.${options.as} does not list ${owner.name} among its Models (${[...models.keys()].join(", ")})`);
  const resolved = resolveAssociation(owner, name, { ...definition, options: { ...options, foreignKey: options.foreignKey ?? parent.foreignKey } });
  const [type] = entry;
  const scope = (relation: { where(conditions: object): unknown }) => {
    const typed = relation.where({ [foreignType]: type });
    return options.scope ? options.scope(typed) : typed;
  };
  if (!options.scope) typeOnlyScopes.add(scope);
  return { ...resolved, options: { ...resolved.options, scope }, polymorphic: { foreignType, models: new Map([entry]) } };
}
