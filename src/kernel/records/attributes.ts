import { type AttributeType, type AttributeTypeMap, type AttributeTypeName, attributeTypes } from "./attribute-types.js";
import { InvalidModel } from "../errors.js";
import { previewText } from "./display.js";
import { underscore } from "../sql/naming.js";

/** A default: a value, or a function called at `build()` for a fresh value each time. */
export type AttributeDefault = unknown;

/** The long form of an attribute declaration. */
export interface AttributeOptions {
  readonly type: AttributeTypeName;
  /** The column, when it is not the attribute name in snake_case. */
  readonly column?: string;
  /** `false` makes the attribute NOT NULL, and non-null in TypeScript. */
  readonly null?: boolean;
  /** Applied at `build()`; a function is called for each record. Replaces `generateId`. */
  readonly default?: AttributeDefault;
  /** Fills the attribute with the Model's `generateId` at `build()` (strings only). Replaces `default`. */
  readonly generateId?: boolean;
}

/** An attribute declaration: a type name, or the long form. */
export type AttributeDeclaration = AttributeTypeName | AttributeOptions;

/** The attribute declarations of a Model, by attribute name. */
export type AttributeDeclarations = { readonly [name: string]: AttributeDeclaration };

/** One attribute of a Model, as the kernel and plugins see it once declared. */
export interface Attribute {
  readonly name: string;
  readonly typeName: AttributeTypeName;
  readonly type: AttributeType;
  readonly column: string;
  readonly nullable: boolean;
  readonly default: AttributeDefault | undefined;
  readonly hasDefault: boolean;
  readonly generateId: boolean;
  /** Whether the attribute's values are hidden as `[FILTERED]` wherever recordflare shows them. Set by plugins. */
  filtered: boolean;
  /**
   * Whether a plugin sets the attribute whenever a write changes a row (the timestamps plugin marks `updatedAt`), so
   * that writes made without a record, such as an upsert's update of an existing row, touch it alike. Set by plugins.
   */
  updateTimestamp: boolean;
  /**
   * Whether an upsert updates an existing row only where the row holds the value the upsert writes (single-table
   * inheritance marks a subclass's type: its upsert never updates a row of another class). Set by plugins.
   */
  matchedOnUpsert: boolean;
}

/** SPEC's override rule 3: an attribute has a default or generateId, so a declaration giving both is refused. */
function refuseDefaultWithGenerateId(owner: string, name: string, options: { default?: unknown; generateId?: boolean }): void {
  if (options.generateId && options.default !== undefined) {
    throw new InvalidModel(`${owner}.${name}: an attribute has a default or generateId, not both`);
  }
}

const OPTION_NAMES = ["type", "column", "null", "default", "generateId"];

/**
 * Refuses a declaration or override of none of SPEC's forms (a type name, or an object of the options): plain
 * JavaScript may pass anything, and a misspelt option (`nul: false`) must not be silently ignored.
 */
function refuseMalformed(owner: string, name: string, value: unknown): void {
  const options = typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).every((key) => OPTION_NAMES.includes(key));
  if (!options && typeof value !== "string") throw new InvalidModel(`${owner}.${name} is not a type name or { ${OPTION_NAMES.join(", ")} }`);
}

/** Resolves one declaration. */
export function defineAttribute(modelName: string, name: string, declaration: AttributeDeclaration): Attribute {
  refuseMalformed(modelName, name, declaration);
  const options = toOptions(declaration);
  // Own types only: a name such as "toString" is no type.
  const type = Object.hasOwn(attributeTypes, options.type) ? attributeTypes[options.type] : undefined;
  // A plugin's type is defined when the plugin is registered: register it before declaring the Models that use it.
  if (!type) throw new InvalidModel(`${modelName}.${name} has an unknown type ${previewText(options.type)}`);
  if (options.generateId && options.type !== "string") {
    throw new InvalidModel(`${modelName}.${name}: generateId is only for string attributes`);
  }
  refuseDefaultWithGenerateId(modelName, name, options);
  const refuse = (option: string, expected: string, value: unknown) => new InvalidModel(`${modelName}.${name}: ${option} must be ${expected}, not ${previewText(value)}`);
  const { column } = options;
  if (column !== undefined && (typeof column !== "string" || column === "")) throw refuse("column", "a column name", column);
  // Read as true or false, `null: "no"` would be nullable and `generateId: "yes"` generate nothing, silently.
  for (const flag of ["null", "generateId"] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== "boolean") throw refuse(flag, "true or false", options[flag]);
  }
  return {
    name,
    typeName: options.type,
    type,
    column: options.column ?? underscore(name),
    nullable: options.null !== false,
    default: options.default,
    hasDefault: options.default !== undefined,
    generateId: options.generateId === true,
    filtered: false,
    updateTimestamp: false,
    matchedOnUpsert: false,
  };
}

/** An override of a generated attribute, the second argument of `ApplicationRecord('<table>', {...})`. */
export type AttributeOverride =
  | AttributeTypeName
  | false
  | { readonly type?: AttributeTypeName; readonly null?: boolean; readonly default?: AttributeDefault; readonly generateId?: boolean };

/** The overrides of a table's generated attributes, by attribute name. */
export type AttributeOverrides = { readonly [name: string]: AttributeOverride };

function toOptions(declaration: AttributeDeclaration): AttributeOptions {
  return typeof declaration === "string" ? { type: declaration } : declaration;
}

function overrideOne(table: string, name: string, generated: AttributeOptions, override: Exclude<AttributeOverride, false>) {
  refuseMalformed(table, name, override);
  const change = typeof override === "string" ? { type: override } : override;
  if ("column" in change) throw new InvalidModel(`${table}.${name}: an override cannot change the column`);
  refuseDefaultWithGenerateId(table, name, change);
  const typeChanged = change.type !== undefined && change.type !== generated.type;
  // A new type drops the generated default or id generator: they were made for the old type.
  const { default: generatedDefault, generateId: generatedId, ...kept } = generated;
  const result: { -readonly [K in keyof AttributeOptions]: AttributeOptions[K] } = { ...kept, ...change, type: change.type ?? generated.type };
  // A default and an id generator replace each other; `generateId: false` alone keeps the generated default.
  if (!typeChanged && change.default === undefined) {
    if (generatedDefault !== undefined && !change.generateId) result.default = generatedDefault;
    if (generatedId && change.generateId === undefined) result.generateId = true;
  }
  // A given default or id generator needs no deleting of the other: the generated ones were left out of `kept`, and
  // the override giving both was refused above.
  return result;
}

/**
 * Applies overrides to a table's generated declarations. Returns the declarations and the ignored columns.
 * Adding an attribute or changing a column throws `InvalidModel` (ignoring the primary key is refused at first use).
 */
export function applyOverrides(
  table: string,
  generated: AttributeDeclarations,
  overrides: AttributeOverrides,
): { declarations: AttributeDeclarations; ignoredColumns: string[] } {
  const declarations: Record<string, AttributeDeclaration> = {};
  const ignoredColumns: string[] = [];
  for (const name of Object.keys(overrides)) {
    if (!(name in generated)) throw new InvalidModel(`${table} has no attribute ${name} to override; declare it in a migration`);
  }
  for (const [name, declaration] of Object.entries(generated)) {
    const override = overrides[name];
    if (override === false) {
      ignoredColumns.push(toOptions(declaration).column ?? underscore(name));
      continue;
    }
    declarations[name] = override === undefined ? declaration : overrideOne(table, name, toOptions(declaration), override);
  }
  return { declarations, ignoredColumns };
}

type Nullable<D> = D extends { readonly null: false } ? never : null;
type TypeOf<D> = D extends AttributeTypeName ? D : D extends { readonly type: infer T extends AttributeTypeName } ? T : never;

/**
 * The attributes of a record, from its declarations: each the JavaScript type of its attribute type, with `null`
 * unless declared `null: false`. Written out in place and intersected with `{}` (rather than through named helper
 * aliases) so that editors show the attributes themselves: `{ name: string; age: number | null }`.
 */
export type AttributesOf<Declarations> = {
  -readonly [K in keyof Declarations]: AttributeTypeMap[TypeOf<Declarations[K]>] | Nullable<Declarations[K]>;
} & {};

type OverrideResult<D, O> = O extends AttributeTypeName
  ? { type: O; null: D extends { readonly null: false } ? false : true }
  : O extends { readonly type?: infer T; readonly null?: infer N }
    ? {
        type: T extends AttributeTypeName ? T : TypeOf<D>;
        null: N extends boolean ? N : D extends { readonly null: false } ? false : true;
      }
    : D;

/** The declarations of a generated table after overrides: ignored columns gone, changed ones replaced. */
export type OverriddenDeclarations<Generated, Overrides> = {
  [K in keyof Generated as K extends keyof Overrides ? (Overrides[K] extends false ? never : K) : K]: K extends keyof Overrides
    ? OverrideResult<Generated[K], Overrides[K]>
    : Generated[K];
};
