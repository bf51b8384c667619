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
export { scopes, type ScopeStatic } from "./plugins/scopes.js";
export { tableNaming, tableize } from "./plugins/table-naming.js";
export { pluralize } from "./plugins/inflection.js";
export { combining } from "./plugins/combining.js";
export { calculations, type AttributeNames, type PluckedRow } from "./plugins/calculations.js";
export { pagination, type BasePage, type Page, type PaginateOptions, type UncountedPage } from "./plugins/pagination.js";
export { permitting, type PermitOptions } from "./plugins/permitting.js";
export { normalization, type NormalizesOptions } from "./plugins/normalization.js";
export { bulkWrites, type InsertOptions, type UpsertOptions } from "./plugins/bulk-writes.js";
export { callbacks, type Callback } from "./plugins/callbacks.js";
export { validations } from "./plugins/validations.js";
export type { AllowNilOrBlank, ValidationOptions } from "./plugins/validation-options.js";
export { uuidV7 } from "./plugins/uuid-v7.js";
export { associations, type JsonInclude } from "./plugins/associations/plugin.js";
export { belongsTo, hasMany, hasOne, type AssociationRelation, type BelongsTo, type HasMany, type HasOne } from "./plugins/associations/declare.js";
export type { BelongsToOptions, Dependent, HasManyDependent, HasManyOptions, HasOneDependent, HasOneOptions } from "./plugins/associations/definition.js";
export { requestBookmark, sessionFor, withRequestDatabase, type RequestDatabaseOptions, type SessionConstraint } from "./web/request-sessions.js";
