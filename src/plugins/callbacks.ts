import { type AnyModel, definePlugin, type ModelHookName, type RecordOfModel, refuseExtraArguments } from "../kernel/index.js";

/** A callback: receives the record; `throw abort(reason)` in a before-callback stops the operation. */
export type Callback<R> = (record: R) => void | Promise<void>;
type Registers = { hook(name: ModelHookName, fn: (context: any) => unknown): void };

// Each callback is a Model hook that hands its function the record, filtered by the save's operation.
const CALLBACKS: Record<string, readonly [hook: ModelHookName, operation?: "create" | "update"]> = {
  beforeValidation: ["record:beforeValidate"],
  afterValidation: ["record:afterValidate"],
  beforeSave: ["record:beforeSave"],
  beforeCreate: ["record:beforeSave", "create"],
  beforeUpdate: ["record:beforeSave", "update"],
  afterSave: ["record:afterSave"],
  afterCreate: ["record:afterSave", "create"],
  afterUpdate: ["record:afterSave", "update"],
  beforeDestroy: ["record:beforeDestroy"],
  afterDestroy: ["record:afterDestroy"],
};

/**
 * Callbacks: `this.beforeValidation(fn)`, `this.afterValidation(fn)`, `this.beforeSave(fn)`, `this.afterSave(fn)`,
 * `this.beforeDestroy(fn)` and the others in a `static {}` block. Each receives the record; `throw abort(reason)` in a before-callback stops the operation.
 * They run in declaration order, a parent's before its child's, and never for bulk writes.
 */
export const callbacks = definePlugin({
  name: "callbacks",
  setup(base: Record<string, unknown>) {
    for (const [name, [hook, operation]] of Object.entries(CALLBACKS)) {
      base[name] = function (this: Registers & Function, fn: Callback<unknown>) {
        const where = `${this.name}.${name}`;
        if (typeof fn !== "function") throw new TypeError(`${where} takes a function receiving the record`);
        // A second function or Rails' `if:` options would be ignored: the callback would run on every save.
        refuseExtraArguments(where, arguments.length, 1);
        // Not an async function: a callback that returns no promise makes the save wait for nothing.
        this.hook(hook, (context: { record: unknown; operation?: string }) => {
          if (operation !== undefined && context.operation !== operation) return;
          const result: unknown = fn(context.record);
          if (typeof (result as PromiseLike<void> | null)?.then === "function") return Promise.resolve(result as PromiseLike<void>);
        });
      };
    }
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /** Runs before the validations of every save; may change the record (normalize it) or `throw abort(reason)`. */
    beforeValidation<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs after the validations of every save, whether they passed or not; may add to `errors` or abort. */
    afterValidation<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs before every save (after validation). */
    beforeSave<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs before the save of a new record. */
    beforeCreate<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs before the save of a persisted record. */
    beforeUpdate<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs after every save. */
    afterSave<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs after the save of a new record. */
    afterCreate<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs after the save of a persisted record. */
    afterUpdate<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs before a destroy, before `dependent` strategies. */
    beforeDestroy<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
    /** Runs after a destroy. */
    afterDestroy<M extends AnyModel>(this: M, callback: Callback<RecordOfModel<M>>): void;
  }
}
