import {
  type AnyModel,
  attributeNamed,
  type Attribute,
  type AttributeName,
  type AttributesOfModel,
  CastError,
  castValue,
  definePlugin,
  isPlainObject,
  optionsArgument,
  previewText,
  refusedValueError,
  type Relation,
  type ResolvedModel,
} from "../kernel/index.js";

/** Options of `permit(input, names, options)`. */
export interface PermitOptions {
  /**
   * An empty (or blank) form field of an attribute that is not text becomes null, as an HTML form sends an empty
   * number or date field; without it such a value is refused with `CastError`. String and json attributes keep `""`.
   */
  emptyAsNull?: boolean;
}

/** Form input: both classes are globals wherever the library runs (Workers, and Node from 22). */
function isFormLike(input: unknown): input is FormData | URLSearchParams {
  return input instanceof FormData || input instanceof URLSearchParams;
}

function readInput(model: ResolvedModel, input: unknown, name: string): { present: boolean; value?: unknown } {
  if (isFormLike(input)) {
    if (!input.has(name)) return { present: false };
    const values = input.getAll(name);
    const value = values[values.length - 1];
    if (typeof value !== "string") throw new CastError(`${model.name}.permit: ${name} is a file, not a value`, model.model, name, value);
    return { present: true, value };
  }
  const object = input as Record<string, unknown>;
  return Object.hasOwn(object, name) ? { present: true, value: object[name] } : { present: false };
}

/**
 * Picks the named attributes from request input (plain object, `FormData` or `URLSearchParams`), cast.
 * Keys not named are dropped; a named key absent from the input is left out; a repeated form key takes its last value.
 */
function permit(model: ResolvedModel, input: unknown, names: readonly string[], options: PermitOptions): Record<string, unknown> {
  if (!isFormLike(input) && !isPlainObject(input)) {
    const message = `${model.name}.permit takes a plain object, FormData or URLSearchParams, not ${previewText(input)}`;
    // A JSON body can be a list, text or null, and a nested object can be missing: the request's fault, not the app's.
    throw refusedValueError(message, input, { model: model.model, attribute: undefined });
  }
  const permitted: Record<string, unknown> = {};
  for (const name of names) {
    if (typeof name !== "string") throw new TypeError(`${model.name}.permit: attribute names are strings, not ${previewText(name)}`);
    const attribute = attributeNamed(model, name);
    const { present, value } = readInput(model, input, name);
    if (present) permitted[name] = options.emptyAsNull && isEmptyField(attribute, value) ? null : castValue(model, attribute, value);
  }
  return permitted;
}

function isEmptyField(attribute: Attribute, value: unknown): boolean {
  return typeof value === "string" && value.trim() === "" && attribute.typeName !== "string" && attribute.typeName !== "json";
}

/** The names and options of a call: `permit(input, ...names)` or `permit(input, names, options)`. */
function namesAndOptions(model: ResolvedModel, args: unknown[]): [string[], PermitOptions] {
  if (!Array.isArray(args[0])) return [args as string[], {}];
  const [names, options = {}] = args as [string[], PermitOptions | undefined];
  if (args.length > 2 || !isPlainObject(options)) {
    throw new TypeError(`${model.name}.permit takes (input, ...names) or (input, names, options)`);
  }
  return [names, optionsArgument(`${model.name}.permit`, options, ["emptyAsNull"])];
}

/**
 * Permitting: `Model.permit(input, ...names)` (or `Model.permit(input, names, { emptyAsNull })`) picks and casts the
 * named attributes from request input, ready for build, create or update. A plugin, like Rails' strong parameters outside Active Record's core, so that a Worker
 * that never reads forms does not carry it.
 */
export const permitting = definePlugin({
  name: "permitting",
  setup(base: Record<string, unknown>) {
    base["permit"] = function (this: { all(): Relation }, input: unknown, ...args: unknown[]) {
      const model = this.all().model;
      const [names, options] = namesAndOptions(model, args);
      return permit(model, input, names, options);
    };
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /** Picks and casts the named attributes from request input (`Model.permit(input, "title", "body")`). */
    permit<M extends AnyModel, const K extends AttributeName<AttributesOfModel<M>>>(this: M, input: unknown, ...names: K[]): { [P in K]?: AttributesOfModel<M>[P] };
    permit<M extends AnyModel, const K extends AttributeName<AttributesOfModel<M>>>(
      this: M,
      input: unknown,
      names: readonly K[],
      options: PermitOptions,
    ): { [P in K]?: AttributesOfModel<M>[P] | (AttributesOfModel<M>[P] extends string ? never : null) };
  }
}
