import { attributesOf, definePlugin, isAttributeLoaded } from "../kernel/index.js";

const TIMESTAMPS = ["createdAt", "updatedAt"] as const;
type Timestamp = (typeof TIMESTAMPS)[number];

const timestampsByModel = new WeakMap<Function, ReadonlySet<Timestamp>>();

/** The timestamps the Model has as `datetime` attributes; worked out once per Model, as saves are hot. */
function timestampsOf(model: Function): ReadonlySet<Timestamp> {
  let found = timestampsByModel.get(model);
  if (!found) {
    const datetimes = attributesOf(model).filter((attribute) => attribute.typeName === "datetime").map((attribute) => attribute.name);
    timestampsByModel.set(model, (found = new Set(TIMESTAMPS.filter((name) => datetimes.includes(name)))));
  }
  return found;
}

/** Whether a save of the record may set the timestamp (a partial `select` may not have loaded it). */
function canStamp(record: { constructor: Function }, name: Timestamp): boolean {
  return timestampsOf(record.constructor).has(name) && isAttributeLoaded(record, name);
}

/**
 * Timestamps: when `createdAt` and `updatedAt` are `datetime` attributes, both are set on creation (bulk inserts
 * included) and `updatedAt` whenever a save changes something. A value the caller assigned is kept; a save with
 * nothing to change leaves `updatedAt` alone. Set as the write is built, after the before-save callbacks, as
 * Rails does.
 */
export const timestamps = definePlugin({
  name: "timestamps",
  appliesTo: (model: Function) => timestampsOf(model).size > 0,
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
