import { type Attribute, attributesOf, definePlugin } from "../kernel/index.js";

function matches(filter: string | RegExp, attribute: Attribute): boolean {
  if (typeof filter === "string") {
    const needle = filter.toLowerCase();
    return attribute.name.toLowerCase().includes(needle) || attribute.column.toLowerCase().includes(needle);
  }
  return filter.test(attribute.name) || filter.test(attribute.column);
}

/**
 * Attribute filtering: marks the attributes that `filterAttributes` matches (part of the name or column, or a
 * RegExp), so that query events, error messages and printing show `[FILTERED]` instead of their values.
 */
export const attributeFiltering = definePlugin({
  name: "attribute-filtering",
  hooks: {
    "model:finalize"(model: { filterAttributes: (string | RegExp)[] }) {
      for (const attribute of attributesOf(model as unknown as Function)) {
        attribute.filtered = model.filterAttributes.some((filter) => matches(filter, attribute));
      }
    },
  },
});
