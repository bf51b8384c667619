/**
 * The plugin API: everything a built-in plugin needs, so that a user's plugin can do the same. The package's
 * `recordflare/plugin` entry (src/plugin.ts) exports it; the main entry (src/index.ts) picks what apps use from it.
 */
export { Abort, abort } from "./persistence/abort.js";
export type { Attribute, AttributeDeclaration, AttributeDeclarations, AttributeOptions, AttributeOverride, AttributeOverrides, AttributesOf } from "./records/attributes.js";
export {
  castAs,
  type AttributeInputMap,
  type AttributeJsonMap,
  type AttributeTypeDefinition,
  type AttributeTypeMap,
  type AttributeTypeName,
  type BuiltInAttributeTypeName,
} from "./records/attribute-types.js";
export { defineAttributeType } from "./records/define-attribute-type.js";
export type { PluginTypeValue } from "./records/attribute-values.js";
export { Base } from "./base.js";
export type { Batchable } from "./database/batchable.js";
export type { ComputedColumn, QueryPurpose, RelationData, SelectParts, OrderTerm } from "./sql/compiler.js";
export { ParamWriter } from "./sql/param-writer.js";
export { injectedName, isReservedName, reservedName } from "./sql/reserved-names.js";
export { blobAwareJson, blobJson, comparableStored, isBlob } from "./sql/blob-values.js";
export { assertValueWithinD1Limit, jsonArraysWithinD1Limit, jsonOfBound, MAX_VALUE_BYTES, utf8Length } from "./sql/bound-json.js";
export { between, Comparison, gt, gte, ignoringCase, lt, lte, type Condition } from "./sql/conditions.js";
export { currentDatabase, databaseForBatch, withDatabase, workerEnv } from "./database/context.js";
export type { D1DatabaseLike, D1PreparedStatementLike } from "./database/d1.js";
export { assertBatchItems, checkedBinding, connect, Database, type BatchItem, type BatchItemResult, type BatchResults, type ConnectOptions, type DatabaseHooks } from "./database/database.js";
export type { RetryOptions } from "./database/retries.js";
export { defineApplicationRecord, type ApplicationRecordFunction, type AppModel, type Schema } from "./application-record.js";
export { Errors, humanize, type ErrorEntry } from "./records/errors-collection.js";
export * from "./errors.js";
export { RecordInvalid } from "./persistence/record-invalid.js";
export type {
  DestroyRead,
  InspectEntry,
  RecordAssignContext,
  RecordsLoadContext,
  RecordsLoadPurpose,
  RelationPrepareContext,
  RelationPreparePlanContext,
  ModelHookName,
  ModelHooks,
  RelationCompileContext,
  SaveContext,
  DestroyContext,
  SaveOperation,
  WriteContext,
  WriteExtra,
  WriteKind,
  WriteOperation,
  WriteOutcome,
  WritePlan,
  WrittenRows,
} from "./plugin-api/hooks.js";
export { declareModelState, modelState } from "./records/declaration.js";
export { definePlugin, defineModelState, type HookRegistration, type MethodWrapper, type MethodWrappers, type ModelStateKey, type Plugin, type PluginMethod } from "./plugin-api/plugin.js";
export type { QueryEvent } from "./sql/query-event.js";
export { explainStatement, type QueryPlanStep } from "./database/query-plan.js";
export type { QueryBudgets } from "./database/query-budget.js";
export { differencesBesidesConditions } from "./relations/relation-compatibility.js";
export { primaryKeyOrder, Relation, type OrderDirection, type ReadPlan } from "./relations/relation.js";
export { withSource, type LoadPurpose, type PlannedRead, type QuerySource, type RelationPlanContext } from "./relations/read-plan.js";
export { runLoadStage } from "./records/load-stage.js";
export { type Preparable, prepareLoad, prepareRelation, prepareRelationNow } from "./relations/relation-prepare.js";
export { relationSubquery } from "./relations/prepared-subqueries.js";
export { RelationSubquery } from "./relations/relation-subquery.js";
export { includePaths, type IncludeSpec, refuseDeepInclude } from "./relations/include-paths.js";
export { column, sql, SqlFragment, ColumnReference, Subquery, subquery } from "./sql/sql.js";
export { compiledStatement, defineStatement, defineStatementOfParts, Statement, type SqlQuery, type StatementDefinition, type StatementOfPartsDefinition } from "./sql/statement.js";
export { WriteConflict, type ConflictingStatement } from "./persistence/write-conflict.js";
export { installChangesGuard } from "./database/changes-guard.js";
export { installWritePlans } from "./persistence/planned-record-write.js";
export { installRelationChecks } from "./relations/relation-shape.js";
export { type BatchChangesGuard, statementsInBatch } from "./database/changes-check.js";
export type * from "./types.js";
export { attributesOf, computedValueOf, databaseOfModel, databaseOfRecord, databaseOfRelation, hasModelHook, isAttributeLoaded, primaryKeyOf, readAsCondition } from "./records/introspection.js";
export { writeStoredAttribute } from "./records/stored-attribute.js";
export { declareRowClasses, rowSubclassesOf } from "./records/row-classes.js";
export { markGeneratedKey } from "./records/generated-key.js";
export { defineRelationMethod, pluginRelationOf, relationOf } from "./relations/model-relations.js";
export {
  type AppliedDefaultScope,
  appliedDefaultScopes,
  applyDefaultScopes,
  DEFAULT_SCOPE,
  declareDefaultScope,
  type DefaultScopeDeclaration,
  defaultScopesOf,
  withoutDefaultScope,
} from "./relations/default-scope.js";
export { underscore, camelize, quoteIdentifier } from "./sql/naming.js";
export { attributeNamed, castValue } from "./records/assign.js";
export { attributeWas, changeTrackingMethods, isAttributeChanged } from "./records/change-tracking.js";
export { isPlainObject } from "./records/plain-object.js";
export { argumentError, type CastTarget, countArgument, optionsArgument, refuseExtraArguments, refusedValueError, refuseNonKeys, refuseUnfitValue, refuseUninspectable } from "./records/arguments.js";
export { previewList, previewText, previewValue } from "./records/display.js";
export { inspectRecord } from "./records/inspect.js";
export { INSPECT } from "./records/inspect-symbol.js";
export { valuesToWrite } from "./persistence/record-write.js";
export type { SaveOptions } from "./persistence/record-save.js";
export { storedWithinD1Limit } from "./persistence/write-compiler.js";
export { anyMatch, countOf, countStatement } from "./database/row-count.js";
export { deleteAllStatement, deleteAllWrite, relationTarget, type SetTarget, setWriteStatement, updateAllStatement, updateAllWrite } from "./persistence/set-writes.js";
export { type InsertOperation, type InsertOptions, insertRowsStatement, insertRowsWrite, type UpsertOptions } from "./persistence/row-inserts.js";
export { dependentsWritePlan } from "./persistence/set-writes.js";
export { fragmentOf } from "./persistence/write-plan.js";
export type { ResolvedModel } from "./records/resolve.js";
export type { ParamSource, StatementDatabase, StatementModel, StatementResult, StatementReader } from "./sql/statement.js";
export type { HookPoints } from "./plugin-api/hook-points.js";
export { compileConditions, compileSelect, isSqlCount, joinSelect, joinWithAnd, queryOfParts, selectParts } from "./sql/compiler.js";
