import { argumentError } from "../records/arguments.js";
import { previewText } from "../records/display.js";

/**
 * Named hook points, holding hook functions registered under their names in registration order: a cheap check for
 * an empty point, synchronous calls that let a hook's error propagate (a synchronous caller would lose a rejected
 * promise), and async calls that await only the hooks that return a promise, each needless await being a turn of
 * the event loop on every save. (It replaces the `hookable` package, of which the kernel used no more than this.)
 */
export class HookPoints<Hooks extends Record<string, any>> {
  /** The functions registered under each name, in call order. */
  readonly #hooks: { [Name in keyof Hooks]?: Array<(...args: any[]) => unknown> } = {};
  /** Whether a name is one of the points called: a hook under any other would silently never run. */
  readonly #isName: (name: unknown) => boolean;

  /** Hook points named as `isName` says, holding the given hook functions, each under its name, in order. */
  constructor(isName: (name: unknown) => boolean, registrations: Iterable<readonly [keyof Hooks & string, (...args: any[]) => unknown, ...unknown[]]> = []) {
    this.#isName = isName;
    for (const [name, fn] of registrations) this.hook(name, fn as never);
  }

  /**
   * Registers `fn` under `name`; returns a function that removes it again. Throws `TypeError` naming the method for
   * a name of no hook point, and naming the hook for a `fn` that is not a function.
   */
  hook<Name extends keyof Hooks & string>(name: Name, fn: Hooks[Name]): () => void {
    if (!this.#isName(name)) throw argumentError("hooks.hook", "the name of a hook point", name);
    if (typeof fn !== "function") throw argumentError(`hooks.hook(${previewText(name)})`, "a function", fn);
    (this.#hooks[name] ??= []).push(fn);
    let registered = true;
    return () => {
      if (registered) this.removeHook(name, fn);
      registered = false;
    };
  }

  /** Removes `fn` from the functions registered under `name`. */
  removeHook<Name extends keyof Hooks & string>(name: Name, fn: Hooks[Name]): void {
    const functions = this.#hooks[name];
    const index = functions?.indexOf(fn) ?? -1;
    if (index !== -1) functions!.splice(index, 1);
  }

  /** Calls the hooks of a point in order, awaiting those that return a promise; synchronous when none does. */
  callHook<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): Promise<void> | void {
    return callFrom(this.#hooks[name] ?? [], 0, args);
  }

  /** Whether any hook is registered under `name`; lets hot paths skip empty hook points. */
  has(name: keyof Hooks & string): boolean {
    return (this.#hooks[name]?.length ?? 0) > 0;
  }

  /** Whether any hook is registered under one of `names`. */
  hasAnyOf(names: ReadonlyArray<keyof Hooks & string>): boolean {
    for (const name of names) if (this.has(name)) return true;
    return false;
  }

  /** The functions registered under `name`, in call order: lets a plugin tell its own hooks from others'. */
  functionsOf(name: keyof Hooks & string): ReadonlyArray<(...args: any[]) => unknown> {
    return this.#hooks[name] ?? [];
  }

  /** Calls the hooks of a synchronous point in order; an error thrown by one propagates to the caller. */
  callSync<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): void {
    for (const fn of this.#hooks[name] ?? []) fn(...args);
  }

  /**
   * Calls every hook of a synchronous point in order, the ones after a hook that threw too, then throws the first
   * error: for a point that reports what already happened (a write's outcome), which every hook must hear of.
   */
  callEachSync<Name extends keyof Hooks & string>(name: Name, ...args: Parameters<Hooks[Name]>): void {
    let failure: { error: unknown } | undefined;
    for (const fn of this.#hooks[name] ?? []) {
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
