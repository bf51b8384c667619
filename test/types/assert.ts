/** Exact type equality (distinguishes `any`, optional and readonly members). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
export function assertTrue<T extends true>(): T | void {}
