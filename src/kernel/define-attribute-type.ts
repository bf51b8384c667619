/**
 * Attribute types plugins add: `defineAttributeType` makes the kernel's conversions of a plugin's definition and
 * registers them under the type's name, beside the built-in types.
 */
import { argumentError } from "./arguments.js";
import { type AttributeType, type AttributeTypeDefinition, type AttributeTypeMap, type AttributeTypeName, attributeTypes, UNCASTABLE } from "./attribute-types.js";

const REQUIRED_CONVERSIONS = ["cast", "toDatabase", "fromDatabase"] as const;

/** The kernel's conversions of a plugin's type: `UNCASTABLE` for what it refuses, `canonical` from its two ways. */
function conversionsOf(definition: AttributeTypeDefinition<any>): AttributeType {
  const { cast, castCondition = cast, toDatabase, fromDatabase, toJSON } = definition;
  return {
    cast: (value) => cast(value) ?? UNCASTABLE,
    castCondition: (value) => castCondition(value) ?? UNCASTABLE,
    toDatabase,
    fromDatabase,
    canonical: (stored) => toDatabase(fromDatabase(stored)),
    comparable: definition.comparable === true,
    ...(toJSON ? { toJSON } : {}),
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
  for (const conversion of REQUIRED_CONVERSIONS) {
    if (typeof definition[conversion] !== "function") throw argumentError(`defineAttributeType(${name}): ${conversion}`, "a function", definition[conversion]);
  }
  if (defined.get(name) === definition) return;
  if (Object.hasOwn(attributeTypes, name)) throw new TypeError(`defineAttributeType: the attribute type ${name} is already defined`);
  defined.set(name, definition);
  attributeTypes[name] = conversionsOf(definition);
}
