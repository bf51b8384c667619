import { isPlainObject, type MethodWrapper, type PluginMethod, type Relation } from "../../kernel/index.js";
import { installedWork } from "./installation.js";
import type { AssociationSlot } from "./slot.js";

/**
 * The entry of a collection's Relation (`post.comments()`, `post.tags()`) that holds its association's slot, carried by
 * every narrowing (`where`, `order`, scopes, `merge`, `or`...). Named by a Symbol: it says nothing of the rows, so
 * `or` with a Relation of the Model alone stays allowed.
 */
export const ASSOCIATION_OF = Symbol("association");

/**
 * Rails' AssociationRelation: on a Relation narrowed from a collection, `build`, `create` and `createOrThrow` are the
 * association's own, given the narrowing's equalities under the attributes given (less the keys a `belongsTo` named
 * in them gives: see `narrowingUnder`). The record is the owner's as the
 * un-narrowed form makes it (its key, a polymorphic type, a through association's join row; among the loaded
 * children; written by a new owner's save, whose `create` is refused). On any other Relation, the method as it was.
 */
function throughAssociation(method: "build" | "create" | "createOrThrow") {
  return (next: PluginMethod): PluginMethod =>
    function (this: Relation, ...args: unknown[]) {
      const slot = this.extension(ASSOCIATION_OF) as AssociationSlot | undefined;
      if (slot === undefined) return next.apply(this, args);
      const { owner, association } = slot.requireOwner();
      const [attributes = {}, ...rest] = args;
      // Anything but an object of attributes is refused by the association's method, as the un-narrowed form refuses it.
      const given = isPlainObject(attributes) ? { ...installedWork()!.narrowing(this, association, attributes), ...attributes } : attributes;
      return owner[association.name]()[method](given, ...rest);
    };
}

/**
 * The Relation methods the associations plugin wraps: those that build through the association a Relation was
 * narrowed from (see `throughAssociation`); the declarations add the wrappers of `where` and `whereNot` when they
 * install the plugin's work (work.ts), so that a Worker whose Models declare no association bundles none of them.
 */
export const associationRelationWraps: Record<string, MethodWrapper> = {
  build: throughAssociation("build"),
  create: throughAssociation("create"),
  createOrThrow: throughAssociation("createOrThrow"),
};
