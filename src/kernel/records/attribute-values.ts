/** The types of attribute values as apps write them: what may be assigned, compared and serialized. */
import type { AttributeInputMap, AttributeJsonMap, AttributeTypeMap, AttributeTypeName, BuiltInAttributeTypeName } from "./attribute-types.js";

/** The names of the types plugins added to `AttributeTypeMap`. */
type PluginTypeName = Exclude<AttributeTypeName, BuiltInAttributeTypeName>;

/** The value of a type plugins added: what their attributes hold. */
export type PluginTypeValue = AttributeTypeMap[PluginTypeName];

/** What a plugin's type whose value is `T` takes besides `T` (its `AttributeInputMap` entry); never for others. */
type PluginInput<T> = {
  [Name in keyof AttributeInputMap]: [T] extends [AttributeTypeMap[Name & AttributeTypeName]] ? AttributeInputMap[Name] : never;
}[keyof AttributeInputMap];

/** The JSON form of a plugin's type whose value is `T` (its `AttributeJsonMap` entry); never for others. */
type PluginJson<T> = {
  [Name in keyof AttributeJsonMap]: [T] extends [AttributeTypeMap[Name & AttributeTypeName]] ? AttributeJsonMap[Name] : never;
}[keyof AttributeJsonMap];

/** What may be assigned to an attribute of JavaScript type `T`: the type itself or a form that casts to it. */
export type AssignableValue<T> = unknown extends T
  ? unknown
  : T extends Date
    ? Date | string
    : T extends number
      ? number | string
      : T extends boolean
        ? boolean | number | string
        : T | PluginInput<T>;

/** The attribute object `build`, `create`, `assign` and `update` take: known names only. */
export type AssignAttributes<A> = { [K in keyof A]?: AssignableValue<A[K]> };

/** The JavaScript value a condition on an attribute of type `T` compares with. */
export type ConditionScalar<T> = unknown extends T ? unknown : T extends string ? string | number : AssignableValue<T>;

/**
 * The JavaScript value a comparison helper (`gt`, `between`, ...) on an attribute of type `T` takes: text on a
 * string attribute, a number or a number's literal text on a number attribute, a Date or date text on a datetime
 * attribute. Narrower than `ConditionScalar`: text compares as text, so a number on a string attribute would order
 * by its digits, and text that is not a number's can never bound a number.
 */
export type ComparisonScalar<T> = unknown extends T
  ? unknown
  : T extends string
    ? string
    : T extends number
      ? number | `${number}`
      : T extends Date
        ? Date | string
        : T extends PluginTypeValue
          ? T | PluginInput<T>
          : never;

/** A record's attribute names. */
export type AttributeName<A> = keyof A & string;

/** The names of the attributes whose JavaScript type is a number (a counter, a counter cache). */
export type NumberAttributeName<A> = { [K in keyof A]-?: NonNullable<A[K]> extends number ? K : never }[keyof A] & string;

/** The JSON form of one value: a Date as ISO text, a plugin type's value in its JSON form, others as they are. */
type JsonValue<T> = T extends Date ? string : [PluginJson<T>] extends [never] ? T : PluginJson<T>;

/** The JSON form of a record's attributes: dates as ISO strings, plugin types' values in their JSON form. */
export type JsonAttributes<A> = { [K in keyof A]: JsonValue<A[K]> };
