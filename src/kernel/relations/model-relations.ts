import { argumentError } from "../records/arguments.js";
import { unboundModel } from "../database/database.js";
import { declarationOf } from "../records/declaration.js";
import { installRelationMethods } from "../plugin-api/method-wrapping.js";
import { Relation } from "./relation.js";
import { resolveModel } from "../records/resolve.js";
import type { TypedRelation } from "./typed-relation.js";

/**
 * Each Model's own Relation class (its scopes go there), made at the Model's first Relation, when its declaration is
 * fixed. It extends a class with the plugins' relation methods (and their wraps) only, which is what a scope's body
 * receives.
 */
const relationClasses = new WeakMap<Function, typeof Relation>();

function relationClassOf(model: Function): typeof Relation {
  // Keyed by the Model class: a hit (every Relation after the first) needs no resolution.
  const unbound = unboundModel(model);
  let own = relationClasses.get(unbound);
  if (own) return own;
  // Resolving runs the finalize hooks, which may define Relation methods (scopes) and so make the class first.
  const resolved = resolveModel(unbound);
  own = relationClasses.get(unbound);
  if (!own) {
    const PluginRelation = class extends Relation {};
    for (const plugin of declarationOf(resolved.model).plugins) installRelationMethods(resolved.model.name, PluginRelation.prototype, plugin);
    // Named Relation, as its instances show (in a message, in the console), not after the variable that holds it.
    relationClasses.set(unbound, (own = { Relation: class extends PluginRelation {} }.Relation));
  }
  return own;
}

/** Adds a method to a Model's Relations (and Relations of its subclasses made later); for plugins. */
export function defineRelationMethod(model: Function, name: string, method: (this: Relation, ...args: any[]) => unknown): void {
  Object.defineProperty(relationClassOf(model).prototype, name, { value: method, writable: true, configurable: true });
}

/**
 * A new Relation of every record of the Model (or of a view of it bound to a database, `db.model(M)`). Given `from`,
 * a Relation of the same Model, the new one has its description instead: a Relation made without the Model's own
 * methods (a scope's body gets one) takes them on so. Throws `TypeError` for a Relation of another Model.
 */
export function relationOf(model: Function, from?: Relation): TypedRelation<any> {
  const relation = new (relationClassOf(model))(model, from?.data) as TypedRelation<any>;
  const { name, hooks } = relation.model;
  if (from !== undefined && from.model !== relation.model) throw argumentError(`${name}: relationOf`, `a Relation of ${name}`, from);
  return from === undefined && hooks.has("relation:start") ? startedRelation(relation) : relation;
}

/** A new Relation of every record after the `relation:start` hooks, each of which may give another in its place. */
function startedRelation(relation: TypedRelation<any>): TypedRelation<any> {
  const context = { relation };
  relation.model.hooks.callSync("relation:start", context);
  const started: unknown = context.relation;
  if (!(started instanceof Relation) || started.model !== relation.model || started.constructor !== relation.constructor) {
    throw new TypeError(`${relation.model.name}: a relation:start hook must leave a Relation of ${relation.model.name} made from the one it got`);
  }
  return started as TypedRelation<any>;
}

/** The Relation with the plugins' Relation methods but none defined for its Model alone (what a scope's body gets). */
export function pluginRelationOf(relation: Relation): TypedRelation<any> {
  const PluginRelation = Object.getPrototypeOf(relationClassOf(relation.modelClass)) as typeof Relation;
  return new PluginRelation(relation.modelClass, relation.data) as TypedRelation<any>;
}
