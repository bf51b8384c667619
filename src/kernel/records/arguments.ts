import { previewText } from "./display.js";
import { CastError } from "../errors.js";
import { isInspectable, isPlainObject } from "./plain-object.js";

/**
 * The `TypeError` of a wrong argument: where it was given (`Note.order`), what is taken there, and briefly what
 * came. Every public method reports a wrong argument with it, before anything is sent.
 */
export function argumentError(where: string, expected: string, value: unknown): TypeError {
  return new TypeError(`${where} takes ${expected}, not ${previewText(value)}`);
}

/** Refuses an argument that cannot even be looked at: a revoked Proxy fails `instanceof` and `Array.isArray`. */
export function refuseUninspectable(where: string, expected: string, value: unknown): void {
  if (typeof value === "object" && value !== null && !isInspectable(value)) throw argumentError(where, expected, value);
}

/**
 * An options argument: undefined (no options) or a plain object of the option `names`; anything else is an
 * `argumentError`, and a name not among them (a misspelt option, which would be read as not given) a `TypeError`.
 * Without `names`, any key is let through, for a caller that checks its keys itself.
 */
export function optionsArgument<Options extends object>(where: string, options: Options | undefined, names?: readonly string[]): Partial<Options> {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw argumentError(where, "an options object", options);
  if (names === undefined) return options;
  const unknown = Object.keys(options).find((name) => !names.includes(name));
  if (unknown !== undefined) throw new TypeError(`${where}: ${previewText(unknown)} is not an option; the options are ${names.join(", ")}`);
  return options;
}

/** A count (of records: `limit`, `first(n)`; a budget: `maxQueries`): a safe whole number from `minimum`, else an `argumentError`. */
export function countArgument(where: string, value: unknown, minimum = 0): number {
  if (!Number.isSafeInteger(value) || (value as number) < minimum) throw argumentError(where, `a whole number from ${minimum}`, value);
  return value as number;
}

/**
 * Refuses the arguments past the `taken` ones a method reads (`given` is its `arguments.length`): one it would ignore
 * changes what is read or written (`Post.deleteAll({ title })` would delete every row). `instead` says what to write.
 */
export function refuseExtraArguments(where: string, given: number, taken: number, instead?: string): void {
  if (given <= taken) return;
  const takes = taken === 0 ? "no argument" : `${taken === 1 ? "one argument" : `${taken} arguments`}, not ${given}`;
  throw new TypeError(`${where} takes ${takes}${instead ? `; ${instead}` : ""}`);
}

const KEYS = "a key or a list of keys";

/** Whether a value can name a row by its key: text or a number (casting says whether it is one of the Model's keys). */
const isKeyValue = (value: unknown): boolean => typeof value === "string" || typeof value === "number" || typeof value === "bigint";

/**
 * Refuses what is neither a key nor a flat list of keys (`updateCounters`, `resetCounters`): `undefined`, `null`, an
 * object (a record: give its key), a nested list. A list read as no key would change no row and say nothing.
 */
export function refuseNonKeys(where: string, ids: unknown): void {
  refuseUninspectable(where, KEYS, ids);
  if (!(Array.isArray(ids) ? ids.every(isKeyValue) : isKeyValue(ids))) throw argumentError(where, KEYS, ids);
}

/**
 * Why a value is none that any attribute, condition or `sql` fragment takes, or undefined: a symbol or function is no
 * data; a string that is not well-formed UTF-16 (a lone surrogate) would be stored as U+FFFD; a revoked Proxy cannot
 * even be read. The reason names no part of the value, so that it may be said of a filtered attribute.
 */
export function unfitValue(value: unknown): string | undefined {
  switch (typeof value) {
    case "symbol":
    case "function":
      return `a ${typeof value} is not a value`;
    case "string":
      return (value as string & { isWellFormed(): boolean }).isWellFormed() ? undefined : "the text is not well-formed UTF-16 (a lone surrogate)";
    case "object":
      return value === null || isInspectable(value) ? undefined : "the value cannot be inspected (a revoked Proxy)";
    default:
      return undefined;
  }
}

/** What a value of request input was meant for, as a `CastError` carries it. */
export interface CastTarget {
  /** The Model class. */
  readonly model: Function | undefined;
  /** The attribute, or the option that took the value. */
  readonly attribute: string | undefined;
}

/**
 * Whether a value can come from a request, as `JSON.parse`, a form or a query string give it (or `undefined`, a
 * field left out): refusing it is refusing bad input (`CastError`), where refusing a symbol, a function, a `Map` or a
 * revoked Proxy is refusing the app's code (`TypeError`).
 */
function isRequestValue(value: unknown): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "symbol" && typeof value !== "function" && typeof value !== "bigint";
  return isInspectable(value) && (Array.isArray(value) || isPlainObject(value));
}

/** The error of a refused value: `CastError` when a request can send it (see `isRequestValue`), else `TypeError`. */
export function refusedValueError(message: string, value: unknown, target: CastTarget): TypeError {
  return isRequestValue(value) ? new CastError(message, target.model, target.attribute, value) : new TypeError(message);
}

/**
 * Throws (`<where>: <reason>`) for a value `unfitValue` refuses: `CastError` for text, which a request can carry
 * (`JSON.parse` keeps a lone surrogate), `TypeError` for a symbol, a function or a revoked Proxy, which only code
 * can give.
 */
export function refuseUnfitValue(where: string, value: unknown, target: CastTarget): void {
  const problem = unfitValue(value);
  if (problem !== undefined) throw refusedValueError(`${where}: ${problem}`, value, target);
}
