import { InvalidModel } from "./errors.js";
import type { MethodWrappers, Plugin, PluginMethod } from "./plugin.js";

type MethodKind = keyof MethodWrappers;

const KIND_NAMES: Record<MethodKind, string> = { relation: "Relation method", static: "static", record: "record method" };

/** Which plugin gave each function it provided or wrapped, so that a conflict names both plugins. */
const providers = new WeakMap<Function, string>();

/** Notes the plugin that gave a function (a provided method, or the result of a wrap). */
export function noteProvider(fn: Function, plugin: Plugin): void {
  providers.set(fn, plugin.name);
}

function providerName(fn: Function): string {
  const plugin = providers.get(fn);
  return plugin === undefined ? "the kernel" : `plugin ${plugin}`;
}

function conflict(model: Function, plugin: Plugin, kind: MethodKind, name: string, provider: string): InvalidModel {
  return new InvalidModel(
    `${model.name}.use: plugin ${plugin.name} provides the ${KIND_NAMES[kind]} ${name}, which ${provider} provides already; ` +
      `to run both, wrap it (definePlugin({ wrap: { ${kind}: { ${name}: (next) => function (...args) { ...; return next.apply(this, args) } } } }))`,
  );
}

/** The function an object inherits under a name, ignoring what every object or function has (`toString`, `call`). */
function inheritedMethod(target: object, name: string): Function | undefined {
  for (let holder = Object.getPrototypeOf(target); holder && holder !== Object.prototype && holder !== Function.prototype; holder = Object.getPrototypeOf(holder)) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, name);
    // A getter (`tableName`) is no method, and is never called here.
    if (descriptor) return typeof descriptor.value === "function" ? descriptor.value : undefined;
  }
  return undefined;
}

/** The object's own methods by name (data properties only). */
function ownMethods(target: object): Map<string, Function> {
  const methods = new Map<string, Function>();
  for (const name of Object.getOwnPropertyNames(target)) {
    const { value } = Object.getOwnPropertyDescriptor(target, name)!;
    if (typeof value === "function") methods.set(name, value);
  }
  return methods;
}

function methodOf(target: object, name: string): Function | undefined {
  const own = Object.getOwnPropertyDescriptor(target, name);
  if (own) return typeof own.value === "function" ? own.value : undefined;
  return inheritedMethod(target, name);
}

/**
 * Runs a plugin's setup and refuses a static or record method it put in place of one the kernel or an earlier plugin
 * provides: the earlier one would silently stop running. Notes the plugin as the provider of what it added.
 */
export function setUpRefusingReplacements(model: Function, plugin: Plugin): void {
  const targets = [["static", model], ["record", model.prototype as object]] as const;
  const before = targets.map(([, target]) => ownMethods(target));
  plugin.setup?.(model);
  targets.forEach(([kind, target], index) => {
    for (const [name, method] of ownMethods(target)) {
      const previous = before[index]!.has(name) ? before[index]!.get(name) : inheritedMethod(target, name);
      if (previous === method) continue;
      if (previous !== undefined) throw conflict(model, plugin, kind, name, providerName(previous));
      noteProvider(method, plugin);
    }
  });
}

/**
 * Refuses a plugin's Relation method that the kernel's Relation or an earlier plugin on the chain provides (as a
 * Relation method or a static), and a wrap of a Relation method nobody provides.
 */
export function checkRelationMethods(model: Function, plugin: Plugin, earlier: readonly Plugin[], kernelRelation: object): void {
  const providerOf = (name: string): string | undefined => {
    const byPlugin = earlier.find((known) => Object.hasOwn(known.relationMethods ?? {}, name));
    if (byPlugin) return `plugin ${byPlugin.name}`;
    if (name in kernelRelation && !(name in Object.prototype)) return "the kernel";
    return undefined;
  };
  for (const name of Object.keys(plugin.relationMethods ?? {})) {
    const provider = providerOf(name) ?? staticProvider(model, name);
    if (provider !== undefined) throw conflict(model, plugin, "relation", name, provider);
  }
  for (const name of Object.keys(plugin.wrap?.relation ?? {})) {
    if (providerOf(name) === undefined) throw nothingToWrap(model, plugin, "relation", name);
  }
}

function staticProvider(model: Function, name: string): string | undefined {
  const existing = methodOf(model, name);
  return existing === undefined ? undefined : providerName(existing);
}

function nothingToWrap(model: Function, plugin: Plugin, kind: MethodKind, name: string): InvalidModel {
  return new InvalidModel(`${model.name}.use: plugin ${plugin.name} wraps the ${KIND_NAMES[kind]} ${name}, which neither the kernel nor a plugin registered before it provides`);
}

/** Refuses wrappers that are no functions, before anything is installed. */
export function checkWrappers(model: Function, plugin: Plugin): void {
  for (const kind of Object.keys(KIND_NAMES) as MethodKind[]) {
    for (const [name, wrapper] of Object.entries(plugin.wrap?.[kind] ?? {})) {
      if (typeof wrapper !== "function") {
        throw new TypeError(`${model.name}.use: plugin ${plugin.name} wraps the ${KIND_NAMES[kind]} ${name} with ${typeof wrapper}, not a function of the method it wraps`);
      }
    }
  }
}

/** The method a wrapper makes of `next`; a wrapper that returns no function is refused, naming it. */
export function wrapMethod(owner: string, plugin: Plugin, kind: MethodKind, name: string, next: Function): PluginMethod {
  const wrapped: unknown = plugin.wrap![kind]![name]!(next as PluginMethod);
  if (typeof wrapped !== "function") {
    throw new TypeError(`${owner}: plugin ${plugin.name}'s wrapper of the ${KIND_NAMES[kind]} ${name} returned ${typeof wrapped}, not a function`);
  }
  noteProvider(wrapped, plugin);
  return wrapped as PluginMethod;
}

function installWraps(model: Function, plugin: Plugin, kind: "static" | "record", target: object): void {
  for (const name of Object.keys(plugin.wrap?.[kind] ?? {})) {
    const next = methodOf(target, name);
    if (next === undefined) throw nothingToWrap(model, plugin, kind, name);
    const value = wrapMethod(`${model.name}.use`, plugin, kind, name, next);
    Object.defineProperty(target, name, { value, writable: true, configurable: true });
  }
}

/**
 * Installs a plugin's static and record wrappers on the class it is registered on (its own properties, so the
 * classes above it keep theirs). Relation wrappers are installed with each Model's Relation class.
 */
export function installStaticAndRecordWraps(model: Function, plugin: Plugin): void {
  installWraps(model, plugin, "static", model);
  installWraps(model, plugin, "record", model.prototype as object);
}

/** Defines a plugin's Relation methods, then its Relation wrappers, on a Model's plugin Relation prototype. */
export function installRelationMethods(modelName: string, prototype: object, plugin: Plugin): void {
  for (const [name, method] of Object.entries(plugin.relationMethods ?? {})) {
    Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
  }
  for (const name of Object.keys(plugin.wrap?.relation ?? {})) {
    const next = (prototype as Record<string, Function>)[name]!;
    Object.defineProperty(prototype, name, { value: wrapMethod(modelName, plugin, "relation", name, next), writable: true, configurable: true });
  }
}
