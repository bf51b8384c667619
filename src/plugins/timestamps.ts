import { attributesOf, definePlugin, isAttributeLoaded } from "../kernel/index.js";

function isTimestamp(record: { constructor: Function }, name: string): boolean {
  const attribute = attributesOf(record.constructor).find((candidate) => candidate.name === name);
  return attribute?.typeName === "datetime" && isAttributeLoaded(record, name);
}

/**
 * Timestamps: when `createdAt` and `updatedAt` are `datetime` attributes, both are set on creation (bulk inserts
 * included) and `updatedAt` whenever a save changes something. A value the caller assigned is kept; a save with
 * nothing to change leaves `updatedAt` alone. Set as the write is built, after the before-save callbacks, as
 * Rails does.
 */
export const timestamps = definePlugin({
  name: "timestamps",
  hooks: {
    "record:write"({ record, operation, values }) {
      const now = new Date();
      if (operation === "create") {
        for (const name of ["createdAt", "updatedAt"]) {
          if (isTimestamp(record, name) && !values.has(name)) record.writeAttribute(name, now);
        }
      } else if (values.size > 0 && !values.has("updatedAt") && isTimestamp(record, "updatedAt")) {
        record.writeAttribute("updatedAt", now);
      }
    },
  },
});
