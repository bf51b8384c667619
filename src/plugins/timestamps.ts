import { attributesOf, definePlugin } from "../kernel/index.js";

const TIMESTAMPS = ["createdAt", "updatedAt"] as const;
type Timestamp = (typeof TIMESTAMPS)[number];

/** Whether the Model has that attribute, as a `datetime`. */

const timestampsByModel = new WeakMap<Function, ReadonlySet<Timestamp>>();

/** The timestamps a Model in use has as `datetime` attributes; worked out once per Model, since every save asks. */
function timestampsOf(model: Function): ReadonlySet<Timestamp> {
  let found = timestampsByModel.get(model);
  if (!found) {
    const isTimestamp = (name: Timestamp) => attributesOf(model).some((attribute) => attribute.name === name && attribute.typeName === "datetime");
    timestampsByModel.set(model, (found = new Set(TIMESTAMPS.filter(isTimestamp))));
  }
  return found;
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
  appliesTo: (model: Function) => timestampsOf(model).size > 0,
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
          if ((values.get(name) ?? null) === null && timestampsOf(record.constructor).has(name)) record.writeAttribute(name, now);
        }
      } else if (values.size > 0 && !values.has("updatedAt") && timestampsOf(record.constructor).has("updatedAt")) {
        record.writeAttribute("updatedAt", now);
      }
    },
  },
});
