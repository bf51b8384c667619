import { argumentError, type D1DatabaseLike, refuseUninspectable, workerEnv } from "../kernel/index.js";

/** Refuses work that is not a function, naming the helper it was given to. */
export function checkedWork(method: string, work: unknown): void {
  if (typeof work !== "function") throw argumentError(method, "the work to run, a function", work);
}

const BINDING = "a D1 binding (env.DB, not its name)";

/** Refuses what is not a D1 binding (its name, a misspelt `env.DBB`), naming where it was given. */
export function checkedBinding(where: string, binding: unknown): D1DatabaseLike {
  refuseUninspectable(where, BINDING, binding);
  const { prepare, batch } = (typeof binding === "object" && binding !== null ? binding : {}) as Partial<D1DatabaseLike>;
  if (typeof prepare !== "function" || typeof batch !== "function") throw argumentError(where, BINDING, binding);
  return binding as D1DatabaseLike;
}

/** The `binding` option of a helper, checked and named by it: the binding given, or the Worker's `env.DB`. */
export async function bindingOf(method: string, binding: unknown): Promise<D1DatabaseLike> {
  if (binding !== undefined) return checkedBinding(`${method}: binding`, binding);
  const fromEnv = (await workerEnv())?.["DB"] as D1DatabaseLike | undefined;
  if (!fromEnv) throw new TypeError(`${method}: no binding given and the Worker's env has no DB; pass { binding: env.DB }`);
  return fromEnv;
}
