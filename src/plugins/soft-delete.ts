import { attributesOf, definePlugin, quoteIdentifier, type Relation } from "../kernel/index.js";

const DELETED_AT = "deletedAt";
/** The Relation's own entry (`data.extensions`): which rows it reads, the kept ones unless told otherwise. */
const EXTENSION = "softDelete";
type Reading = "kept" | "withDeleted" | "onlyDeleted";

/**
 * Soft delete for the Models with a `deletedAt` datetime attribute (column `deleted_at`): `destroy()` sets it (and
 * `updatedAt`, or any attribute marked `updateTimestamp`) with an UPDATE instead of deleting the row, and the record
 * ends destroyed (its after-destroy callbacks run, dependents follow their `dependent` option); queries leave deleted
 * rows out unless asked with `withDeleted()` or `onlyDeleted()` (a `reload` reads the row either way);
 * `record.restore()` clears `deletedAt`.
 */
export const softDelete = definePlugin({
  name: "soft-delete",
  appliesTo: (model) => attributesOf(model).some((attribute) => attribute.name === DELETED_AT && attribute.typeName === "datetime"),
  relationMethods: {
    /** Reads kept and deleted rows alike. */
    withDeleted(this: Relation) {
      return this.withExtension(EXTENSION, "withDeleted");
    },
    /** Reads the deleted rows only. */
    onlyDeleted(this: Relation) {
      return this.withExtension(EXTENSION, "onlyDeleted");
    },
  },
  setup(model) {
    Object.defineProperty(model.prototype, "restore", {
      /** Clears `deletedAt` of a record loaded with `onlyDeleted()` or `withDeleted()`; answers as `save()` does. */
      value: function restore(this: { update(attributes: object): Promise<boolean> }) {
        return this.update({ [DELETED_AT]: null });
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
    "relation:where"({ data, parts, model, purpose }) {
      const reading = (data.extensions[EXTENSION] ?? "kept") as Reading;
      if (reading === "withDeleted" || purpose === "reload") return;
      const column = quoteIdentifier(model.byName.get(DELETED_AT)!.column);
      parts.where.push(reading === "onlyDeleted" ? `${column} IS NOT NULL` : `${column} IS NULL`);
    },
  },
});
