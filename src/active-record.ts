import { Base, defineApplicationRecord } from "./kernel/index.js";
import { defaultPlugins } from "./plugins/default-plugins.js";

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
export const ActiveRecord: typeof Base = /* @__PURE__ */ recordClassWithDefaultPlugins();

/** A record of a Model built on `ActiveRecord`. */
export type ActiveRecord = InstanceType<typeof ActiveRecord>;

/**
 * Declares a Model by hand, for a view or a table the migrations do not make:
 * `class Note extends Model({ id: "string", body: { type: "string", null: false } }) {}`.
 */
export const Model = /* @__PURE__ */ defineApplicationRecord({}, ActiveRecord);
