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

/** An options argument: undefined (no options) or a plain object; anything else is an `argumentError`. */
export function optionsArgument<Options extends object>(where: string, options: Options | undefined): Partial<Options> {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw argumentError(where, "an options object", options);
  return options;
}

/**
 * An options argument (see `optionsArgument`) whose every key is one of `names`: a misspelt or unknown key is a
 * `TypeError` naming it and the options taken (`connect: retries: attemps is not an option; the options are attempts
 * and delayMs`), rather than an option silently ignored.
 */
export function knownOptionsArgument<Options extends object>(where: string, options: Options | undefined, names: readonly (keyof Options & string)[]): Partial<Options> {
  const given = optionsArgument(where, options);
  const unknown = Object.keys(given).find((key) => !(names as readonly string[]).includes(key));
  if (unknown === undefined) return given;
  const taken = names.length === 1 ? `the option is ${names[0]}` : `the options are ${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  throw new TypeError(`${where}: ${unknown} is not an option; ${taken}`);
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
