import { attributeNamed, castValue, definePlugin, isPlainObject, type Relation, type ResolvedModel } from "../kernel/index.js";

function isFormLike(input: unknown): input is { get(name: string): unknown; getAll(name: string): unknown[]; has(name: string): boolean } {
  return (
    (typeof FormData !== "undefined" && input instanceof FormData) ||
    (typeof URLSearchParams !== "undefined" && input instanceof URLSearchParams)
  );
}

function readInput(model: ResolvedModel, input: unknown, name: string): { present: boolean; value?: unknown } {
  if (isFormLike(input)) {
    if (!input.has(name)) return { present: false };
    const values = input.getAll(name);
    const value = values[values.length - 1];
    if (typeof value !== "string") throw new TypeError(`${model.name}.permit: ${name} is a file, not a value`);
    return { present: true, value };
  }
  const object = input as Record<string, unknown>;
  return Object.hasOwn(object, name) ? { present: true, value: object[name] } : { present: false };
}

/**
 * Picks the named attributes from request input (plain object, `FormData` or `URLSearchParams`), cast.
 * Keys not named are dropped; a named key absent from the input is left out; a repeated form key takes its last value.
 */
function permit(model: ResolvedModel, input: unknown, names: readonly string[]): Record<string, unknown> {
  if (!isFormLike(input) && !isPlainObject(input)) {
    throw new TypeError(`${model.name}.permit takes a plain object, FormData or URLSearchParams`);
  }
  const permitted: Record<string, unknown> = {};
  for (const name of names) {
    const attribute = attributeNamed(model, name);
    const { present, value } = readInput(model, input, name);
    if (present) permitted[name] = castValue(model, attribute, value);
  }
  return permitted;
}

/**
 * Permitting: `Model.permit(input, ...names)` picks and casts the named attributes from request input, ready for
 * build, create or update. A plugin, like Rails' strong parameters outside Active Record's core, so that a Worker
 * that never reads forms does not carry it.
 */
export const permitting = definePlugin({
  name: "permitting",
  setup(base: Record<string, unknown>) {
    base["permit"] = function (this: { all(): Relation }, input: unknown, ...names: string[]) {
      return permit(this.all().model, input, names);
    };
  },
});
