/**
 * Attribute types plugins add: `defineAttributeType` makes the kernel's conversions of a plugin's definition and
 * registers them under the type's name, beside the built-in types.
 */
import { installBindableCheck } from "../sql/bindable-values.js";
import { argumentError } from "./arguments.js";
import { type AttributeType, type AttributeTypeDefinition, type AttributeTypeMap, type AttributeTypeName, attributeTypes, UNCASTABLE } from "./attribute-types.js";

const CONVERSIONS = ["cast", "castCondition", "toDatabase", "fromDatabase", "toJSON"] as const;

/**
 * The kernel's conversions of a plugin's type: `UNCASTABLE` for what it refuses, `canonical` from its two ways. Each
 * calls the definition's own method, so that a definition written as a class keeps its `this`.
 */
function conversionsOf(definition: AttributeTypeDefinition<any>): AttributeType {
  const castCondition = definition.castCondition ? (value: unknown) => definition.castCondition!(value) : (value: unknown) => definition.cast(value);
  return {
    cast: (value) => definition.cast(value) ?? UNCASTABLE,
    castCondition: (value) => castCondition(value) ?? UNCASTABLE,
    toDatabase: (value) => definition.toDatabase(value),
    fromDatabase: (stored) => definition.fromDatabase(stored),
    canonical: (stored) => definition.toDatabase(definition.fromDatabase(stored)),
    comparable: definition.comparable === true,
    ...(definition.toJSON ? { toJSON: (value: unknown) => definition.toJSON!(value) } : {}),
  };
}

const defined = new Map<string, AttributeTypeDefinition<any>>();

/**
 * Adds an attribute type, under `name`, for every Model declared after it (`price: "money"` in a Model's
 * declarations or a generated table's overrides). Plugin API: call it in a plugin's `setup`, and add `name` to
 * `AttributeTypeMap` for its TypeScript type. Defining the same definition again is a no-op; another definition
 * under a taken name, a built-in type's name included, throws `TypeError`.
 */
export function defineAttributeType<Name extends string>(name: Name, definition: AttributeTypeDefinition<Name extends AttributeTypeName ? AttributeTypeMap[Name] : unknown>): void {
  if (typeof name !== "string" || !/^[A-Za-z]\w*$/.test(name)) throw argumentError("defineAttributeType", "a type name of letters, digits and _", name);
  if (typeof definition !== "object" || definition === null) throw argumentError(`defineAttributeType(${name})`, "{ cast, toDatabase, fromDatabase }", definition);
  for (const conversion of CONVERSIONS) {
    const given = definition[conversion];
    const optional = conversion === "castCondition" || conversion === "toJSON";
    if (typeof given !== "function" && !(optional && given === undefined)) throw argumentError(`defineAttributeType(${name}): ${conversion}`, "a function", given);
  }
  const { comparable } = definition;
  if (comparable !== undefined && typeof comparable !== "boolean") throw argumentError(`defineAttributeType(${name}): comparable`, "a boolean", comparable);
  if (defined.get(name) === definition) return;
  if (Object.hasOwn(attributeTypes, name)) throw new TypeError(`defineAttributeType: the attribute type ${name} is already defined`);
  defined.set(name, definition);
  attributeTypes[name] = conversionsOf(definition);
  // Its toDatabase may give what D1 cannot bind.
  installBindableCheck();
}
