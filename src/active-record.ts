import { Base, defineApplicationRecord } from "./kernel/index.js";
import { defaultPlugins } from "./plugins/default-plugins.js";

/**
 * The library's record class with the built-in plugins registered. Extend it for the app's base class
 * (`static override binding = "DB"`, app-wide plugins), then pass that to `defineApplicationRecord`.
 */
export class ActiveRecord extends Base {
  static {
    this.use(...defaultPlugins);
  }
}

/**
 * Declares a Model by hand, for a view or a table the migrations do not make:
 * `class Note extends Model({ id: "string", body: { type: "string", null: false } }) {}`.
 */
export const Model = defineApplicationRecord({}, ActiveRecord);
