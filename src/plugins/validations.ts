import { attributesOf, declareModelState, definePlugin, InvalidModel, previewText, defineModelState, modelState, type AnyModel, type AttributeName, type AttributesOfModel, type Plugin, type SaveContext, refuseExtraArguments } from "../kernel/index.js";
import { checkValidationOptions, COMMON_CHECKS, type ValidationOptions } from "./validation-options.js";
import { BUILT_IN_VALIDATORS } from "./validation-rules.js";
import { skipsValue } from "./validation-skips.js";
import type { CommonCheckOptions, Validator } from "./validator.js";

export type { CommonCheckOptions, Validator, ValidatorContext } from "./validator.js";

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /** Declares validations of an attribute (in a `static {}` block). */
    validates<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(this: M, attribute: K, options: ValidationOptions<AttributesOfModel<M>[K], AttributesOfModel<M>>): void;
  }
}

/** One check of a declaration, its options read into their long form with the declaration's merged in. */
interface Rule {
  readonly validator: Validator;
  readonly options: CommonCheckOptions;
}

interface Declared {
  readonly model: Function & { readonly tableName: string };
  readonly attribute: string;
  readonly rules: readonly Rule[];
  readonly on: SaveContext["operation"] | undefined;
  readonly when: ((record: any) => unknown) | undefined;
}

const VALIDATIONS = defineModelState<Declared[]>("validations", () => [], (list) => [...list]);

/**
 * The checks a Model's `validates` offers, by option name: the built-in ones, then those registered on its class
 * chain. A subclass starts with a copy of its parent's, so a check registered on one base is unknown to its siblings.
 */
const VALIDATORS = defineModelState<Map<string, Validator>>("validations:validators", () => new Map(BUILT_IN_VALIDATORS), (parent) => new Map(parent));

/**
 * As Rails merges a declaration's defaults into each validator's options: the check's own `allowNil`, `allowBlank`
 * or `message` wins over the declaration's.
 */
function withDeclared(own: object, declaration: CommonCheckOptions): CommonCheckOptions {
  const merged: Record<string, unknown> = { ...own };
  for (const key of Object.keys(COMMON_CHECKS) as (keyof CommonCheckOptions)[]) {
    if (merged[key] === undefined && declaration[key] !== undefined) merged[key] = declaration[key];
  }
  return merged;
}

/** The checks a declaration turns on, in the order the Model offers them, each with its long-form options. */
function rulesOf(options: Record<string, unknown>, validators: ReadonlyMap<string, Validator>): Rule[] {
  const rules: Rule[] = [];
  for (const [name, validator] of validators) {
    const given = options[name];
    if (given === undefined || given === false) continue;
    const own = validator.options ? validator.options(given) : given === true ? {} : (given as object);
    rules.push({ validator, options: withDeclared(own, options) });
  }
  return rules;
}

function declare(model: Function & { readonly tableName: string }, attribute: string, options: ValidationOptions): void {
  const validators = modelState(model, VALIDATORS);
  checkValidationOptions(model.name, attribute, options, validators);
  declareModelState(model, VALIDATIONS).push({
    model,
    attribute,
    rules: rulesOf(options as Record<string, unknown>, validators),
    on: options.on,
    when: options.if,
  });
}

/**
 * Refuses, at the Model's first use, a validation of a name that is not one of its attributes: it would otherwise
 * fail only at the first save. Checked then, not in `validates`, since a `static {}` block runs before the Model's
 * attributes are known (its schema may be read later, and a subclass's declarations come after its parent's).
 */
function checkDeclaredAttributes(model: Function): void {
  const declared = modelState(model, VALIDATIONS);
  if (declared.length === 0) return;
  const names = new Set(attributesOf(model).map((attribute) => attribute.name));
  for (const { attribute, rules } of declared) {
    const where = `${model.name}.validates(${previewText(attribute)})`;
    if (!names.has(attribute)) throw new InvalidModel(`${where}: ${model.name} has no such attribute`);
    for (const read of rules.flatMap(({ validator, options }) => validator.attributesRead?.(options) ?? [])) {
      if (!names.has(read)) throw new InvalidModel(`${where}: ${model.name} has no attribute ${previewText(read)}`);
    }
  }
}

/** Whether a value is a promise to wait for: a check that needs none costs no turn of the event loop. */
const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null)?.then === "function";

/** Runs a declaration's rules from `from` on the attribute's value, awaiting only a check that returns a promise (a query). */
function validateRules(context: SaveContext, declaration: Declared, value: unknown, from = 0): Promise<void> | void {
  const { record, operation } = context;
  for (let index = from; index < declaration.rules.length; index++) {
    const { validator, options } = declaration.rules[index]!;
    if (skipsValue(value, options)) continue;
    const report = (type: string, message: string) => record.errors.add(declaration.attribute, type, options.message ?? message);
    const checking = validator.validate({ record, model: declaration.model, attribute: declaration.attribute, value, options, operation, report });
    if (isThenable(checking)) return Promise.resolve(checking).then(() => validateRules(context, declaration, value, index + 1));
  }
}

/** Runs a declaration's rules when its `if` allows; the `if` is awaited only when it returns a promise. */
function validateDeclaration(context: SaveContext, declaration: Declared): Promise<void> | void {
  const { record } = context;
  const allowed = declaration.when ? declaration.when(record) : true;
  if (isThenable(allowed)) return Promise.resolve(allowed).then((yes) => (yes ? validateRules(context, declaration, record.readAttribute(declaration.attribute)) : undefined));
  if (allowed) return validateRules(context, declaration, record.readAttribute(declaration.attribute));
}

/** Runs the declared validations from `from`, in order; sync unless one returns a promise. */
function validateAll(context: SaveContext, declared: readonly Declared[], from = 0): Promise<void> | void {
  for (let index = from; index < declared.length; index++) {
    const declaration = declared[index]!;
    if (declaration.on !== undefined && declaration.on !== context.operation) continue;
    const validating = validateDeclaration(context, declaration);
    if (validating) return validating.then(() => validateAll(context, declared, index + 1));
  }
}

/**
 * Validations: `this.validates("<attribute>", { presence, uniqueness, length, format, inclusion, numericality })`
 * in a `static {}` block, and the checks registered with `defineValidator`. They run on every save (or on the
 * one `on` names, when `if` allows), before the save callbacks; failures go to `record.errors` and the save returns
 * false. Bulk writes skip them. As in Rails, null is checked unless `allowNil` or `allowBlank` says to skip it.
 */
export const validations = definePlugin({
  name: "validations",
  setup(base: Record<string, unknown>) {
    base["validates"] = function (this: Function & { readonly tableName: string }, attribute: string, options: ValidationOptions) {
      if (typeof attribute !== "string" || typeof options !== "object" || options === null) {
        throw new TypeError(`${this.name}.validates takes an attribute name and an options object`);
      }
      // A second options object would be ignored, and its checks never run.
      refuseExtraArguments(`${this.name}.validates`, arguments.length, 2, "give every check in one options object");
      declare(this, attribute, options);
    };
  },
  appliesTo: (model: Function) => modelState(model, VALIDATIONS).length > 0,
  hooks: {
    "model:finalize": checkDeclaredAttributes,
    "record:validate": (context) => validateAll(context, modelState(context.record.constructor, VALIDATIONS)),
  },
});

// Each definition is its own plugin: registering it twice is a no-op, and two checks of one name are told apart.
let definitions = 0;

/**
 * Makes a check that `validates` offers as the option `name` (`email: true`, `email: { message: "..." }`) on the
 * Models of the class the returned plugin is registered on (`this.use(email)` in its `static {}` block), and only
 * there: a sibling class does not know it. `allowNil`, `allowBlank`, `message`, `on` and `if` work for it as for the
 * built-in checks. Type its option by declaration merging on `ValidatorOptions`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineValidator<Options extends object = {}>(name: string, validator: Validator<Options>): Plugin {
  if (typeof name !== "string" || !/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`defineValidator: the name must be an identifier, not ${previewText(name)}`);
  // The option names a registered check may not take: the built-in checks' and the declaration's own.
  if (BUILT_IN_VALIDATORS.has(name) || Object.hasOwn(COMMON_CHECKS, name) || name === "on" || name === "if") throw new TypeError(`defineValidator: ${name} is an option of validates already`);
  if (typeof validator?.validate !== "function") throw new TypeError(`defineValidator(${JSON.stringify(name)}): the validator needs a validate function`);
  if (validator.attributesRead !== undefined && typeof validator.attributesRead !== "function") {
    throw new TypeError(`defineValidator(${JSON.stringify(name)}): attributesRead is a function of the check's options`);
  }
  return definePlugin({
    name: `validator:${name}#${++definitions}`,
    setup(base: Function) {
      const validators = declareModelState(base, VALIDATORS);
      const known = validators.get(name);
      if (known && known !== validator) throw new TypeError(`${base.name}: a validator named ${name} is registered already`);
      validators.set(name, validator as Validator);
    },
  });
}
