/**
 * The contract between the kernel and its plugins, types only: a Model as the kernel resolves it, and the catalogue
 * of its hook points with their contexts. It sits below every part of the kernel that runs hooks (it imports the
 * statements it names and the query's description, never a module that runs them), so that no import runs upward.
 */
import type { Attribute } from "../records/attributes.js";
import type { Batchable } from "../database/batchable.js";
import type { Condition } from "../sql/conditions.js";
import type { BatchItem } from "../database/database.js";
import type { HookPoints } from "./hook-points.js";
import type { QueryPurpose, RelationData, SelectParts } from "../relations/relation-data.js";
import type { LoadPurpose, RelationPlanContext } from "../relations/read-plan.js";
import type { SqlFragment } from "../sql/sql.js";
import type { Statement, StatementModel } from "../sql/statement.js";

/** What the kernel needs of a Model at run time, worked out once at its first use. */
export interface ResolvedModel extends StatementModel {
  readonly quotedTable: string;
  readonly primaryKey: Attribute;
  readonly attributes: readonly Attribute[];
  readonly byName: ReadonlyMap<string, Attribute>;
  /** What a SELECT lists: `*`, or the columns when some are ignored. */
  readonly selectList: string;
  /** The attributes `toJSON` leaves out, as `hiddenAttributes` said at first use. */
  readonly hiddenAttributes: ReadonlySet<string>;
  /** Every registered hook while `model:finalize` runs; then only those that apply to the Model. */
  hooks: HookPoints<ModelHooks>;
}

/** What a save is doing. */
export type SaveOperation = "create" | "update";

/** Context of the save hooks. `record` is the record being saved. */
export interface SaveContext<R = any> {
  readonly record: R;
  readonly operation: SaveOperation;
  /**
   * Further writes to make in the same atomic batch, after the record's own (for example children built
   * through an association). A before-save hook may push to it.
   */
  readonly batch: BatchItem[];
  /**
   * Further writes to make in the same atomic batch, before the record's own (for example a new parent
   * assigned through `belongsTo`, whose row the record's foreign key must find). A before-save hook may push to it.
   */
  readonly batchBefore: BatchItem[];
  /**
   * Record writes made after this save, in a batch of their own, by the hook that pushed them (children waiting for
   * a key the database assigns to the record). Their validations and before-callbacks run with this save's, before
   * anything is written: a refused one refuses this save. A before-save hook may push to it.
   */
  readonly later: Batchable[];
}

/** Context of the `record:assign` hook: the values given to a record, and what assigns them. */
export interface RecordAssignContext<R = any> {
  readonly record: R;
  /** The object given, as the caller gave it. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The method called, as errors name it (`build`, `assign`, `update`, ...). */
  readonly method: string;
  /** The names the kernel assigns as attributes: every name given, less those a hook took out. */
  names: string[];
  /** What assigns the names hooks took out, run in order once the attributes are set. */
  readonly after: Array<() => void>;
}

/** Context of the destroy hooks. */
export interface DestroyContext<R = any> {
  readonly record: R;
  /**
   * Further writes to make in the same atomic batch, before the record's DELETE (dependents): records'
   * `toDestroy()` / `toSave()`, or Statements such as a `toDeleteAll()`.
   */
  readonly batch: BatchItem[];
}

/**
 * Context of the hook that runs while an INSERT or UPDATE is built (for saves and for bulk inserts):
 * `values` shows what will be written; a hook assigns attributes on the record to write more.
 */
export interface WriteContext<R = any> {
  readonly record: R;
  readonly operation: SaveOperation;
  /** Attribute name to JavaScript value, as it stands before this hook. */
  readonly values: ReadonlyMap<string, unknown>;
}

/** The statement a write becomes: an INSERT, an UPDATE, a DELETE, or an INSERT that updates on conflict. */
export type WriteKind = "insert" | "update" | "delete" | "upsert";

/**
 * What was asked: a record's save (`"create"`, `"update"`) or `"destroy"`; a bulk write (`"insert"`, `"insertAll"`,
 * `"upsert"`, `"upsertAll"`, `"updateAll"`, `"deleteAll"`); or a set-based write of dependents (`"nullify"`,
 * `"deleteDependents"`) made by a destroy.
 */
export type WriteOperation = SaveOperation | "destroy" | "insert" | "insertAll" | "upsert" | "upsertAll" | "updateAll" | "deleteAll" | "nullify" | "deleteDependents";

/** What an after-statement's builder gets: the rows the write wrote, as SQL it may embed. */
export interface WrittenRows {
  /**
   * A SELECT of the keys of the rows written, one column named `key`: the keys bound when known before sending (a
   * record's, or generated ones), else read from the database (`last_insert_rowid()`, the rows the write targets).
   * Embed it as `... FROM (${written.keys})`.
   */
  readonly keys: SqlFragment;
}

/** Builds a statement a plugin adds to a write (an `sql` fragment), sent in the write's batch. */
export type WriteExtra = (written: WrittenRows) => SqlFragment;

/**
 * Every write, before it becomes SQL: the context of `write:prepare` (async) and `write:plan` (sync). One compiler
 * then makes it its statements, with the statements hooks added before and after it in the same atomic batch.
 */
export interface WritePlan<R = any> {
  /** The Model written: its `name`, `quotedTable`, attributes with their columns (`byName`). */
  readonly model: ResolvedModel;
  readonly operation: WriteOperation;
  /**
   * The method the app called, as error messages name it, where `operation` does not tell it: the counters' UPDATE
   * (`Post.updateCounters`, `Post.toUpdateCounters`, `Post#incrementAndSave`, `Post#decrementAndSave`, each an
   * `updateAll`), the set-based writes of an association's `remove`, `set` and `setIds` (`Post.comments.remove`,
   * planned as a destroy's `nullify` or `deleteDependents` are), those of a destroy's dependents, by the destroy of the record they depend on
   * (`Post#destroy`), and of the `hasOne` child a save replaces (`Post#save`); undefined for the others.
   */
  readonly method: string | undefined;
  /**
   * The statement. A hook may turn a destroy's `"delete"` into an `"update"` of `values` (soft delete: the record
   * still ends destroyed); no other change of kind is allowed.
   */
  kind: WriteKind;
  /** The record of a save or destroy; undefined for the writes without records. */
  readonly record: R | undefined;
  /**
   * Attribute name to value: what a record's INSERT writes or its UPDATE sets, or what `updateAll` (or a nullify)
   * sets on every row; empty otherwise. `write:prepare` may replace a value (what is written, not the record's).
   * A value of `updateAll` may be an `SqlFragment` the database computes (`updateCounters` writes them), not cast;
   * so may one of a record's INSERT, which the record then reads from the row the INSERT returns (never of its
   * UPDATE, which returns none).
   */
  readonly values: Map<string, unknown>;
  /** The rows of a bulk insert or upsert, each attribute name to value; empty for the other writes. */
  readonly rows: readonly Map<string, unknown>[];
  /**
   * Conditions every row the write changes must meet, as `sql` fragments: ANDed to a record's key, to the WHERE of
   * `updateAll`/`deleteAll` and dependents' writes, made the WHERE of an upsert's `DO UPDATE`. Refused on an insert.
   */
  readonly where: SqlFragment[];
  /** The attributes of the unique key an upsert's conflict is decided on; undefined for the other kinds. */
  readonly conflictTarget: readonly string[] | undefined;
  /**
   * The number of rows the write must change (1 for a record's checked write), or undefined for any. A different
   * count throws `WriteConflict` (which `write:outcome` may replace); inside a batch it fails the whole batch first.
   * A bulk insert sent as several statements (over D1's limit for one value) cannot check it and throws `TypeError`.
   */
  expectedChanges: number | undefined;
  /**
   * Whether the `write:prepare` stage ran: false on the sync `to...` forms (`toInsert`, `toUpdateAll`, ...), which
   * cannot await it. A plugin that must prepare every write throws from `write:plan` when it is false.
   */
  readonly prepared: boolean;
  /** Adds a statement sent in the same batch, just before the write. */
  before(build: () => SqlFragment): void;
  /**
   * Adds a statement sent in the same batch, that reads the rows written through `written.keys`. The kernel places it
   * where `keys` is sound: directly after the write's own statement (so `last_insert_rowid()` is the write's), or,
   * for writes that target rows by a WHERE (`updateAll`, `deleteAll`, dependents), directly before it, where the
   * WHERE still selects the rows the write is about to change.
   */
  after(build: WriteExtra): void;
}

/**
 * Context of `write:outcome`: how a write ended. A write sent as several statements (a bulk insert over D1's limit
 * for one value) reports once, with their counts added up.
 */
export interface WriteOutcome<R = any> {
  readonly plan: Readonly<WritePlan<R>>;
  /**
   * The Statement it became; undefined for a record's write that failed before it became one (a `write:prepare` or
   * `write:plan` hook, or a plan refused, of it or of another write of its save, destroy or batch): `plan` is then
   * the plan the kernel made of it, without what hooks changed in it, and the write did not happen.
   */
  readonly statement: Statement | undefined;
  /** The rows it changed (D1's `meta.changes`), when known; undefined when it or its batch failed. */
  readonly changes: number | undefined;
  /** The rows its `RETURNING` brought back (a record's INSERT: the row as stored, with the key assigned); else empty. */
  readonly rows: readonly Record<string, unknown>[];
  /**
   * The error the write failed with, or undefined: the database's error (for this write, or for another statement
   * of its batch, which D1 rolled back with it), or a `WriteConflict`.
   */
  readonly error: unknown;
  /** Whether this write changed other than `expectedChanges` rows (`error` is then its `WriteConflict`). */
  readonly conflict: boolean;
}

/**
 * What the rows are loaded for: `load` (a Relation's records, `find`, the finders, a page, a batch's SELECT),
 * `reload` (`record.reload()`), `preload` (an association's records read for `includes`), `write` (the row an
 * INSERT returned for a created record) or `pluck` (values without records).
 */
export type RecordsLoadPurpose = "load" | "reload" | "preload" | "write" | "pluck";

/** Context of the `records:load` hook. */
export interface RecordsLoadContext<R = any> {
  /**
   * The Model loaded: its `name`, attributes with their columns (`byName`, `byColumn`); the class of `records`, which
   * may be a subclass of the one queried (single-table inheritance: the stage runs once per class).
   */
  readonly model: ResolvedModel;
  /** The records made from `rows` (`records[i]` from `rows[i]`); none for `pluck`. */
  readonly records: readonly R[];
  /**
   * The rows D1 returned, column name to stored value, holding only the columns loaded (a `select`, a `pluck`). A
   * hook may replace a stored value here: the record reads its attributes from its row, through the attribute's
   * type, on first read, and compares its changes with it.
   */
  readonly rows: ReadonlyArray<Record<string, unknown>>;
  readonly purpose: RecordsLoadPurpose;
}

/**
 * Context of `relation:prepare`: a Relation a method is about to compile (and send). A hook may replace
 * `conditions` (or `extensions`) with a new one (an `encrypts` plugin encrypts the values compared with its attributes), after
 * awaiting what it must (WebCrypto); the method then compiles the Relation with those conditions.
 */
export interface RelationPrepareContext {
  /** The Model queried: its `name`, attributes with their columns (`byName`). */
  readonly model: ResolvedModel;
  /** What the Relation is compiled for: a load, a count, an existence check, a `pluck`, `updateAll` or `deleteAll`. */
  readonly purpose: QueryPurpose;
  /** The Relation prepared (a `Relation` of `model`), to read what else it holds (`extension(name)`). */
  readonly relation: any;
  /**
   * Its conditions (values cast, in their stored form), as the hooks before this one left them; a hook replaces the
   * list, never changes it in place. What a hook sets is checked as `Relation.with` checks a plugin's changes.
   */
  conditions: readonly Condition[];
  /**
   * Its plugins' entries (see `RelationData.extensions`), as the hooks before this one left them; a hook replaces the
   * object, never changes it in place (default scopes move the conditions they hold into `conditions` here, so that
   * the hooks after them prepare those too).
   */
  extensions: RelationData["extensions"];
}

/**
 * Context of `relation:preparePlan`: a Relation whose records are about to be loaded with `includes`, after
 * `relation:prepare`. A hook prepares what its `relation:plan` hook will compile (an association's preloads: their
 * Relations through `prepareRelation`), awaiting what it must, and may set `relation` to one made from it
 * (`withExtension`) that carries what it prepared: that one is planned and loaded.
 */
export interface RelationPreparePlanContext<Q = any> {
  /** What the records are loaded for. */
  readonly purpose: LoadPurpose;
  /** The Relation to plan; a hook may replace it with one made from it, of the same Model. */
  relation: Q;
}

/** A read a `record:planDestroy` hook adds to a destroy's read batch, and what receives its result. */
export interface DestroyRead<Result = any> {
  readonly statement: Statement<Result>;
  /** Gets the statement's result, before the `record:beforeDelete` hooks run. Sync. */
  readonly receive: (result: Result) => void;
}

/** One line of a printed record. */
export interface InspectEntry {
  readonly attribute: Attribute;
  /** The value as printed. */
  shown: string;
  /** What follows the value: `(was <old>)`, `(changed)`, or nothing. */
  note: string;
}

/**
 * The catalogue of a Model's hook points. Each receives one context object, which it may change.
 * Hooks whose type may return a promise may be async; the others must stay synchronous. The contexts are typed for
 * the Model the hooks run for: `R` its records, `M` the Model class, `Q` its Relations (`Model.hook(...)` gives them;
 * a plugin's hooks, which serve every Model of a base class, get `any`).
 */
export interface ModelHooks<R = any, M = any, Q = any> {
  /**
   * A Model sets no table: a hook may infer one from `className` (the name of the class just below the
   * declaration class) by setting `tableName`; the last hook to set it wins. Runs whenever the table is inferred,
   * before the Model's first use too (reading `tableName`), so it must not depend on anything but the name. Sync.
   */
  "model:tableName": (context: { readonly className: string; tableName: string | undefined }) => void;
  /** Once, at the Model's first use, after its declaration checks pass. Sync. */
  "model:finalize": (model: M) => void;
  /** A new record got its defaults at `build()`, before the caller's attributes are assigned. Sync. */
  "record:initialize": (context: { readonly record: R }) => void;
  /**
   * An object of values is about to be assigned to a record (`build`, `create`, `assign`, `update`, ...), before any
   * is checked or set. A hook takes out of `names` those it assigns itself (a field that is no attribute, such as a
   * `belongsTo`), checking them now (throw to refuse: nothing is set), and pushes to `after` what assigns them, run
   * once the kernel set the attributes left in `names` (a name no attribute has is `UnknownAttribute`). Sync.
   */
  "record:assign": (context: RecordAssignContext<R>) => void;
  /**
   * A value given for an attribute (assigned, permitted, set by `updateAll`) is about to be cast; never undefined or
   * null. A hook may replace `value`, which is then cast. Sync.
   */
  "attribute:input": (context: { readonly model: ResolvedModel; readonly attribute: Attribute; value: unknown }) => void;
  /** A value was cast for assignment; a hook may replace `value`. Sync. */
  "attribute:assign": (context: { readonly record: R; readonly attribute: Attribute; value: unknown }) => void;
  /**
   * A value of a `where`-style condition object (`where`, `whereNot`, `findBy`, ...) is about to be cast: the value
   * itself, or each element of a list; never null or a comparison helper. A hook may replace `value`. Sync.
   */
  "attribute:condition": (context: { readonly model: ResolvedModel; readonly attribute: Attribute; value: unknown }) => void;
  /**
   * A row is about to be made into a record of `modelClass` (the Model queried, never a bound one): a hook may set
   * `modelClass` to a subclass of it, whose record the row becomes (single-table inheritance). Not run by `reload`,
   * which keeps the record's class. Sync.
   */
  "record:class": (context: { readonly row: Readonly<Record<string, unknown>>; modelClass: Function }) => void;
  /**
   * A record was made from a row (column name to stored value), or reloaded; for each record, before `records:load`
   * runs for the batch (work that may be async or that concerns the batch belongs there). Sync.
   */
  "record:hydrate": (context: { readonly record: R; readonly row: Readonly<Record<string, unknown>> }) => void;
  /**
   * The load stage: rows were loaded and the records made from them (each through `record:hydrate`), before any
   * caller receives them. Runs once per batch of rows, never with none: one call for a Relation's records (`first`,
   * `findBy`, `find`, a page, a batch's SELECT), one for each Model's records a preload read, one for a `reload`, one
   * for the row an INSERT returned (`write`), one for the values of a `pluck` (no records, the plucked columns); and,
   * when a `record:class` hook made some records a subclass's, one for each class, with that class's hooks.
   * A hook may replace the rows' stored values (a decryption), which the records read on first use. May be async.
   */
  "records:load": (context: RecordsLoadContext) => void | Promise<void>;
  /** Before save, before `record:validate`: may change the record, or `throw abort(reason)`. May be async. */
  "record:beforeValidate": (context: SaveContext<R>) => void | Promise<void>;
  /** Before save: add to `record.errors` to refuse it. May be async. */
  "record:validate": (context: SaveContext<R>) => void | Promise<void>;
  /**
   * After `record:validate`, whether or not it added errors (the save is refused after this hook when any were
   * added). May add errors, or `throw abort(reason)`. May be async.
   */
  "record:afterValidate": (context: SaveContext<R>) => void | Promise<void>;
  /** After validation passed, before the write. `throw abort(reason)` stops the save. May be async. */
  "record:beforeSave": (context: SaveContext<R>) => void | Promise<void>;
  /**
   * After every `record:beforeSave` hook, just before the INSERT or UPDATE is built: where other records join the
   * save's batch, so that those a callback built or assigned are written too. May abort, and may push writes to
   * `batch` and `batchBefore`. May be async.
   */
  "record:beforeWrite": (context: SaveContext<R>) => void | Promise<void>;
  /** The INSERT or UPDATE is being built, after the before-save hooks; also for each row of a bulk insert. Sync. */
  "record:write": (context: WriteContext<R>) => void;
  /**
   * Every write reached through an async method (`save`, `destroy`, `insert`, `insertAll`, `upsert`, `upsertAll`,
   * `updateAll`, `deleteAll`, dependents' set-based writes), before `write:plan`: a hook may replace values written
   * (`plan.values`, the maps of `plan.rows`), awaiting what it must (WebCrypto). Never runs on the sync `to...` forms,
   * whose plan says `prepared: false`. May be async.
   */
  "write:prepare": (plan: WritePlan<R>) => void | Promise<void>;
  /**
   * Every write, before it becomes SQL: a record's own INSERT, UPDATE or DELETE (after `record:write` or
   * `record:beforeDelete`), bulk inserts and upserts, `updateAll`, `deleteAll`, dependents' set-based writes, and
   * their `to...` Statements. A hook may narrow it (`where`, `expectedChanges`), turn a destroy's DELETE into an
   * UPDATE, add statements (`before`, `after`) sent in the same batch, or throw to refuse it. Sync.
   */
  "write:plan": (plan: WritePlan<R>) => void;
  /**
   * A write ran (`changes`, `rows`), or it or its batch failed (`error`): a hook may throw its own error instead,
   * which then propagates in place of `error` (or, after a success, as an after-hook's error would). For a record,
   * runs before its state is updated and before the after-hooks. Sync.
   */
  "write:outcome": (outcome: WriteOutcome<R>) => void;
  /** After the row is written and the record is clean. May be async. */
  "record:afterSave": (context: SaveContext<R>) => void | Promise<void>;
  /** Before the DELETE. `throw abort(reason)` stops the destroy. May be async. */
  "record:beforeDestroy": (context: DestroyContext<R>) => void | Promise<void>;
  /**
   * After every `record:beforeDestroy` hook, before `record:beforeDelete`: a hook pushes reads it needs for the
   * destroy (dependents, checks), each `{ statement, receive }`. The reads of every hook go in ONE batch (one round
   * trip), and each `receive(result)` runs before `record:beforeDelete`. Sync.
   */
  "record:planDestroy": (context: { readonly record: R; readonly reads: DestroyRead[] }) => void;
  /**
   * After every before-destroy hook, just before the DELETE: where dependents are handled, so that a callback's
   * abort always protects them. May abort, and may push writes to `batch`. May be async.
   */
  "record:beforeDelete": (context: DestroyContext<R>) => void | Promise<void>;
  /** After the DELETE. May be async. */
  "record:afterDestroy": (context: DestroyContext<R>) => void | Promise<void>;
  /** `toJSON()` built `json`; a hook may change it. Sync. */
  "record:serialize": (context: { readonly record: R; readonly json: Record<string, unknown> }) => void;
  /** A record is being printed; a hook may change the entries. Sync. */
  "record:inspect": (context: { readonly record: R; readonly entries: InspectEntry[] }) => void;
  /**
   * A Relation of every record of the Model was made (`all()`, and so every static query, an association's reads and
   * preloads): the start of a query. A hook may put another Relation in its place, made from it (`withExtension`,
   * `where`): a default scope is evaluated here, once per query. Not run for a Relation made from another (`where`,
   * `with`, ...), nor for `reload`'s lookup by key. Sync.
   */
  "relation:start": (context: { relation: Q }) => void;
  /**
   * The stage before a Relation is compiled, run once per statement by every path that compiles one: its loads
   * (`toArray`, `first`, `findBy`, `find`, a page, `explain`, an association's reads), `reload`'s lookup by key, each
   * Relation a preload reads (an association's target with its scope), `count`, `exists`, `pluck`, `updateAll`,
   * `deleteAll` and `resetCounters`, before `relation:plan` and the compile hooks; and the sync forms (`toSql()`,
   * `toSelect()`, `toUpdateAll()`, `toDeleteAll()`, printing, a counter cache's statement), which refuse with
   * `TypeError` a hook that returns a promise (`prepareRelationNow`). A hook may replace the Relation's `conditions`
   * (values it rewrote, a default scope's) and `extensions`; run again on a Relation it gave, it leaves what it
   * rewrote as it is. May be async.
   */
  "relation:prepare": (context: RelationPrepareContext) => void | Promise<void>;
  /**
   * After `relation:prepare`, for a Relation whose records are about to be loaded with `includes` (its loads,
   * `find`, a page): a hook prepares what its `relation:plan` hook will compile (associations prepare each
   * preload's Relation, so that `relation:prepare` runs for it too), and may set `relation` to one made from it that
   * carries what it prepared. Never runs for a Relation without `includes`. May be async.
   */
  "relation:preparePlan": (context: RelationPreparePlanContext<Q>) => void | Promise<void>;
  /**
   * A Relation is about to load its records: a hook may add reads to the same D1 batch (`reads`), each selecting
   * by a subquery of `source`, and deletes from `pending` the `includes` paths it planned; a read's `receive` may
   * ask for more reads, sent together in one more round trip. Sync.
   */
  "relation:plan": (context: RelationPlanContext<Q>) => void;
  /**
   * Records of a Relation with `includes(...)` were loaded; a hook preloads the paths `relation:plan` left pending
   * that it knows, after the batch, and removes them from `pending`. Paths left pending are unknown. May be async.
   */
  "relation:preload": (context: { readonly relation: Q; readonly records: readonly R[]; readonly pending: Set<string> }) => void | Promise<void>;
  /** A Relation's selected columns were compiled (`parts.columns`, `parts.distinct`). Sync. */
  "relation:select": (context: RelationCompileContext) => void;
  /** Its conditions were compiled (`parts.where`, joined with AND; bind values with `parts.params`). Sync. */
  "relation:where": (context: RelationCompileContext) => void;
  /** Its ordering was compiled (`parts.order`). Sync. */
  "relation:order": (context: RelationCompileContext) => void;
  /** Its paging was set (`parts.limit`, `parts.offset`). Sync. */
  "relation:paging": (context: RelationCompileContext) => void;
}

/**
 * Context of the relation compilation hooks: the Relation's description, the SQL parts built so far, and the
 * Model they are compiled for (a hook registered on a base class serves many Models: it finds columns here).
 */
export interface RelationCompileContext {
  /** The Relation's description, frozen (`conditions`, `order`, ..., and the plugins' `extensions`). */
  readonly data: RelationData;
  /** The SQL built so far; hooks change it. */
  readonly parts: SelectParts;
  /** The Model compiled for: its `name`, `quotedTable`, and attributes with their columns (`byName`). */
  readonly model: ResolvedModel;
  /** What the SELECT is for: a load, a reload, a count, an existence check, a preload, ... (see `QueryPurpose`). */
  readonly purpose: QueryPurpose;
}

/** Name of a Model hook point. */
export type ModelHookName = keyof ModelHooks;
