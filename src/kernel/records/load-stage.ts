/**
 * The load stage: what every path that makes records from rows runs once per batch of rows, after the records are
 * made and before anyone receives them. It may be async (an `encrypts` plugin decrypts with WebCrypto here), yet a
 * Model with no `records:load` hook pays nothing for it: no call, no allocation, no await.
 */
import type { RecordsLoadPurpose, ResolvedModel } from "../plugin-api/hooks.js";
import { type RecordState, STATE } from "./record-state.js";

const modelOf = (record: unknown): ResolvedModel => (record as { [STATE]: RecordState })[STATE].model;

/**
 * Runs the `records:load` hooks on a batch of loaded rows and the records made from them, once for each Model among
 * the records; gives back `loaded` (the records, or whatever the caller made of them) once the hooks are done, at
 * once when none returned a promise.
 */
export function runLoadStage<Loaded>(
  model: ResolvedModel,
  loaded: Loaded,
  records: readonly unknown[],
  rows: ReadonlyArray<Record<string, unknown>>,
  purpose: RecordsLoadPurpose,
): Loaded | Promise<Loaded> {
  // A record:class hook may have made some rows records of subclasses of the Model queried: each passes its own
  // class's hooks (its parents' among them), once per class, as its hydration did.
  const split = model.hooks.has("record:class") && records.length > 0;
  if (rows.length === 0 || (!split && !model.hooks.has("records:load"))) return loaded;
  let done: unknown;
  for (const own of split ? new Set(records.map(modelOf)) : [model]) {
    if (!own.hooks.has("records:load")) continue;
    const mine = <T>(list: readonly T[]) => (split ? list.filter((_, index) => modelOf(records[index]) === own) : list);
    const run = () => own.hooks.callHook("records:load", { model: own, records: mine(records), rows: mine(rows), purpose });
    done = done instanceof Promise ? done.then(run) : run();
  }
  return done instanceof Promise ? done.then(() => loaded) : loaded;
}
