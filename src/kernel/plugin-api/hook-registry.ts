/**
 * Hook functions registered under hook names, in registration order: the registering half of hook points, which
 * `HookPoints` calls. (It replaces the `hookable` package, of which the kernel used no more than this.)
 */
export class HookRegistry<Hooks extends Record<string, any>> {
  /** The functions registered under each name, in call order. */
  protected readonly _hooks: { [Name in keyof Hooks]?: Array<(...args: any[]) => unknown> } = {};

  /** Registers `fn` under `name`; returns a function that removes it again. A `fn` that is not a function is ignored. */
  hook<Name extends keyof Hooks & string>(name: Name, fn: Hooks[Name]): () => void {
    if (!name || typeof fn !== "function") return () => {};
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
