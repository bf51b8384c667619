import { unboundModel } from "./database.js";
import { declarationOf } from "./declaration.js";
import type { RelationData } from "./relation-data.js";
import { Relation } from "./relation.js";
import { resolveModel, type ResolvedModel } from "./resolve.js";

/** A Model's Relation classes, made at the first Relation of the Model (its declaration is fixed by then). */
interface RelationClasses {
  /** The Relation class with the plugins' relation methods only (what a scope's body receives). */
  readonly plugins: typeof Relation;
  /** The Model's own Relation class: the plugins' relation methods plus those defined for it (its scopes). */
  readonly own: typeof Relation;
}

const relationClasses = new WeakMap<ResolvedModel, RelationClasses>();

function relationClassesOf(model: Function): RelationClasses {
  const resolved = resolveModel(unboundModel(model));
  let classes = relationClasses.get(resolved);
  if (!classes) {
    const PluginRelation = class extends Relation {};
    for (const plugin of declarationOf(resolved.model).plugins) {
      for (const [name, method] of Object.entries(plugin.relationMethods ?? {})) {
        Object.defineProperty(PluginRelation.prototype, name, { value: method, writable: true, configurable: true });
      }
    }
    classes = { plugins: PluginRelation, own: class extends PluginRelation {} };
    relationClasses.set(resolved, classes);
  }
  return classes;
}

/** Adds a method to a Model's Relations (and Relations of its subclasses made later); for plugins. */
export function defineRelationMethod(model: Function, name: string, method: (this: Relation, ...args: any[]) => unknown): void {
  Object.defineProperty(relationClassesOf(model).own.prototype, name, { value: method, writable: true, configurable: true });
}

/** A new Relation of every record of the Model (or of a view of it bound to a database). */
export function relationOf(model: Function): Relation {
  return new (relationClassesOf(model).own)(model);
}

/** A Relation of the Model with the plugins' relation methods but none defined for the Model (what a scope's body gets). */
export function pluginRelationOf(model: Function, data: RelationData): Relation {
  return new (relationClassesOf(model).plugins)(model, data);
}
