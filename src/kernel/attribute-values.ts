/** The types of attribute values as apps write them: what may be assigned, compared and serialized. */
/** What may be assigned to an attribute of JavaScript type `T`: the type itself or a form that casts to it. */
export type AssignableValue<T> = unknown extends T
  ? unknown
  : T extends Date
    ? Date | string
    : T extends number
      ? number | string
      : T extends boolean
        ? boolean | number | string
        : T;

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
        : never;

/** A record's attribute names. */
export type AttributeName<A> = keyof A & string;

/** The JSON form of a record's attributes: dates as ISO strings. */
export type JsonAttributes<A> = { [K in keyof A]: A[K] extends Date ? string : Extract<A[K], Date> extends never ? A[K] : string | Exclude<A[K], Date> };
