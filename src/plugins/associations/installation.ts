import type { ModelHookName, ModelHooks, Relation } from "../../kernel/index.js";
import type { ResolvedAssociation } from "./definition.js";

/** Hook functions by hook point, as a plugin declares them. */
type Hooks = { readonly [K in ModelHookName]?: ModelHooks[K] };

/** A method the association plugins add (to Relations, records or a base class); `this` is what it is called on. */
type Method = (this: any, ...args: any[]) => any;

/** What one association plugin does: its hooks, whether they run for a Model, and the methods it adds. */
export interface PluginWork {
  /** Whether its hooks run for a Model; for every Model when absent. */
  readonly appliesTo?: (model: Function) => boolean;
  readonly hooks: Hooks;
  readonly methods: { readonly [name: string]: Method };
}

/**
 * What the three association plugins do (`associations`, `counterCaches`, `associationCounts`), by plugin, and what a
 * build through a narrowed collection starts with.
 */
export interface AssociationWork {
  readonly associations: PluginWork;
  readonly counterCaches: PluginWork;
  readonly associationCounts: PluginWork;
  /** The equalities a record built from a Relation narrowed from a collection starts with (see `narrowingUnder`). */
  readonly narrowing: (relation: Relation, association: ResolvedAssociation, attributes: object) => Record<string, unknown>;
}

/** The association plugins, whose work is provided by name. */
type PluginName = "associations" | "counterCaches" | "associationCounts";

/** The plugins of the default set register on every app's base class; only a declaration brings their work. */
let installed: AssociationWork | undefined;

/**
 * Provides the association plugins' work, once. Called by every declaration (`hasMany`, `hasOne`, `belongsTo`), which
 * alone imports it: a Worker whose Models declare no association bundles none of it, though its base class
 * registers the plugins.
 */
export function provideAssociationWork(work: AssociationWork): void {
  installed ??= work;
}

/** The association plugins' work, once a declaration provided it: while none did, no Model has an association. */
export function installedWork(): AssociationWork | undefined {
  return installed;
}

/**
 * Whether a plugin's hooks run for a Model: never while no association is declared (no Model has one then; a
 * Model's declarations run, in the probe instance the kernel makes, before it is asked).
 */
export function workApplies(plugin: PluginName): (model: Function) => boolean {
  return (model) => installed !== undefined && (installed[plugin].appliesTo?.(model) ?? true);
}

/**
 * Hooks that call the plugin's work for the hook points named. They run only where `appliesTo` said yes, so the work
 * is there; `model:finalize`, which runs before that question, does nothing for a Model without associations.
 */
export function forwardedHooks(plugin: PluginName, names: readonly ModelHookName[]): Hooks {
  const hook = (name: ModelHookName) => (...args: unknown[]) => (installed?.[plugin].hooks[name] as Method | undefined)?.(...args);
  return Object.fromEntries(names.map((name) => [name, hook(name)]));
}

/** The refusal of an association method while no Model declares an association, naming the Model and the method. */
export function noAssociations(model: Function, method: string): TypeError {
  return new TypeError(`${model.name}.${method}: ${model.name} has no associations (hasMany, hasOne or belongsTo)`);
}

/**
 * Methods that call the plugin's work of the same names. While none is installed, `modelOf` finds the Model a call is
 * for from `this` (resolving it runs its declarations, which install the work if it has any); a Model that still
 * brings none has no association, so the method refuses with `noAssociations`.
 */
export function forwardedMethods(plugin: PluginName, names: readonly string[], modelOf: (self: any) => Function): Record<string, Method> {
  const method = (name: string): Method =>
    function forwarded(this: unknown, ...args: unknown[]) {
      if (installed === undefined) {
        const model = modelOf(this);
        if (installedWork() === undefined) throw noAssociations(model, name);
      }
      return installedWork()![plugin].methods[name]!.apply(this, args);
    };
  return Object.fromEntries(names.map((name) => [name, method(name)]));
}
