/**
 * The plugin examples of docs/guide.md ("Writing a plugin": soft delete, audit log, multi-tenancy, a presence validator with
 * per-Model state, the shape of a plugin), copied verbatim apart from the import path. The guide's tests
 * (kernel/plugin-examples.test.ts, kernel/plugin-api.test.ts and the feature files) run them against real D1: if one fails, fix the guide with the code.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  abort,
  attributesOf,
  declareModelState,
  defineModelState,
  definePlugin,
  modelState,
  quoteIdentifier,
  RecordflareError,
  type RelationData,
} from "../../src/index.js";

// ---- docs/guide.md, "Example: soft delete" --------------------------------------------------------------

type Conditions = RelationData["conditions"];

/** Whether the query's own conditions mention deletedAt; then it decides about deleted rows itself. */
function mentionsDeletedAt(conditions: Conditions): boolean {
  return conditions.some((condition) => {
    if ("attribute" in condition) return condition.attribute.name === "deletedAt";
    if (condition.kind === "not") return mentionsDeletedAt(condition.conditions);
    if (condition.kind === "or") return condition.branches.some(mentionsDeletedAt);
    return false;
  });
}

/**
 * Soft delete for Models with a `deletedAt` datetime attribute (column `deleted_at`): `destroy()` stamps
 * `deletedAt` and keeps the row, and queries leave stamped rows out unless they mention `deletedAt`.
 */
export const softDelete = definePlugin({
  name: "soft-delete",
  hooks: {
    async "record:beforeDestroy"({ record }) {
      if (record.isNewRecord()) return;
      await record.update({ deletedAt: new Date() });
      throw abort("soft-deleted");
    },
    "relation:where"({ data, parts }) {
      if (!mentionsDeletedAt(data.conditions)) parts.where.push(`"deleted_at" IS NULL`);
    },
  },
});

// ---- docs/guide.md, "Example: audit log" -----------------------------------------------------------------

export interface AuditEntry {
  model: string;
  recordId: unknown;
  action: "create" | "update" | "destroy";
  /** Attribute name to [old, new]; filtered attributes show as "[FILTERED]". */
  changes: Record<string, [unknown, unknown]>;
}

const unaudited = defineModelState(
  "audit-log:unaudited",
  () => new Set<string>(),
  (parent) => new Set(parent),
);

/** Leaves attributes out of a Model's audit entries (and out of its subclasses'). */
export function auditIgnore(model: Function, ...names: string[]): void {
  const ignored = modelState(model, unaudited);
  for (const name of names) ignored.add(name);
}

/** Reports each save that changed something, and each destroy, to `write`. */
export function auditLog(write: (entry: AuditEntry) => void | Promise<void>) {
  return definePlugin({
    name: "audit-log",
    hooks: {
      async "record:afterSave"({ record, operation }) {
        const model = record.constructor;
        const ignored = modelState(model, unaudited);
        const saved = record.savedChanges();
        const changes: AuditEntry["changes"] = {};
        for (const attribute of attributesOf(model)) {
          const change = saved[attribute.name];
          if (!change || ignored.has(attribute.name)) continue;
          changes[attribute.name] = attribute.filtered ? ["[FILTERED]", "[FILTERED]"] : change;
        }
        if (Object.keys(changes).length === 0) return;
        const recordId = record.readAttribute(model.primaryKey);
        await write({ model: model.name, recordId, action: operation, changes });
      },
      async "record:afterDestroy"({ record }) {
        const model = record.constructor;
        const recordId = record.readAttribute(model.primaryKey);
        await write({ model: model.name, recordId, action: "destroy", changes: {} });
      },
    },
  });
}

// ---- docs/guide.md, "Example: multi-tenancy" ------------------------------------------------------------

const tenants = new AsyncLocalStorage<string>();

/** A tenant-scoped Model was queried or written with no tenant open. */
export class NoTenant extends RecordflareError {
  override name = "NoTenant";
}

/** Runs `fn` with `tenantId` as the current tenant (for the request); returns what `fn` returns. */
export function withTenant<T>(tenantId: string, fn: () => T): T {
  return tenants.run(tenantId, fn);
}

/** The tenant `withTenant` opened; `NoTenant` when none is. */
export function currentTenant(modelName = "recordflare"): string {
  const tenant = tenants.getStore();
  if (tenant === undefined) throw new NoTenant(`${modelName}: no tenant is open; run the work inside withTenant(tenantId, fn)`);
  return tenant;
}

/**
 * Multi-tenancy for the Models that have the tenant attribute (`tenantId` unless told otherwise): every query is
 * narrowed to the current tenant, a new record gets it at `build()`, and a save or destroy of another tenant's
 * record is refused. With no tenant open, queries, saves and destroys of such Models throw `NoTenant`.
 */
export function tenantScoped({ attribute = "tenantId" }: { attribute?: string } = {}) {
  /** Refuses to write a record that is not (or was not, as loaded) the current tenant's. */
  function guard(record: any): void {
    const tenant = currentTenant(record.constructor.name);
    const stored = record.isNewRecord() ? tenant : record.attributeWas(attribute);
    if (record.readAttribute(attribute) !== tenant || stored !== tenant) throw abort("belongs to another tenant");
  }

  return definePlugin({
    name: `tenancy:${attribute}`,
    appliesTo: (model) => attributesOf(model).some((each) => each.name === attribute),
    hooks: {
      "record:initialize"({ record }) {
        const tenant = tenants.getStore();
        if (tenant !== undefined) record.writeAttribute(attribute, tenant);
      },
      "record:beforeSave"({ record }) {
        guard(record);
      },
      "record:beforeDestroy"({ record }) {
        if (!record.isNewRecord()) guard(record);
      },
      // Bulk inserts (insertAll, upsertAll) run no before-save hook, but they run this one for each row.
      "record:write"({ record, values }) {
        const tenant = currentTenant(record.constructor.name);
        if (values.has(attribute) && values.get(attribute) !== tenant) {
          throw new TypeError(`${record.constructor.name}: a row of another tenant cannot be written`);
        }
      },
      "relation:where"({ model, parts }) {
        const tenantAttribute = model.byName.get(attribute)!;
        const tenant = parts.params.bind(currentTenant(model.name), { kind: "value", attribute: tenantAttribute });
        parts.where.push(`${quoteIdentifier(tenantAttribute.column)} = ${tenant}`);
      },
    },
  });
}

// ---- docs/guide.md, "Per-Model state" (a presence validator) ---------------------------------------------

const required = defineModelState(
  "presence:required",
  () => [] as string[],
  (parent) => [...parent],
);

/** Declares attributes that must not be null or blank. */
export function validatesPresence(model: Function, ...names: string[]): void {
  declareModelState(model, required).push(...names);
}

export const presence = definePlugin({
  name: "presence",
  hooks: {
    "record:validate"({ record }) {
      for (const name of modelState(record.constructor, required)) {
        const value = record.readAttribute(name);
        if (value === null || (typeof value === "string" && value.trim() === "")) {
          record.errors.add(name, "blank", "can't be blank");
        }
      }
    },
  },
});

// ---- docs/guide.md, "Writing a plugin" (the shape of a plugin) -------------------------------------------

export const trimNames = definePlugin({
  name: "trim-names", // registering the same name twice on a class chain is a no-op
  hooks: {
    "attribute:assign"(context) {
      if (context.attribute.name === "name" && typeof context.value === "string") context.value = context.value.trim();
    },
  },
  relationMethods: {
    // `this` is the Relation; also becomes a static of the class the plugin is registered on
    newestFirst(this: any) {
      return this.reorder({ createdAt: "desc" });
    },
  },
  setup(model) {
    // runs once, with the class the plugin is registered on: add statics or settings here
  },
  // optional: whether the hooks run for a Model at all (asked once per Model, at its first use)
  appliesTo: (model) => attributesOf(model).some((attribute) => attribute.name === "name"),
});
