import { env } from "cloudflare:test";
import { abort, belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
import { installWritePlans, type ModelHookName } from "../../src/plugin.js";

/**
 * Graphs of three levels (owner, children, grandchildren with a unique `code`), with integer keys (each level in
 * its own batch) and text keys (one batch), on the tables of migration 0033. Every Model trims its text in a
 * `beforeSave` callback (so a failed save must put the untrimmed value back) and springs the `trap` when it names
 * one of its callbacks or hooks (an Error, or an `abort` with `trap.abort`); `trap.log` collects every call.
 */
export const trap: { at?: string; abort?: boolean; log?: string[] } = {};

/** The callbacks and plugin hooks a trap can be set on, as `<Model>:<name>`. */
export const TRAPPABLE = {
  callbacks: ["beforeSave", "beforeCreate", "beforeUpdate", "afterSave", "afterCreate", "afterUpdate", "beforeDestroy", "afterDestroy"],
  hooks: ["record:validate", "record:beforeSave", "record:beforeWrite", "record:write", "write:plan", "record:beforeDestroy", "record:beforeDelete"],
} as const satisfies { callbacks: string[]; hooks: ModelHookName[] };

type Trappable = { name: string; hook(name: ModelHookName, fn: () => void): void } & Record<(typeof TRAPPABLE.callbacks)[number], (fn: (record: any) => void) => void>;

/** Registers the trimming callback and a trap on every callback and hook of `model`. */
function armable(model: Trappable, text: string): void {
  const spring = (at: string) => {
    trap.log?.push(`${model.name}:${at}`);
    if (trap.at !== `${model.name}:${at}`) return;
    if (trap.abort) throw abort(`aborted at ${model.name}:${at}`);
    throw new Error(`trap sprung at ${model.name}:${at}`);
  };
  model.beforeSave((record) => {
    if (typeof record[text] === "string") record[text] = record[text].trim();
  });
  for (const name of TRAPPABLE.callbacks) model[name](() => spring(name));
  installWritePlans();
  for (const name of TRAPPABLE.hooks) model.hook(name, () => spring(name));
}

const stamps = { createdAt: "datetime", updatedAt: "datetime" } as const;

export class FaIntGrandchild extends Model({ id: "integer", faIntChildId: "integer", code: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    this.validates("code", { length: { minimum: 2 } });
    armable(this as unknown as Trappable, "code");
  }
}

export class FaIntChild extends Model({ id: "integer", faIntOwnerId: "integer", title: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    this.validates("title", { presence: true });
    armable(this as unknown as Trappable, "title");
  }
  grandchildren = hasMany(FaIntGrandchild, { dependent: "destroy" });
}

export class FaIntOwner extends Model({ id: "integer", name: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    armable(this as unknown as Trappable, "name");
  }
  children = hasMany(FaIntChild, { dependent: "destroy" });
}

export class FaGrandchild extends Model({ id: "string", faChildId: "string", code: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    this.validates("code", { length: { minimum: 2 } });
    armable(this as unknown as Trappable, "code");
  }
}

export class FaChild extends Model({ id: "string", faOwnerId: "string", title: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    this.validates("title", { presence: true });
    armable(this as unknown as Trappable, "title");
  }
  grandchildren = hasMany(FaGrandchild, { dependent: "destroy" });
  owner = belongsTo(FaOwner, { foreignKey: "faOwnerId" });
}

export class FaOwner extends Model({ id: "string", name: { type: "string", null: false }, ...stamps }) {
  static override binding = "DB";
  static {
    armable(this as unknown as Trappable, "name");
  }
  children = hasMany(FaChild, { dependent: "destroy" });
  firstChild = hasOne(FaChild);
}

/** The tables of these Models, for dumps. */
export const FAILURE_TABLES = ["fa_int_owners", "fa_int_children", "fa_int_grandchildren", "fa_owners", "fa_children", "fa_grandchildren"];

/** Every row of the tables, read straight from D1: what a failed operation must leave as it was. */
export async function dumpTables(tables: readonly string[] = FAILURE_TABLES): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) dump[table] = (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
  return dump;
}

/** What a failed operation must leave as it was on each record: values, changes, errors and state. */
export function stateOf(records: readonly any[]): unknown[] {
  return records.map((record) => ({
    attributes: record.attributes(),
    changed: record.changed(),
    changes: record.changes(),
    errors: record.errors.toArray(),
    abortReason: record.abortReason,
    states: [record.isNewRecord(), record.isPersisted(), record.isDestroyed()],
  }));
}
