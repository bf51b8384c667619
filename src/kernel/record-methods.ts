/** The typed face of a record: its methods, typed for its attributes, and those plugins add. */
import type { AssignableValue, AssignAttributes, AttributeName, JsonAttributes } from "./attribute-values.js";
import type { Batchable } from "./batchable.js";
import type { Errors } from "./errors-collection.js";

/**
 * The record methods plugins add, for a record of attributes `A` (`this` is the record). Empty here: each plugin
 * declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginRecordMethods<A> {}

/** The methods the kernel gives every record, typed for its attributes `A` (`Base` implements them). */
export interface KernelRecordMethods<A> {
  /** Whether the record has not been saved yet. */
  isNewRecord(): boolean;
  /** Whether the record is saved and not destroyed. */
  isPersisted(): boolean;
  /** Whether the record was destroyed. */
  isDestroyed(): boolean;
  /** Why validation failed, or an association refused a destroy. */
  readonly errors: Errors;
  /** The reason given by the callback that aborted the last save or destroy. */
  readonly abortReason: string | undefined;
  /** Reads an attribute by name. */
  readAttribute<K extends AttributeName<A>>(name: K): A[K];
  /** Assigns an attribute by name, cast to its type. */
  writeAttribute<K extends AttributeName<A>>(name: K, value: AssignableValue<A[K]>): void;
  /** Sets several attributes without saving. */
  assign(attributes: AssignAttributes<A>): this;
  /** Every loaded attribute as a plain object of JavaScript values (Dates as Date), hidden ones included. */
  attributes(): A;
  /** The attributes for JSON: dates as ISO strings, `hiddenAttributes` left out, associations never included. */
  toJSON(): Partial<JsonAttributes<A>>;
  /** Validates and saves; true, or false when validation failed or a callback aborted. */
  save(): Promise<boolean>;
  /** Saves, or throws `RecordInvalid` (record on `error.record`) or `RecordNotSaved` (the abort reason). */
  saveOrThrow(): Promise<true>;
  /** Assigns and saves. */
  update(attributes: AssignAttributes<A>): Promise<boolean>;
  /** Assigns and saves, or throws as `saveOrThrow`. */
  updateOrThrow(attributes: AssignAttributes<A>): Promise<true>;
  /** Destroys the record: callbacks, dependents, then the DELETE. The record, or false when refused. */
  destroy(): Promise<this | false>;
  /** Destroys the record, or throws `RecordNotDestroyed`. */
  destroyOrThrow(): Promise<this>;
  /** Reloads the row, discarding unsaved changes. */
  reload(): Promise<this>;
  /** The save of this record as a batch item for `db.batch([...])`. */
  toSave(): Batchable<this>;
  /** The destroy of this record as a batch item for `db.batch([...])`. */
  toDestroy(): Batchable<this>;
}

/** The methods every record has, typed for its attributes `A`: the kernel's and those plugins add. */
export interface RecordMethods<A> extends KernelRecordMethods<A>, PluginRecordMethods<A> {}

/** A record of attributes `A`: its attributes as properties, plus the record methods. */
export type RecordOf<A> = RecordMethods<A> & A;

/** Any record, of any Model: what `RecordInvalid`'s `error.record` is until `instanceof <Model>` narrows it. */
export type AnyRecord = RecordMethods<any>;
