import { HookRegistry } from "./hook-registry.js";

/**
 * Named hook points: a cheap check for an empty point, synchronous calls that let a hook's error propagate (a
 * synchronous caller would lose a rejected promise), and async calls that await only the hooks that return a
 * promise, each needless await being a turn of the event loop on every save.
 */
export class HookPoints<Hooks extends Record<string, any>> extends HookRegistry<Hooks> {
  /** Hook points named as `isName` says, holding the given hook functions, each under its name, in order. */
  constructor(isName: (name: unknown) => boolean, registrations: Iterable<readonly [keyof Hooks & string, (...args: any[]) => unknown, ...unknown[]]> = []) {
    super(isName);
    for (const [name, fn] of registrations) this.hook(name, fn as never);
  }

  /** Calls the hooks of a point in order, awaiting those that return a promise; synchronous when none does. */
  callHook<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): Promise<void> | void {
    return callFrom(this._hooks[name] ?? [], 0, args);
  }

  /** Whether any hook is registered under `name`; lets hot paths skip empty hook points. */
  has(name: keyof Hooks & string): boolean {
    return (this._hooks[name]?.length ?? 0) > 0;
  }

  /** Whether any hook is registered under one of `names`. */
  hasAnyOf(names: ReadonlyArray<keyof Hooks & string>): boolean {
    for (const name of names) if (this.has(name)) return true;
    return false;
  }

  /** The functions registered under `name`, in call order: lets a plugin tell its own hooks from others'. */
  functionsOf(name: keyof Hooks & string): ReadonlyArray<(...args: any[]) => unknown> {
    return this._hooks[name] ?? [];
  }

  /** Calls the hooks of a synchronous point in order; an error thrown by one propagates to the caller. */
  callSync<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): void {
    for (const fn of this._hooks[name] ?? []) fn(...args);
  }

  /**
   * Calls every hook of a synchronous point in order, the ones after a hook that threw too, then throws the first
   * error: for a point that reports what already happened (a write's outcome), which every hook must hear of.
   */
  callEachSync<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): void {
    let failure: { error: unknown } | undefined;
    for (const fn of this._hooks[name] ?? []) {
      try {
        fn(...args);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

function callFrom(hooks: ReadonlyArray<(...args: any[]) => unknown>, start: number, args: unknown[]): Promise<void> | void {
  for (let index = start; index < hooks.length; index++) {
    const result = hooks[index]!(...args);
    if (result instanceof Promise) return result.then(() => callFrom(hooks, index + 1, args));
  }
}
