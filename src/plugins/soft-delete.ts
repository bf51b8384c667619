import { attributesOf, declareDefaultScope, definePlugin, installWritePlans, refuseExtraArguments, type Relation, withoutDefaultScope } from "../kernel/index.js";

const DELETED_AT = "deletedAt";
/** The name of the default scope the plugin declares, by which `withDeleted()` lifts it alone. */
const SCOPE = "softDelete";

const hasDeletedAt = (model: Function) => attributesOf(model).some((attribute) => attribute.name === DELETED_AT && attribute.typeName === "datetime");

/**
 * Soft delete for the Models with a `deletedAt` datetime attribute (column `deleted_at`): `destroy()` sets it (and
 * `updatedAt`, or any attribute marked `updateTimestamp`) with an UPDATE instead of deleting the row, and the record
 * ends destroyed (its after-destroy callbacks run, dependents follow their `dependent` option); a default scope leaves
 * deleted rows out of queries unless asked with `withDeleted()` or `onlyDeleted()` (or `unscoped()`, which lifts the
 * Model's own default scopes too; a `reload` reads the row either way); `record.restore()` clears `deletedAt`. Needs
 * the `defaultScopes` plugin (in the default set) on the class or above it.
 */
export const softDelete = definePlugin({
  name: "soft-delete",
  appliesTo: hasDeletedAt,
  relationMethods: {
    /** Reads kept and deleted rows alike. */
    withDeleted(this: Relation) {
      refuseExtraArguments(`${this.model.name}.withDeleted`, arguments.length, 0);
      return withoutDefaultScope(this, SCOPE);
    },
    /** Reads the deleted rows only. */
    onlyDeleted(this: Relation) {
      refuseExtraArguments(`${this.model.name}.onlyDeleted`, arguments.length, 0);
      return withoutDefaultScope(this, SCOPE).whereNot({ [DELETED_AT]: null });
    },
  },
  setup(model: Function) {
    installWritePlans();
    declareDefaultScope(model, { name: SCOPE, body: (q) => q.where({ [DELETED_AT]: null }), appliesTo: hasDeletedAt, reload: false });
    Object.defineProperty(model.prototype, "restore", {
      /** Clears `deletedAt` of a record loaded with `onlyDeleted()` or `withDeleted()`; answers as `save()` does. */
      value: async function restore(this: { update(attributes: object): Promise<boolean> }) {
        // Paranoia's restore(recursive: true) would be ignored: the dependents would stay deleted, silently.
        refuseExtraArguments(`${this.constructor.name}.restore`, arguments.length, 0);
        return await this.update({ [DELETED_AT]: null });
      },
      configurable: true,
      writable: true,
    });
  },
  hooks: {
    // A record's destroy, and a destroy's set-based DELETE of dependents, become an UPDATE that stamps the rows.
    "write:plan"(write) {
      const deletes = write.operation === "destroy" || write.operation === "deleteDependents";
      if (!deletes || write.kind !== "delete") return;
      write.kind = "update";
      // The stamp changes the row, so the attributes a plugin keeps as it changes (updatedAt) are set with it.
      const now = new Date();
      for (const attribute of write.model.attributes) {
        if (attribute.name !== DELETED_AT && !attribute.updateTimestamp) continue;
        write.record?.writeAttribute(attribute.name, now);
        write.values.set(attribute.name, now);
      }
    },
  },
});
