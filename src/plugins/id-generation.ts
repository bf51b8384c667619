import { attributesOf, definePlugin, primaryKeyOf } from "../kernel/index.js";
import { uuidV7 } from "./uuid-v7.js";

/**
 * Id generation: at `build()`, a text primary key and every attribute flagged `generateId` get a value from
 * the Model's `generateId` (time-ordered UUIDs by default), unless the caller gives one. The key thus exists
 * before saving, which lets a record and its children be written in one batch.
 */
export const idGeneration = definePlugin({
  name: "id-generation",
  setup(model: { generateId: (attributeName: string) => string }) {
    model.generateId = uuidV7;
  },
  hooks: {
    "record:initialize"({ record }) {
      const model = record.constructor as Function & { generateId: (attributeName: string) => string };
      const key = primaryKeyOf(model);
      for (const attribute of attributesOf(model)) {
        const isTextKey = attribute === key && attribute.typeName === "string" && !attribute.hasDefault;
        if ((attribute.generateId || isTextKey) && record.readAttribute(attribute.name) === null) {
          record.writeAttribute(attribute.name, model.generateId(attribute.name));
        }
      }
    },
  },
});
