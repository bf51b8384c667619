/**
 * The plugin API: everything a built-in plugin needs, so that a user's plugin can do the same. The package's
 * `recordflare/plugin` entry (src/plugin.ts) exports it; the main entry (src/index.ts) picks what apps use from it.
 */
export { Abort, abort } from "./abort.js";
export type { Attribute, AttributeDeclaration, AttributeDeclarations, AttributeOptions, AttributeOverride, AttributeOverrides, AttributesOf } from "./attributes.js";
export {
  castAs,
  type AttributeInputMap,
  type AttributeJsonMap,
  type AttributeTypeDefinition,
  type AttributeTypeMap,
  type AttributeTypeName,
  type BuiltInAttributeTypeName,
} from "./attribute-types.js";
export { defineAttributeType } from "./define-attribute-type.js";
export { Base } from "./base.js";
export type { Batchable } from "./batchable.js";
export type { QueryPurpose, RelationData, SelectParts, OrderTerm } from "./compiler.js";
export { ParamWriter } from "./param-writer.js";
export { injectedName, reservedName } from "./reserved-names.js";
export { assertValueWithinD1Limit, MAX_VALUE_BYTES, utf8Length } from "./bound-json.js";
export { between, Comparison, gt, gte, ignoringCase, lt, lte, type Condition } from "./conditions.js";
export { currentDatabase, databaseForBatch, withDatabase, workerEnv } from "./context.js";
export type { D1DatabaseLike, D1PreparedStatementLike } from "./d1.js";
export { assertBatchItems, connect, Database, type BatchItem, type BatchItemResult, type BatchResults, type ConnectOptions, type DatabaseHooks } from "./database.js";
export { defineApplicationRecord, type ApplicationRecordFunction, type AppModel, type Schema } from "./application-record.js";
export { Errors, humanize, type ErrorEntry } from "./errors-collection.js";
export * from "./errors.js";
export { RecordInvalid } from "./record-invalid.js";
export type {
  DestroyRead,
  InspectEntry,
  RecordsLoadContext,
  RecordsLoadPurpose,
  RelationPrepareContext,
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
} from "./hooks.js";
export { declareModelState, modelState } from "./declaration.js";
export { definePlugin, defineModelState, type HookRegistration, type MethodWrapper, type MethodWrappers, type ModelStateKey, type Plugin, type PluginMethod } from "./plugin.js";
export type { QueryEvent } from "./query-event.js";
export { explainStatement, type QueryPlanStep } from "./query-plan.js";
export type { QueryBudgets } from "./query-budget.js";
export { differencesBesidesConditions } from "./relation-compatibility.js";
export { primaryKeyOrder, Relation, type OrderDirection, type ReadPlan } from "./relation.js";
export { withSource, type LoadPurpose, type PlannedRead, type QuerySource, type RelationPlanContext } from "./read-plan.js";
export { runLoadStage } from "./load-stage.js";
export { prepareRelation } from "./relation-prepare.js";
export { includePaths, type IncludeSpec } from "./include-paths.js";
export { column, sql, SqlFragment, ColumnReference } from "./sql.js";
export { defineStatement, defineStatementOfParts, Statement, type SqlQuery, type StatementDefinition, type StatementOfPartsDefinition } from "./statement.js";
export { WriteConflict, type ConflictingStatement } from "./write-conflict.js";
export { installChangesGuard } from "./changes-guard.js";
export type { BatchChangesGuard } from "./changes-check.js";
export type * from "./types.js";
export { attributesOf, databaseOfModel, databaseOfRecord, databaseOfRelation, isAttributeLoaded, primaryKeyOf, readAsCondition } from "./introspection.js";
export { defineRelationMethod, pluginRelationOf, relationOf } from "./model-relations.js";
export { underscore, camelize, quoteIdentifier } from "./naming.js";
export { attributeNamed, castValue } from "./assign.js";
export { attributeWas, changeTrackingMethods, isAttributeChanged } from "./change-tracking.js";
export { isPlainObject } from "./plain-object.js";
export { argumentError, type CastTarget, optionsArgument, refusedValueError, refuseUnfitValue, refuseUninspectable } from "./arguments.js";
export { previewList, previewText, previewValue } from "./display.js";
export { inspectRecord } from "./inspect.js";
export { INSPECT } from "./inspect-symbol.js";
export { valuesToWrite } from "./record-write.js";
export { storedWithinD1Limit } from "./write-compiler.js";
export { anyMatch, countOf, countStatement } from "./row-count.js";
export { deleteAllStatement, deleteAllWrite, type SetTarget, setWriteStatement, updateAllStatement, updateAllWrite } from "./set-writes.js";
export { type InsertOperation, type InsertOptions, insertRowsStatement, insertRowsWrite, type UpsertOptions } from "./row-inserts.js";
export { dependentsWritePlan } from "./set-writes.js";
export type { ResolvedModel } from "./resolve.js";
export type { ParamSource, StatementDatabase, StatementModel, StatementResult, StatementReader } from "./statement.js";
export type { HookPoints } from "./hook-points.js";
export { compileConditions, compileSelect, isSqlCount, joinSelect, joinWithAnd, queryOfParts, selectParts } from "./compiler.js";
