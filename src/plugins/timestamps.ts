import { attributesOf, definePlugin } from "../kernel/index.js";

const TIMESTAMPS = ["createdAt", "updatedAt"] as const;
type Timestamp = (typeof TIMESTAMPS)[number];

/** Whether the Model has that attribute, as a `datetime`. */
function hasTimestamp(model: Function, name: Timestamp): boolean {
  return attributesOf(model).some((attribute) => attribute.name === name && attribute.typeName === "datetime");
}

/**
 * Timestamps: when `createdAt` and `updatedAt` are `datetime` attributes, both are set on creation (bulk inserts
 * included) and `updatedAt` whenever a save changes something, even of a record a partial `select` loaded without
 * it (as in Rails). A value the caller assigned is kept, but an assigned null is stamped on creation; a save with
 * nothing to change leaves `updatedAt` alone. Set as the write is built, after the before-save callbacks, as Rails
 * does.
 */
export const timestamps = definePlugin({
  name: "timestamps",
  appliesTo: (model: Function) => TIMESTAMPS.some((name) => hasTimestamp(model, name)),
  hooks: {
    // Marked for the writes made without a record: an upsert touches updatedAt as a save does.
    "model:finalize"(model: Function) {
      for (const attribute of attributesOf(model)) attribute.updateTimestamp ||= attribute.name === "updatedAt" && attribute.typeName === "datetime";
    },
    "record:write"({ record, operation, values }) {
      const now = new Date();
      if (operation === "create") {
        for (const name of TIMESTAMPS) {
          // An assigned null is no timestamp: stamped as Rails does, rather than left for NOT NULL to refuse.
          if ((values.get(name) ?? null) === null && hasTimestamp(record.constructor, name)) record.writeAttribute(name, now);
        }
      } else if (values.size > 0 && !values.has("updatedAt") && hasTimestamp(record.constructor, "updatedAt")) {
        record.writeAttribute("updatedAt", now);
      }
    },
  },
});
