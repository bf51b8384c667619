/**
 * The load stage: what every path that makes records from rows runs once per batch of rows, after the records are
 * made and before anyone receives them. It may be async (an `encrypts` plugin decrypts with WebCrypto here), yet a
 * Model with no `records:load` hook pays nothing for it: no call, no allocation, no await.
 */
import type { RecordsLoadPurpose, ResolvedModel } from "../plugin-api/hooks.js";

/**
 * Runs the `records:load` hooks on a batch of loaded rows and the records made from them; gives back `loaded`
 * (the records, or whatever the caller made of them) once the hooks are done, at once when none returned a promise.
 */
export function runLoadStage<Loaded>(
  model: ResolvedModel,
  loaded: Loaded,
  records: readonly unknown[],
  rows: ReadonlyArray<Record<string, unknown>>,
  purpose: RecordsLoadPurpose,
): Loaded | Promise<Loaded> {
  if (rows.length === 0 || !model.hooks.has("records:load")) return loaded;
  const done = model.hooks.callHook("records:load", { model, records, rows, purpose });
  return done instanceof Promise ? done.then(() => loaded) : loaded;
}
