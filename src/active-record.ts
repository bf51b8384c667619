import { Base, defineApplicationRecord } from "./kernel/index.js";
import type { AttributeFilteringSettings } from "./plugins/attribute-filtering.js";
import { defaultPlugins } from "./plugins/default-plugins.js";
import type { IdGenerationSettings } from "./plugins/id-generation.js";
import type { PaginationSettings } from "./plugins/pagination.js";

/** The statics the default plugins set on `ActiveRecord` (page sizes, filtered attributes, the id generator). */
type DefaultPluginSettings = PaginationSettings & AttributeFilteringSettings & IdGenerationSettings;

// Made by a function marked pure (not a class with a `static {}` block, which bundlers must keep), so that a
// Worker built on `Base` with chosen plugins does not carry the default ones.
function recordClassWithDefaultPlugins() {
  return class ActiveRecord extends Base {
    static {
      this.use(...defaultPlugins);
    }
  };
}

/**
 * The library's record class with the built-in plugins registered. Extend it for the app's base class
 * (`static override binding = "DB"`, app-wide plugins), then pass that to `defineApplicationRecord`.
 */
export const ActiveRecord = /* @__PURE__ */ recordClassWithDefaultPlugins() as typeof Base & DefaultPluginSettings;

/** A record of a Model built on `ActiveRecord`. */
export type ActiveRecord = InstanceType<typeof ActiveRecord>;

/**
 * Declares a Model by hand, for a view or a table the migrations do not make:
 * `class Note extends Model({ id: "string", body: { type: "string", null: false } }) {}`.
 */
export const Model = /* @__PURE__ */ defineApplicationRecord({}, ActiveRecord);
