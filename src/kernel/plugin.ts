import type { ModelHookName, ModelHooks } from "./hooks.js";

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
  /** Runs once when the plugin is registered, with the class it is registered on (add statics, settings). */
  readonly setup?: (model: any) => void;
  /**
   * Whether the plugin's hooks run for a Model at all. Asked once per Model, at its first use, after every
   * `model:finalize` hook; when it says no, none of the plugin's hooks run for that Model, so a Model that
   * declares none of a feature (no validations, no associations) pays nothing for it on its hot paths.
   * Without it, the hooks run for every Model.
   */
  readonly appliesTo?: (model: any) => boolean;
}

/** A hook function registered under a hook name, with the plugin that brought it (none for `Model.hook`). */
export type HookRegistration = readonly [ModelHookName, (...args: any[]) => unknown, Plugin?];

/** Defines a plugin. Register it on a base class with `static { this.use(plugin) }`. */
// Marked free of side effects, so that bundlers drop the plugins a Worker never registers.
/* @__NO_SIDE_EFFECTS__ */
export function definePlugin(plugin: Plugin): Plugin {
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
