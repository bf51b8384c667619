import { attributesOf, definePlugin, isAttributeLoaded } from "../kernel/index.js";

function isTimestamp(record: { constructor: Function }, name: string): boolean {
  const attribute = attributesOf(record.constructor).find((candidate) => candidate.name === name);
  return attribute?.typeName === "datetime" && isAttributeLoaded(record, name);
}

/**
 * Timestamps: when `createdAt` and `updatedAt` are `datetime` attributes, both are set on creation and
 * `updatedAt` whenever a save changes something. A value the caller assigned is kept; a save with nothing to
 * change leaves `updatedAt` alone.
 */
export const timestamps = definePlugin({
  name: "timestamps",
  hooks: {
    "record:beforeSave"({ record, operation }) {
      const now = new Date();
      if (operation === "create") {
        for (const name of ["createdAt", "updatedAt"]) {
          if (isTimestamp(record, name) && !record.willSaveChangeTo(name)) record.writeAttribute(name, now);
        }
      } else if (isTimestamp(record, "updatedAt") && record.isChanged() && !record.willSaveChangeTo("updatedAt")) {
        record.writeAttribute("updatedAt", now);
      }
    },
  },
});
