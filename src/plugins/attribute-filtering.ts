import { type Attribute, attributesOf, definePlugin, InvalidModel } from "../kernel/index.js";

function matches(filter: string | RegExp, attribute: Attribute): boolean {
  if (typeof filter === "string") {
    const needle = filter.toLowerCase();
    return attribute.name.toLowerCase().includes(needle) || attribute.column.toLowerCase().includes(needle);
  }
  // Without the g and y flags, whose lastIndex would carry from one test() to the next (and into the app's RegExp).
  const pattern = new RegExp(filter.source, filter.flags.replace(/[gy]/g, ""));
  return pattern.test(attribute.name) || pattern.test(attribute.column);
}

/** What Rails' `filter_parameters` filters in a new app: parts of names of attributes that hold secrets. */
const DEFAULT_FILTERS: (string | RegExp)[] = ["passw", "email", "secret", "token", "_key", "crypt", "salt", "certificate", "otp", "ssn", "cvv", "cvc"];

/** The static the attribute-filtering plugin gives the class it is registered on, and the Models below it. */
export interface AttributeFilteringSettings {
  /** Attributes whose values show as `[FILTERED]` in query events, error messages and printing. */
  filterAttributes: (string | RegExp)[];
}

/**
 * Attribute filtering: marks the attributes that `filterAttributes` matches (part of the name or column, or a
 * RegExp), so that query events, error messages and printing show `[FILTERED]` instead of their values.
 */
export const attributeFiltering = definePlugin({
  name: "attribute-filtering",
  setup(base: Partial<AttributeFilteringSettings>) {
    // A class that set its own before registering the plugin keeps it.
    if (!("filterAttributes" in base)) base.filterAttributes = DEFAULT_FILTERS;
  },
  hooks: {
    "model:finalize"(model: { name: string; filterAttributes: unknown }) {
      const filters = model.filterAttributes;
      if (!Array.isArray(filters) || !filters.every((filter) => typeof filter === "string" || filter instanceof RegExp)) {
        throw new InvalidModel(`${model.name}: filterAttributes must be a list of strings and RegExps`);
      }
      for (const attribute of attributesOf(model as unknown as Function)) {
        attribute.filtered = filters.some((filter: string | RegExp) => matches(filter, attribute));
      }
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> extends AttributeFilteringSettings {}
}
