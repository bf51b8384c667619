import { AsyncLocalStorage } from "node:async_hooks";
import { abort, attributesOf, column, definePlugin, installChangesGuard, installWritePlans, previewText, quoteIdentifier, RecordflareError, sql } from "../kernel/index.js";

const tenants = new AsyncLocalStorage<string>();

/** A tenant-scoped Model was queried or written with no tenant open. */
export class NoTenant extends RecordflareError {
  override name = "NoTenant";
}

/** A record's own UPDATE or DELETE changed nothing: its row is not the current tenant's. Nothing was written. */
export class TenantMismatch extends RecordflareError {
  override name = "TenantMismatch";
}

/** Runs `fn` with `tenantId` as the current tenant (for the request); returns what `fn` returns. */
export function withTenant<T>(tenantId: string, fn: () => T): T {
  if (typeof tenantId !== "string") throw new TypeError(`withTenant takes a tenant id string, not ${previewText(tenantId)}`);
  return tenants.run(tenantId, fn);
}

/** The tenant `withTenant` opened; `NoTenant` when none is. */
export function currentTenant(modelName = "recordflare"): string {
  const tenant = tenants.getStore();
  if (tenant === undefined) throw new NoTenant(`${modelName}: no tenant is open; run the work inside withTenant(tenantId, fn)`);
  return tenant;
}

/**
 * Refuses, with `TypeError` naming the Model, the method and the attribute, a write that would give rows a tenant
 * other than the current one: a write never moves a row to another tenant (as acts_as_tenant raises on a change).
 */
function refuseOtherTenant(write: string, attribute: string, values: ReadonlyMap<string, unknown>, tenant: string): void {
  if (!values.has(attribute) || values.get(attribute) === tenant) return;
  throw new TypeError(
    `${write}: ${attribute} ${previewText(values.get(attribute))} is not the current tenant ${previewText(tenant)}; no write gives a row another tenant`,
  );
}

/**
 * Multi-tenancy for the Models that have the tenant attribute (`tenantId` unless told otherwise): every query is
 * narrowed to the current tenant, a new record gets it at `build()`, a new record of another tenant is refused, and
 * the record's own UPDATE and DELETE are made only where the row is the current tenant's: one of another tenant's
 * row changes nothing and throws `TenantMismatch`. Writes of many rows stay within the tenant too: `updateAll` and
 * `deleteAll` (and dependents' set-based writes) reach only its rows, an upsert updates only a row of its own, and
 * a bulk insert or `updateAll` that would give rows another tenant throws `TypeError`. With no tenant open, queries
 * and writes throw `NoTenant`.
 */
export function multiTenancy({ attribute = "tenantId" }: { attribute?: string } = {}) {
  return definePlugin({
    name: `multi-tenancy:${attribute}`,
    setup: installWritePlans,
    appliesTo: (model) => attributesOf(model).some((each) => each.name === attribute),
    hooks: {
      "record:initialize"({ record }) {
        const tenant = tenants.getStore();
        if (tenant !== undefined) record.writeAttribute(attribute, tenant);
      },
      "record:beforeSave"({ record }) {
        if (record.isNewRecord() && record.readAttribute(attribute) !== currentTenant(record.constructor.name)) {
          throw abort("belongs to another tenant");
        }
      },
      // Bulk inserts run no before-save hook, but they run this one for each row; an update may not move a row either.
      "record:write"({ record, values }) {
        refuseOtherTenant(record.constructor.name, attribute, values, currentTenant(record.constructor.name));
      },
      // A record's own UPDATE and DELETE must change exactly its row, the tenant's. updateAll, deleteAll and
      // dependents' writes reach the tenant's rows through relation:where; an upsert's conflicting row is found by its
      // key alone, whoever's it is, so its DO UPDATE is made only where the row is the tenant's.
      "write:plan"(plan) {
        const { model, operation, record, kind, values } = plan;
        const tenant = currentTenant(model.name);
        refuseOtherTenant(record ? model.name : `${model.name}.${operation}`, attribute, values, tenant);
        if (kind === "insert" || (!record && kind !== "upsert")) return;
        plan.where.push(sql`${column(attribute)} = ${tenant}`);
        if (record) {
          installChangesGuard();
          plan.expectedChanges = 1;
        }
      },
      "write:outcome"({ plan, conflict }) {
        if (!conflict || !plan.record) return;
        const { model, record, operation } = plan;
        const id = previewText(record.readAttribute(model.primaryKey.name));
        const action = operation === "destroy" ? "destroyed" : "saved";
        throw new TenantMismatch(
          `${model.name} with ${model.primaryKey.name} ${id} was not ${action}: its row is not tenant ${previewText(tenants.getStore())}'s (or is gone)`,
        );
      },
      "relation:where"({ model, parts }) {
        const tenantAttribute = model.byName.get(attribute)!;
        const tenant = parts.params.bind(currentTenant(model.name), { kind: "value", attribute: tenantAttribute });
        parts.where.push(`${quoteIdentifier(tenantAttribute.column)} = ${tenant}`);
      },
    },
  });
}
