/**
 * recordflare: the Active Record data library for Cloudflare D1.
 * @packageDocumentation
 */
export * from "./kernel/index.js";
export { ActiveRecord, Model } from "./active-record.js";
export { batch } from "./batch.js";
export { defaultPlugins } from "./plugins/default-plugins.js";
export { attributeFiltering } from "./plugins/attribute-filtering.js";
export { idGeneration } from "./plugins/id-generation.js";
export { timestamps } from "./plugins/timestamps.js";
export { scopes } from "./plugins/scopes.js";
export { tableNaming, tableize } from "./plugins/table-naming.js";
export { pluralize } from "./plugins/inflection.js";
export { combining } from "./plugins/combining.js";
export { calculations } from "./plugins/calculations.js";
export { pagination } from "./plugins/pagination.js";
export { permitting, type PermitOptions } from "./plugins/permitting.js";
export { normalization, type NormalizesOptions } from "./plugins/normalization.js";
export { bulkWrites } from "./plugins/bulk-writes.js";
export { callbacks } from "./plugins/callbacks.js";
export { validations } from "./plugins/validations.js";
export { uuidV7 } from "./plugins/uuid-v7.js";
export { optimisticLocking, StaleObject } from "./plugins/optimistic-locking.js";
export { currentTenant, multiTenancy, NoTenant, TenantMismatch, withTenant } from "./plugins/multi-tenancy.js";
export { softDelete } from "./plugins/soft-delete.js";
export { associations } from "./plugins/associations/plugin.js";
export { belongsTo, hasMany, hasOne, type AssociationRelation, type BelongsTo, type HasMany, type HasOne } from "./plugins/associations/declare.js";
export type { BelongsToOptions, Dependent, HasManyDependent, HasManyOptions, HasOneDependent, HasOneOptions } from "./plugins/associations/definition.js";
export { requestBookmark, sessionFor, withRequestDatabase, type RequestDatabaseOptions, type SessionConstraint } from "./web/request-sessions.js";
