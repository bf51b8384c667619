/**
 * The load stage: what every path that makes records from rows runs once per batch of rows, after the records are
 * made and before anyone receives them. It may be async (an `encrypts` plugin decrypts with WebCrypto here), yet a
 * Model with no `records:load` hook pays nothing for it: no call, no allocation, no await.
 */
import type { RecordsLoadPurpose, ResolvedModel } from "../plugin-api/hooks.js";
import { type RecordState, STATE } from "./record-state.js";

/** The records of one Model among a batch, with their rows. */
interface ModelBatch {
  readonly model: ResolvedModel;
  readonly records: unknown[];
  readonly rows: Record<string, unknown>[];
}

/**
 * A batch split by the Model of each record: a `record:class` hook may have made some rows records of subclasses of
 * the Model queried, and each passes its own class's hooks (its parents' among them), as its hydration did.
 */
function batchesByModel(model: ResolvedModel, records: readonly unknown[], rows: ReadonlyArray<Record<string, unknown>>): ModelBatch[] {
  const batches = new Map<ResolvedModel, ModelBatch>();
  records.forEach((record, index) => {
    const own = (record as { [STATE]: RecordState })[STATE].model;
    const batch = batches.get(own) ?? batches.set(own, { model: own, records: [], rows: [] }).get(own)!;
    batch.records.push(record);
    batch.rows.push(rows[index]!);
  });
  return batches.size > 0 ? [...batches.values()] : [{ model, records: [], rows: [...rows] }];
}

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
  if (rows.length === 0) return loaded;
  if (!model.hooks.has("record:class")) {
    if (!model.hooks.has("records:load")) return loaded;
    const done = model.hooks.callHook("records:load", { model, records, rows, purpose });
    return done instanceof Promise ? done.then(() => loaded) : loaded;
  }
  let done: unknown;
  for (const batch of batchesByModel(model, records, rows)) {
    if (!batch.model.hooks.has("records:load")) continue;
    const run = () => batch.model.hooks.callHook("records:load", { ...batch, purpose });
    done = done instanceof Promise ? done.then(run) : run();
  }
  return done instanceof Promise ? done.then(() => loaded) : loaded;
}
