import { attributesOf, definePlugin, isAttributeLoaded } from "../kernel/index.js";

const TIMESTAMPS = ["createdAt", "updatedAt"] as const;
type Timestamp = (typeof TIMESTAMPS)[number];

/** Whether the Model has that attribute, as a `datetime`. */
function hasTimestamp(model: Function, name: Timestamp): boolean {
  return attributesOf(model).some((attribute) => attribute.name === name && attribute.typeName === "datetime");
}

/** Whether a save of the record may set the timestamp (a partial `select` may not have loaded it). */
function canStamp(record: { constructor: Function }, name: Timestamp): boolean {
  return hasTimestamp(record.constructor, name) && isAttributeLoaded(record, name);
}

/**
 * Timestamps: when `createdAt` and `updatedAt` are `datetime` attributes, both are set on creation (bulk inserts
 * included) and `updatedAt` whenever a save changes something. A value the caller assigned is kept; a save with
 * nothing to change leaves `updatedAt` alone. Set as the write is built, after the before-save callbacks, as
 * Rails does.
 */
export const timestamps = definePlugin({
  name: "timestamps",
  appliesTo: (model: Function) => TIMESTAMPS.some((name) => hasTimestamp(model, name)),
  hooks: {
    "record:write"({ record, operation, values }) {
      const now = new Date();
      if (operation === "create") {
        for (const name of TIMESTAMPS) {
          if (!values.has(name) && canStamp(record, name)) record.writeAttribute(name, now);
        }
      } else if (values.size > 0 && !values.has("updatedAt") && canStamp(record, "updatedAt")) {
        record.writeAttribute("updatedAt", now);
      }
    },
  },
});
