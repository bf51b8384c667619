/** The typed face of a record: its methods, typed for its attributes, and those plugins add. */
import type { AssignableValue, AssignAttributes, AttributeName, ConditionScalar, JsonAttributes } from "./attribute-values.js";
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

/** A record of attributes `A`: its attributes as properties, plus the record methods. */
export type RecordOf<A> = RecordMethods<A> & A;

/** Any record, of any Model: what `RecordInvalid`'s `error.record` is until `instanceof <Model>` narrows it. */
export type AnyRecord = RecordMethods<any>;
