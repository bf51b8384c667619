/** The typed face of a record: its methods, typed for its attributes, and those plugins add. */

/**
 * The record methods plugins add, for a record of attributes `A` (`this` is the record). Empty here: each plugin
 * declares its own with `declare module` on the kernel's plugin API (declaration merging).
 */
export interface PluginRecordMethods<A> {}

/**
 * The kernel's record methods, typed for the attributes `A`: empty here, and filled by base.ts, which declares them
 * once, on `Base<A>` (declaration merging, through the plugin API), so that this contract stays below every file
 * that names a record.
 */
export interface KernelRecordMethods<A> {}

/**
 * The methods every record has, typed for its attributes `A`: the kernel's (on `Base`) and those plugins add. An
 * intersection, not an interface extending both, so that a plugin declaring a method the kernel has (a wrapper of
 * `destroy` taking a reason) adds an overload, tried first, as `PluginStatics` does for statics; extending both
 * would make the two declarations conflict, an error `skipLibCheck` hides while dropping the plugin's.
 */
export type RecordMethods<A> = PluginRecordMethods<A> & KernelRecordMethods<A>;

/** A record of attributes `A`: its attributes as properties, plus the record methods. */
export type RecordOf<A> = RecordMethods<A> & A;

/** Any record, of any Model: what `RecordInvalid`'s `error.record` is until `instanceof <Model>` narrows it. */
export type AnyRecord = RecordMethods<any>;
