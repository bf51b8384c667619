import type { ModelHookName, ModelHooks } from "./hooks.js";
import { checkPlugin } from "./plugin-checks.js";

/** A feature packaged for a base class: hook functions plus an optional setup run when it is registered. */
export interface Plugin {
  /** A unique name; registering the same plugin twice on a class chain is a no-op. */
  readonly name: string;
  /** Hook functions by hook point; they run for every Model that inherits from the class the plugin is on. */
  readonly hooks?: { readonly [K in ModelHookName]?: ModelHooks[K] };
  /**
   * Methods added to the Relations of every Model below the class the plugin is on; each also becomes a static
   * of that class, starting from `all()`.
   */
  readonly relationMethods?: { readonly [name: string]: (this: any, ...args: any[]) => unknown };
  /**
   * Methods the plugin wraps (Rails' `super`): each wrapper receives the method as the kernel or the plugins
   * registered before it left it, and returns the one that replaces it, which calls `next`. Every plugin that wraps
   * a method runs, in registration order, the last registered outermost. Providing a method (in `relationMethods`
   * or `setup`) that the kernel or an earlier plugin provides is refused with `InvalidModel`: wrap it instead.
   */
  readonly wrap?: MethodWrappers;
  /**
   * Runs once when the plugin is registered, with the class it is registered on (add statics, settings). A static
   * or record method it adds must be new: one replacing the kernel's or an earlier plugin's is refused.
   */
  readonly setup?: (model: any) => void;
  /**
   * Whether the plugin's hooks run for a Model at all. Asked once per Model, at its first use, after every
   * `model:finalize` hook; when it says no, none of the plugin's hooks run for that Model, so a Model that
   * declares none of a feature (no validations, no associations) pays nothing for it on its hot paths.
   * Without it, the hooks run for every Model.
   */
  readonly appliesTo?: (model: any) => boolean;
}

/** A method a plugin provides or wraps: `this` is the Relation, the Model class or the record it is called on. */
export type PluginMethod = (this: any, ...args: any[]) => any;

/**
 * Wraps a method: receives the method as it stood before (the kernel's, or the last plugin's that provided or wrapped
 * it) and returns the one to use, which calls `next` where Rails would call `super`.
 */
export type MethodWrapper = (next: PluginMethod) => PluginMethod;

/** A plugin's wrappers, by the kind of method and its name. */
export interface MethodWrappers {
  /** Relation methods (each also reached by its static form, which starts from `all()`). */
  readonly relation?: { readonly [name: string]: MethodWrapper };
  /** Statics of the class the plugin is registered on, and of every class below it. */
  readonly static?: { readonly [name: string]: MethodWrapper };
  /** Record methods of the Models below the class the plugin is registered on. */
  readonly record?: { readonly [name: string]: MethodWrapper };
}

/** A hook function registered under a hook name, with the plugin that brought it (none for `Model.hook`). */
export type HookRegistration = readonly [ModelHookName, (...args: any[]) => unknown, Plugin?];

/**
 * Defines a plugin. Register it on a base class with `static { this.use(plugin) }`. Throws `TypeError` naming the
 * plugin and the key for a definition with anything it would ignore (see `checkPlugin`).
 */
// Marked free of side effects, so that bundlers drop the plugins a Worker never registers.
/* @__NO_SIDE_EFFECTS__ */
export function definePlugin(plugin: Plugin): Plugin {
  checkPlugin("definePlugin", plugin);
  return plugin;
}

/** The hook registrations a plugin contributes, in declaration order. */
export function registrationsOf(plugin: Plugin): HookRegistration[] {
  return Object.entries(plugin.hooks ?? {}).map(([name, fn]) => [name as ModelHookName, fn as (...args: any[]) => unknown, plugin]);
}

/**
 * A key for per-Model state that a plugin keeps (validations, callbacks, ...). Each Model gets its own copy
 * of its parent's value, made with `copy`, so that declaring on a child never changes the parent.
 */
export interface ModelStateKey<T> {
  readonly description: string;
  readonly initial: () => T;
  readonly copy: (value: T) => T;
}

/** Defines a key for per-Model plugin state. */
export function defineModelState<T>(description: string, initial: () => T, copy: (value: T) => T): ModelStateKey<T> {
  return { description, initial, copy };
}
