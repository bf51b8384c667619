import { type AttributeName, changeTrackingMethods, type ConditionScalar, definePlugin } from "../kernel/index.js";

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

declare module "../kernel/index.js" {
  interface PluginRecordMethods<A> {
    /** Whether any attribute has an unsaved change. */
    isChanged(): boolean;
    /** Names of the attributes with unsaved changes. */
    changed(): AttributeName<A>[];
    /** Old values of the attributes with unsaved changes. */
    changedAttributes(): Partial<A>;
    /** Each unsaved change as `[old, new]`. */
    changes(): { [K in keyof A]?: [A[K], A[K]] };
    /** The attribute's value as last loaded or saved. */
    attributeWas<K extends AttributeName<A>>(name: K): A[K];
    /** Whether the attribute has an unsaved change, optionally from or to a given value (cast as a condition is). */
    isAttributeChanged<K extends AttributeName<A>>(
      name: K,
      options?: { from?: ConditionScalar<NonNullable<A[K]>> | null; to?: ConditionScalar<NonNullable<A[K]>> | null },
    ): boolean;
    /** Whether the next save writes this attribute. */
    willSaveChangeTo(name: AttributeName<A>): boolean;
    /** The changes the last save wrote. */
    savedChanges(): { [K in keyof A]?: [A[K], A[K]] };
    /** The `[old, new]` the last save wrote to the attribute. */
    savedChangeTo<K extends AttributeName<A>>(name: K): [A[K], A[K]] | undefined;
    /** Whether the last save changed the attribute. */
    hasSavedChangeTo(name: AttributeName<A>): boolean;
    /** The attribute's value before the last save. */
    attributeBeforeLastSave<K extends AttributeName<A>>(name: K): A[K];
    /** Undoes unsaved changes to the named attributes, or to all. */
    restoreAttributes(...names: AttributeName<A>[]): this;
  }
}
