import { type Attribute, attributesOf, definePlugin, InvalidModel, markGeneratedKey, previewText, primaryKeyOf } from "../kernel/index.js";
import { uuidV7 } from "./uuid-v7.js";

/** The static the id-generation plugin gives the class it is registered on, and the Models below it. */
export interface IdGenerationSettings {
  /** Makes values of text primary keys and of attributes flagged `generateId` (time-ordered UUIDs unless set). */
  generateId: (attributeName: string) => string;
}

type Generating = Function & IdGenerationSettings;

const generatedByModel = new WeakMap<Function, Attribute[]>();

/** The attributes `build()` gives generated values: a text primary key without a default, and those flagged `generateId`. */
function generatedAttributes(model: Function): Attribute[] {
  let generated = generatedByModel.get(model);
  if (!generated) {
    const key = primaryKeyOf(model);
    const isTextKey = (attribute: Attribute) => attribute === key && attribute.typeName === "string" && !attribute.hasDefault;
    generated = attributesOf(model).filter((attribute) => attribute.generateId || isTextKey(attribute));
    generatedByModel.set(model, generated);
  }
  return generated;
}

/**
 * Id generation: at `build()`, a text primary key and every attribute flagged `generateId` get a value from
 * the Model's `generateId` (time-ordered UUIDs by default), unless the caller gives one. The key thus exists
 * before saving, which lets a record and its children be written in one batch, and is marked as generated (see
 * `markGeneratedKey`), which lets the record's INSERT be sent again after one of D1's transient errors.
 */
export const idGeneration = definePlugin({
  name: "id-generation",
  setup(base: Partial<IdGenerationSettings>) {
    // A class that set its own before registering the plugin keeps it.
    if (!("generateId" in base)) base.generateId = uuidV7;
  },
  appliesTo: (model: Function) => generatedAttributes(model).length > 0,
  hooks: {
    "record:initialize"({ record }) {
      const model = record.constructor as Generating;
      if (typeof model.generateId !== "function") throw new InvalidModel(`${model.name}.generateId must be a function, not ${previewText(model.generateId)}`);
      for (const attribute of generatedAttributes(model)) {
        if (record.readAttribute(attribute.name) !== null) continue;
        record.writeAttribute(attribute.name, model.generateId(attribute.name));
        // A key made here is this record's alone: its INSERT may be sent again after a transient error.
        if (attribute === primaryKeyOf(model)) markGeneratedKey(record);
      }
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> extends IdGenerationSettings {}
}
