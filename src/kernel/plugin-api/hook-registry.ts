import { argumentError } from "../records/arguments.js";
import { previewText } from "../records/display.js";

/**
 * Hook functions registered under hook names, in registration order: the registering half of hook points, which
 * `HookPoints` calls. (It replaces the `hookable` package, of which the kernel used no more than this.)
 */
export class HookRegistry<Hooks extends Record<string, any>> {
  /** The functions registered under each name, in call order. */
  protected readonly _hooks: { [Name in keyof Hooks]?: Array<(...args: any[]) => unknown> } = {};
  /** Whether a name is one of the points called: a hook under any other would silently never run. */
  readonly #isName: (name: unknown) => boolean;

  constructor(isName: (name: unknown) => boolean) {
    this.#isName = isName;
  }

  /**
   * Registers `fn` under `name`; returns a function that removes it again. Throws `TypeError` naming the method for
   * a name of no hook point, and naming the hook for a `fn` that is not a function.
   */
  hook<Name extends keyof Hooks & string>(name: Name, fn: Hooks[Name]): () => void {
    if (!this.#isName(name)) throw argumentError("hooks.hook", "the name of a hook point", name);
    if (typeof fn !== "function") throw argumentError(`hooks.hook(${previewText(name)})`, "a function", fn);
    (this._hooks[name] ??= []).push(fn);
    let registered = true;
    return () => {
      if (registered) this.removeHook(name, fn);
      registered = false;
    };
  }

  /** Removes `fn` from the functions registered under `name`. */
  removeHook<Name extends keyof Hooks & string>(name: Name, fn: Hooks[Name]): void {
    const functions = this._hooks[name];
    const index = functions?.indexOf(fn) ?? -1;
    if (index !== -1) functions!.splice(index, 1);
  }
}
