import type { AllowNilOrBlank, ValidationOptions } from "./validation-options.js";

/** One check's own options with the declaration's `allowNil` and `allowBlank` merged in. */
type Rule<Options> = Options & AllowNilOrBlank;

/** A declaration's options in the one shape the checks read: every check an object, its skips resolved. */
export interface Rules {
  readonly presence?: Rule<object>;
  readonly uniqueness?: Rule<{ caseSensitive?: boolean }>;
  readonly length?: Rule<{ minimum?: number; maximum?: number }>;
  readonly format?: Rule<{ with: RegExp }>;
  readonly inclusion?: Rule<{ in: readonly unknown[] }>;
  readonly numericality?: Rule<{ onlyInteger?: boolean; greaterThan?: number }>;
  readonly message?: string;
}

/** An option that is set; `false` turns a check off, as Rails skips `presence: false`. */
function given<T>(option: T | false | undefined): option is T {
  return option !== undefined && option !== false;
}

/** `Array.isArray` for a readonly list, so that the other branch is known to be the long form. */
function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/**
 * As Rails merges a declaration's defaults into each validator's options: the check's own `allowNil` or
 * `allowBlank` wins over the declaration's.
 */
function withSkips<T extends object>(own: T, declaration: AllowNilOrBlank): Rule<T> {
  const merged: Rule<T> = { ...own };
  if (merged.allowNil === undefined && declaration.allowNil !== undefined) merged.allowNil = declaration.allowNil;
  if (merged.allowBlank === undefined && declaration.allowBlank !== undefined) merged.allowBlank = declaration.allowBlank;
  return merged;
}

/** The short forms (`format: /re/`, `inclusion: [...]`, `true`) read as the long ones, each with its skips. */
export function rulesOf(options: ValidationOptions): Rules {
  const { uniqueness, length, format, inclusion, numericality } = options;
  const rule = <T extends object>(own: T) => withSkips(own, options);
  return {
    ...(options.presence === true && { presence: rule({}) }),
    ...(given(uniqueness) && { uniqueness: rule(uniqueness === true ? {} : uniqueness) }),
    ...(given(length) && { length: rule(length) }),
    ...(given(format) && { format: rule(ownFormat(format instanceof RegExp ? { with: format } : format)) }),
    ...(given(inclusion) && { inclusion: rule(isList(inclusion) ? { in: inclusion } : inclusion) }),
    ...(given(numericality) && { numericality: rule(numericality === true ? {} : numericality) }),
    ...(options.message !== undefined && { message: options.message }),
  };
}

/** The Model keeps its own copy of a `format`: a `g` or `y` RegExp's `lastIndex` must not be shared with the app. */
function ownFormat<T extends { with: RegExp }>(format: T): T {
  return { ...format, with: new RegExp(format.with) };
}
