import { definePlugin, underscore } from "../kernel/index.js";
import { pluralize } from "./inflection.js";

/** The table a class name maps to: `BlogPost` gives `blog_posts`. */
export function tableize(className: string): string {
  return pluralize(underscore(className));
}

/**
 * Table naming: a Model that sets no table gets its class name in snake_case, pluralized by Rails' English
 * rules (`Person` gives `people`). A separate plugin so that a Worker whose Models all name their tables
 * (`ApplicationRecord('users')`) does not ship the inflection rules.
 */
export const tableNaming = definePlugin({
  name: "tableNaming",
  hooks: {
    "model:tableName"(context) {
      context.tableName = tableize(context.className);
    },
  },
});
