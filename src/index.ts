/**
 * recordflare: the Active Record data library for Cloudflare D1. This entry is what apps use; the plugin API is
 * `recordflare/plugin`.
 * @packageDocumentation
 */
export { ActiveRecord, Model } from "./active-record.js";
export { Base } from "./kernel/base.js";
export { defineApplicationRecord, type ApplicationRecordFunction, type AppModel, type Schema } from "./kernel/application-record.js";
export type { AttributeDeclaration, AttributeDeclarations, AttributeOptions, AttributeOverride, AttributeOverrides, AttributesOf } from "./kernel/records/attributes.js";
export type { AttributeInputMap, AttributeJsonMap, AttributeTypeMap, AttributeTypeName, BuiltInAttributeTypeName } from "./kernel/records/attribute-types.js";
export type * from "./kernel/types.js";
export { underscore, camelize } from "./kernel/sql/naming.js";

export { connect, Database, type BatchItem, type BatchItemResult, type BatchResults, type ConnectOptions, type DatabaseHooks } from "./kernel/database/database.js";
export type { RetryOptions } from "./kernel/database/retries.js";
export type { D1DatabaseLike, D1PreparedStatementLike } from "./kernel/database/d1.js";
export { currentDatabase, withDatabase } from "./kernel/database/context.js";
export { batch } from "./batch.js";
export type { Batchable } from "./kernel/database/batchable.js";
export type { SaveOptions } from "./kernel/persistence/record-save.js";
export type { Statement, SqlQuery } from "./kernel/sql/statement.js";
export type { QueryEvent } from "./kernel/sql/query-event.js";
export type { QueryPlanStep } from "./kernel/database/query-plan.js";
export type { QueryBudgets } from "./kernel/database/query-budget.js";
export { requestBookmark, sessionFor, withRequestDatabase, type RequestDatabaseOptions, type SessionConstraint } from "./web/request-sessions.js";

export { between, Comparison, gt, gte, ignoringCase, lt, lte } from "./kernel/sql/conditions.js";
export { column, sql, SqlFragment, ColumnReference } from "./kernel/sql/sql.js";
export type { OrderDirection } from "./kernel/relations/relation.js";

export { Abort, abort } from "./kernel/persistence/abort.js";
export * from "./kernel/errors.js";
export { RecordInvalid } from "./kernel/persistence/record-invalid.js";
export { WriteConflict } from "./kernel/persistence/write-conflict.js";
export { Errors, type ErrorEntry } from "./kernel/records/errors-collection.js";

export { defaultPlugins } from "./plugins/default-plugins.js";
export { attributeFiltering, type AttributeFilteringSettings } from "./plugins/attribute-filtering.js";
export { idGeneration, type IdGenerationSettings } from "./plugins/id-generation.js";
export { timestamps } from "./plugins/timestamps.js";
export { scopes, type ScopeStatic } from "./plugins/scopes.js";
export { defaultScopes } from "./plugins/default-scopes.js";
export { tableNaming, tableize } from "./plugins/table-naming.js";
export { pluralize } from "./plugins/inflection.js";
export { combining } from "./plugins/combining.js";
export { calculations, type AttributeNames, type IdOf, type PluckedRow } from "./plugins/calculations.js";
export { aggregates, type OrderedAttributeName } from "./plugins/aggregates.js";
export { findOrCreate, type FindOrCreateAttributes } from "./plugins/find-or-create.js";
export { batches, type BatchOptions } from "./plugins/batches.js";
export { changeTracking } from "./plugins/change-tracking.js";
export { findMany } from "./plugins/find-many.js";
export { lastRecord } from "./plugins/last-record.js";
export { queryPlans } from "./plugins/query-plans.js";
export { recordPrinting } from "./plugins/record-printing.js";
export { pagination, type BasePage, type Page, type PaginateOptions, type PaginationSettings, type UncountedPage } from "./plugins/pagination.js";
export { permitting, type PermitOptions } from "./plugins/permitting.js";
export { normalization, type NormalizesOptions } from "./plugins/normalization.js";
export { destroyAll } from "./plugins/destroy-all.js";
export { bulkWrites, type InsertOptions, type UpdateAllAttributes, type UpsertOptions } from "./plugins/bulk-writes.js";
export { type CounterChanges, counters, type UpdateCountersOptions } from "./plugins/counters.js";
export { callbacks, type Callback } from "./plugins/callbacks.js";
export { defineValidator, validations, type CommonCheckOptions, type Validator, type ValidatorContext } from "./plugins/validations.js";
export type { AllowNilOrBlank, ValidationOptions, ValidatorOption, ValidatorOptions } from "./plugins/validation-options.js";
export { uuidV7 } from "./plugins/uuid-v7.js";
export { optimisticLocking, StaleObject } from "./plugins/optimistic-locking.js";
export { currentTenant, multiTenancy, NoTenant, TenantMismatch, withTenant } from "./plugins/multi-tenancy.js";
export { softDelete } from "./plugins/soft-delete.js";
export { auditLog } from "./plugins/audit-log.js";
export { type InheritanceOptions, singleTableInheritance, SubclassNotFound } from "./plugins/single-table-inheritance.js";
export { DecryptionError, encrypts, EncryptionError, type EncryptedAttributeOptions, type EncryptsOptions, type TextAttributeName, type WorkerSecrets } from "./plugins/encrypts.js";
export { associations, type JsonInclude } from "./plugins/associations/plugin.js";
export { counterCaches } from "./plugins/associations/counter-caches-plugin.js";
export { associationCounts, type CountableName, type CountedName, type CountOperator, type CountScopesOf, type WithCounts } from "./plugins/associations/association-counts-plugin.js";
export { AssociationNotLoaded } from "./plugins/associations/association-not-loaded.js";
export { type AssociationReflection, reflectOnAssociation } from "./plugins/associations/reflection.js";
export {
  belongsTo,
  hasMany,
  hasOne,
  type AssociationRelation,
  type TargetKey,
  type BelongsTo,
  type HasMany,
  type HasManyThrough,
  type HasManyThroughOptions,
  type HasOne,
  type PolymorphicBelongsTo,
  type HasOneThrough,
  type SourceTypeOptions,
  type ThroughOptions,
  type ThroughScope,
  type ThroughRelation,
} from "./plugins/associations/declare.js";
export type { PolymorphicBelongsToOptions } from "./plugins/associations/polymorphic.js";
export { UnknownPolymorphicType } from "./plugins/associations/polymorphic-type.js";
export type { BelongsToOptions, Dependent, HasManyDependent, HasManyOptions, HasOneDependent, HasOneOptions } from "./plugins/associations/definition.js";
