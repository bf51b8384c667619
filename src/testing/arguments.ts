import { argumentError, checkedBinding, type D1DatabaseLike, workerEnv } from "../kernel/index.js";

/** Refuses work that is not a function, naming the helper it was given to. */
export function checkedWork(method: string, work: unknown): void {
  if (typeof work !== "function") throw argumentError(method, "the work to run, a function", work);
}

/** The `binding` option of a helper, checked and named by it: the binding given, or the Worker's `env.DB`. */
export async function bindingOf(method: string, binding: unknown): Promise<D1DatabaseLike> {
  if (binding !== undefined) return checkedBinding(`${method}: binding`, binding);
  const fromEnv = (await workerEnv())?.["DB"] as D1DatabaseLike | undefined;
  if (!fromEnv) throw new TypeError(`${method}: no binding given and the Worker's env has no DB; pass { binding: env.DB }`);
  return fromEnv;
}
