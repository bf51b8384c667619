import {
  type AnyModel,
  type Attribute,
  type AttributeName,
  type AttributesOfModel,
  attributesOf,
  CastError,
  castAs,
  declareModelState,
  definePlugin,
  defineModelState,
  InvalidModel,
  modelState,
  optionsArgument,
} from "../kernel/index.js";

/** One `normalizes` declaration's function and whether it also receives null. */
interface Normalizer {
  readonly normalize: (value: unknown) => unknown;
  readonly applyToNull: boolean;
}

// A declaration sets a new list for its attribute, never adding to a list in place: a copy of the Map is the Model's own.
const NORMALIZERS = defineModelState<Map<string, readonly Normalizer[]>>("normalizers", () => new Map(), (byAttribute) => new Map(byAttribute));

/** Options of `normalizes`. */
export interface NormalizesOptions {
  /** Pass null to the function too; by default null stays null, as Rails' `apply_to_nil: false`. */
  applyToNull?: boolean;
}

function normalizersOf(model: Function, attribute: Attribute): readonly Normalizer[] | undefined {
  return modelState(model, NORMALIZERS).get(attribute.name);
}

/**
 * The value after every normalizer of its attribute, in declaration order, cast again to the attribute's type so
 * that a normalizer cannot store what assignment would refuse.
 */
function normalized(model: Function, attribute: Attribute, value: unknown, normalizers: readonly Normalizer[]): unknown {
  let result = value;
  for (const { normalize, applyToNull } of normalizers) {
    if (result === null && !applyToNull) continue;
    result = normalize(result);
    if (result === undefined) throw new CastError(`${model.name}.${attribute.name}: a normalizer returned undefined; return null for NULL`, model, attribute.name, value);
    if (result !== null) {
      const cast = castAs(attribute.typeName, result);
      if (cast === undefined) throw new CastError(`${model.name}.${attribute.name}: a normalizer returned a value that is not a ${attribute.typeName}`, model, attribute.name, result);
      result = cast;
    }
  }
  return result;
}

function checkedNames(model: Function, names: unknown): string[] {
  const list = Array.isArray(names) ? names : [names];
  if (list.length === 0 || list.some((name) => typeof name !== "string")) {
    throw new TypeError(`${model.name}.normalizes takes an attribute name or a list of them, then a function`);
  }
  return list as string[];
}

/**
 * Normalization (Rails 7.1's `normalizes`): `this.normalizes("email", (email) => email.trim().toLowerCase())` in a
 * `static {}` block. The function runs on every assignment of the attribute (build, assign, create, update,
 * property setters) and on its values in condition objects (`where`, `whereNot`, `findBy`, lists too), so it has
 * run before validation and a lookup finds what was stored. Rows loaded from the database are not normalized.
 */
export const normalization = definePlugin({
  name: "normalization",
  setup(base: Record<string, unknown>) {
    base["normalizes"] = function (this: Function, names: unknown, normalize: unknown, options?: unknown) {
      if (typeof normalize !== "function") throw new TypeError(`${this.name}.normalizes takes an attribute name or a list of them, then a function`);
      const { applyToNull = false } = optionsArgument(`${this.name}.normalizes`, options as NormalizesOptions | undefined, ["applyToNull"]);
      const byAttribute = declareModelState(this, NORMALIZERS);
      for (const name of checkedNames(this, names)) {
        byAttribute.set(name, [...(byAttribute.get(name) ?? []), { normalize: normalize as Normalizer["normalize"], applyToNull }]);
      }
    };
  },
  appliesTo: (model: Function) => modelState(model, NORMALIZERS).size > 0,
  hooks: {
    "model:finalize"(model: Function) {
      const names = new Set(attributesOf(model).map((attribute) => attribute.name));
      for (const name of modelState(model, NORMALIZERS).keys()) {
        if (!names.has(name)) throw new InvalidModel(`${model.name}.normalizes: ${name} is not an attribute`);
      }
    },
    "attribute:assign"(context) {
      const model = context.record.constructor as Function;
      const normalizers = normalizersOf(model, context.attribute);
      if (normalizers) context.value = normalized(model, context.attribute, context.value, normalizers);
    },
    "attribute:condition"(context) {
      const normalizers = normalizersOf(context.model.model, context.attribute);
      if (!normalizers) return;
      // A value that does not cast is left for the condition to treat as it treats any such value (it matches nothing).
      const cast = castAs(context.attribute.typeName, context.value);
      if (cast !== undefined) context.value = normalized(context.model.model, context.attribute, cast, normalizers);
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Normalizes attributes on assignment and in conditions (`findBy({ email })`), before validation:
     * `this.normalizes("email", (email) => email.trim().toLowerCase())`. Null stays null unless `applyToNull`.
     */
    normalizes<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(
      this: M,
      attributes: K | readonly K[],
      normalize: (value: NonNullable<AttributesOfModel<M>[K]>) => AttributesOfModel<M>[K],
      options?: { applyToNull?: false },
    ): void;
    normalizes<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(
      this: M,
      attributes: K | readonly K[],
      normalize: (value: AttributesOfModel<M>[K]) => AttributesOfModel<M>[K],
      options: { applyToNull: true },
    ): void;
  }
}
