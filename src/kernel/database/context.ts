import { AsyncLocalStorage } from "node:async_hooks";
import { isBatchable } from "./batchable.js";
import { argumentError, refuseUninspectable } from "../records/arguments.js";
import { type BatchItem, Database, boundDatabase, connect } from "./database.js";
import type { D1DatabaseLike } from "./d1.js";
import { NoDatabase } from "../errors.js";
import { previewText } from "../records/display.js";

const current = new AsyncLocalStorage<Database>();

/** Runs `fn` so that Models without a bound database query `database`; returns what `fn` returns. */
export function withDatabase<T>(database: Database, fn: () => T): T {
  refuseUninspectable("withDatabase", "a database made by connect()", database);
  if (!(database instanceof Database)) throw argumentError("withDatabase", "a database made by connect()", database);
  if (typeof fn !== "function") throw argumentError("withDatabase", "a function to run", fn);
  return current.run(database, fn);
}

type WorkerEnv = Record<string, unknown>;
let loadedEnv: Promise<WorkerEnv | undefined> | undefined;

/**
 * The Worker's `env` (its bindings and secrets), read from `cloudflare:workers`; undefined outside a Worker. Plugin
 * API, for a plugin that reads a secret (the `encrypts` plugin's keys). Imported lazily, so that the package still
 * loads in plain Node, where that module does not exist.
 */
export function workerEnv(): Promise<WorkerEnv | undefined> {
  const specifier = "cloudflare:workers";
  loadedEnv ??= import(/* @vite-ignore */ specifier).then(
    (module: { env?: WorkerEnv }) => module.env,
    () => undefined,
  );
  return loadedEnv;
}

const bindingDatabases = new WeakMap<object, Database>();

async function databaseFromBinding(modelName: string, binding: string | undefined): Promise<Database> {
  if (!binding) {
    throw new NoDatabase(`${modelName} has no database: use withDatabase(db, fn) or db.model(${modelName}), or set static binding on the base class`);
  }
  const env = await workerEnv();
  const d1 = env?.[binding] as D1DatabaseLike | undefined;
  if (!d1) throw new NoDatabase(`${modelName}: the binding ${previewText(binding)} is not in the Worker's env`);
  let database = bindingDatabases.get(d1);
  if (!database) bindingDatabases.set(d1, (database = connect(d1)));
  return database;
}

/**
 * The database a query on this Model (or bound view) uses: the bound one, else the one `withDatabase` opened,
 * else the Worker's binding named by the Model's `binding`.
 */
export function databaseFor(model: { name: string; binding?: string | undefined }): Database | Promise<Database> {
  return boundDatabase(model) ?? current.getStore() ?? databaseFromBinding(model.name, model.binding);
}

/** The database `withDatabase` opened, if any. */
export function currentDatabase(): Database | undefined {
  return current.getStore();
}

/**
 * The database for a top-level `batch([...])`: the one `withDatabase` opened, else the one the first item
 * writes through (a record's own database, or its Model's binding).
 */
export function databaseForBatch(items: readonly BatchItem[]): Database | Promise<Database> {
  const store = current.getStore();
  if (store) return store;
  const first = items[0];
  if (first === undefined) throw new NoDatabase("batch([]) has nothing to run and no database");
  // A Statement and a record write name their database as a StatementDatabase, of which Database is the one kind.
  if (isBatchable(first)) return first.database() as Database | Promise<Database>;
  if (first.database) return first.database as Database;
  const model = first.model?.model as { name: string; binding?: string } | undefined;
  if (!model) throw new NoDatabase("batch([...]) needs a database: call it inside withDatabase(db, fn), or use db.batch([...])");
  return databaseFor(model);
}
