/** The typed face of a record: its methods, typed for its attributes, and those plugins add. */
import type { AssignableValue, AssignAttributes, AttributeName, JsonAttributes } from "./attribute-values.js";
import type { Batchable } from "./batchable.js";
import type { Errors } from "./errors-collection.js";

/**
 * The record methods plugins add, for a record of attributes `A` (`this` is the record). Empty here: each plugin
 * declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginRecordMethods<A> {}

/** The methods every record has, typed for its attributes `A`. */
export interface RecordMethods<A> extends PluginRecordMethods<A> {
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
  /** Every loaded attribute as a plain object (Dates as Date), hidden ones included. */
  attributes(): A;
  /** The attributes for JSON: dates as ISO strings, `hiddenAttributes` left out. */
  toJSON(): Partial<JsonAttributes<A>>;
  /** Validates and saves; false when validation failed or a callback aborted. */
  save(): Promise<boolean>;
  /** Saves, or throws `RecordInvalid` or `RecordNotSaved`. */
  saveOrThrow(): Promise<true>;
  /** Assigns and saves. */
  update(attributes: AssignAttributes<A>): Promise<boolean>;
  /** Assigns and saves, or throws `RecordInvalid` or `RecordNotSaved`. */
  updateOrThrow(attributes: AssignAttributes<A>): Promise<true>;
  /** Destroys the record; false when a callback aborted. */
  destroy(): Promise<this | false>;
  /** Destroys the record, or throws `RecordNotDestroyed`. */
  destroyOrThrow(): Promise<this>;
  /** Reloads the row, discarding unsaved changes. */
  reload(): Promise<this>;
  /** The save of this record as a batch item. */
  toSave(): Batchable<this>;
  /** The destroy of this record as a batch item. */
  toDestroy(): Batchable<this>;
}

/** A record of attributes `A`: its attributes as properties, plus the record methods. */
export type RecordOf<A> = RecordMethods<A> & A;

/** Any record, of any Model: what `RecordInvalid`'s `error.record` is until `instanceof <Model>` narrows it. */
export type AnyRecord = RecordMethods<any>;
