import { InvalidModel } from "../errors.js";
import type { MethodWrappers, Plugin } from "./plugin.js";

type MethodKind = keyof MethodWrappers;

/** Which plugin gave each function it provided or wrapped, so that a refusal names both plugins. */
const providers = new WeakMap<Function, string>();

/** Notes the plugin that gave a function (a method it provides, or the result of its wrap). */
export function noteProvider(fn: Function, plugin: Plugin): void {
  providers.set(fn, plugin.name);
}

const providerName = (fn: Function): string => (providers.has(fn) ? `plugin ${providers.get(fn)}` : "the kernel");

/** Refuses a method provided twice (`provider` gave it first), or wrapped when nothing provides it (no `provider`). */
function refusal(model: Function, plugin: Plugin, kind: MethodKind, name: string, provider?: string): InvalidModel {
  return new InvalidModel(
    `${model.name}.use: plugin ${plugin.name} ${provider ? "provides" : "wraps"} the ${kind} method ${name}, which ` +
      (provider ? `${provider} provides already; to run both, wrap it (definePlugin's wrap)` : "nothing registered before it provides"),
  );
}

/** The function a class or prototype has under a name, own or inherited; what every object or function has is left out. */
function methodOf(target: object, name: string): Function | undefined {
  for (let holder = target; holder !== Object.prototype && holder !== Function.prototype; holder = Object.getPrototypeOf(holder)) {
    // A getter (`tableName`) is no method, and is never called here.
    const descriptor = Object.getOwnPropertyDescriptor(holder, name);
    if (descriptor) return typeof descriptor.value === "function" ? descriptor.value : undefined;
  }
  return undefined;
}

/** Where a plugin's statics and record methods go: the class it is registered on, and its prototype. */
const targetsOf = (model: Function) => [["static", model], ["record", model.prototype as object]] as const;

/**
 * Runs a plugin's setup and refuses a static or record method it put in place of one the kernel or an earlier plugin
 * provides (the earlier one would silently stop running); notes the plugin as the provider of those it added.
 */
export function setUpRefusingReplacements(model: Function, plugin: Plugin): void {
  const targets = targetsOf(model);
  const before = targets.map(([, target]) => Object.getOwnPropertyDescriptors(target));
  plugin.setup?.(model);
  targets.forEach(([kind, target], index) => {
    for (const [name, { value }] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
      const previous = before[index]![name]?.value ?? methodOf(Object.getPrototypeOf(target), name);
      if (typeof value !== "function" || previous === value) continue;
      if (typeof previous === "function") throw refusal(model, plugin, kind, name, providerName(previous));
      noteProvider(value, plugin);
    }
  });
}

/**
 * Refuses a plugin's Relation method that the kernel's Relation, an earlier plugin on the chain or a static already
 * provides, and a wrap of a Relation method nothing provides.
 */
export function checkRelationMethods(model: Function, plugin: Plugin, earlier: readonly Plugin[], kernelRelation: object): void {
  const providerOf = (name: string): string | undefined => {
    const byPlugin = earlier.find((known) => Object.hasOwn(known.relationMethods ?? {}, name));
    if (byPlugin) return `plugin ${byPlugin.name}`;
    return name in kernelRelation && !(name in Object.prototype) ? "the kernel" : undefined;
  };
  for (const name of Object.keys(plugin.relationMethods ?? {})) {
    const existing = methodOf(model, name);
    const provider = providerOf(name) ?? (existing && providerName(existing));
    if (provider) throw refusal(model, plugin, "relation", name, provider);
  }
  for (const name of Object.keys(plugin.wrap?.relation ?? {})) {
    if (!providerOf(name)) throw refusal(model, plugin, "relation", name);
  }
}

/** Defines on `target` the method a plugin's wrapper makes of the one it has now; a wrapper or result that is no function is refused. */
function wrapOn(target: object, owner: string, plugin: Plugin, kind: MethodKind, name: string): void {
  const wrapper: unknown = plugin.wrap![kind]![name];
  const wrapped: unknown = typeof wrapper === "function" && wrapper((target as Record<string, unknown>)[name]);
  if (typeof wrapped !== "function") throw new TypeError(`${owner}: plugin ${plugin.name}'s wrap of the ${kind} method ${name} is no function of the method it wraps`);
  noteProvider(wrapped, plugin);
  Object.defineProperty(target, name, { value: wrapped, writable: true, configurable: true });
}

/**
 * Installs a plugin's static and record wrappers on the class it is registered on (own properties, so the classes
 * above it keep theirs). Relation wrappers are installed with each Model's Relation class.
 */
export function installStaticAndRecordWraps(model: Function, plugin: Plugin): void {
  for (const [kind, target] of targetsOf(model)) {
    for (const name of Object.keys(plugin.wrap?.[kind] ?? {})) {
      if (!methodOf(target, name)) throw refusal(model, plugin, kind, name);
      wrapOn(target, `${model.name}.use`, plugin, kind, name);
    }
  }
}

/** Defines a plugin's Relation methods, then its Relation wrappers, on a Model's plugin Relation prototype. */
export function installRelationMethods(modelName: string, prototype: object, plugin: Plugin): void {
  for (const [name, method] of Object.entries(plugin.relationMethods ?? {})) {
    Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
  }
  for (const name of Object.keys(plugin.wrap?.relation ?? {})) wrapOn(prototype, modelName, plugin, "relation", name);
}
