import { changeTrackingMethods, definePlugin } from "../kernel/index.js";

/**
 * Change tracking on records: `isChanged`, `changed`, `changedAttributes`, `changes`, `attributeWas`,
 * `isAttributeChanged`, `willSaveChangeTo`, `restoreAttributes`, and after a save `savedChanges`, `savedChangeTo`,
 * `hasSavedChangeTo` and `attributeBeforeLastSave`. The kernel tracks changes whatever is registered (a save writes
 * only what changed); this plugin gives records the methods that ask about them.
 */
export const changeTracking = definePlugin({
  name: "changeTracking",
  setup(base: { prototype: object }) {
    for (const [name, method] of Object.entries(changeTrackingMethods)) {
      Object.defineProperty(base.prototype, name, { value: method, writable: true, configurable: true });
    }
  },
});
