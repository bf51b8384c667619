import { assertAttributeObject, attributeNamed, writeAttributes } from "../records/assign.js";
import type { Attribute } from "../records/attributes.js";
import { UNCASTABLE } from "../records/attribute-types.js";
import { type OrderTerm, type RelationData, compileSelect, joinSelect, selectParts } from "../sql/compiler.js";
import { EMPTY_RELATION } from "./relation-data.js";
import type { ParamWriter } from "../sql/param-writer.js";
import type { LoadPurpose, PlannedRead, QuerySource } from "./read-plan.js";
import { Comparison, type Condition, castConditionValue, conditionScalars, conditionsFor } from "../sql/conditions.js";
import { argumentError, countArgument, refuseExtraArguments, refusedValueError, refuseUnfitValue, refuseUninspectable } from "../records/arguments.js";
import { isPlainObject } from "../records/plain-object.js";
import { frozenDescription } from "./relation-description.js";
import { checkedWith } from "./with-checks.js";
import { loadedAttributes } from "./relation-compatibility.js";
import { databaseFor } from "../database/context.js";
import { boundDatabase, type Database, unboundModel } from "../database/database.js";
import { CastError, RecordNotFound } from "../errors.js";
import { instantiate, loadOne } from "../records/hydrate.js";
import { runLoadStage } from "../records/load-stage.js";
import { type RecordState, STATE } from "../records/record-state.js";
import { prepareLoad, prepareRelationNow } from "./relation-prepare.js";
import { type ResolvedModel, resolveModel } from "../records/resolve.js";
import { SqlFragment } from "../sql/sql.js";
import { Statement, type SqlQuery, type StatementDatabase, type StatementReader } from "../sql/statement.js";
import { findByKeyStatement, keyLookup } from "./key-lookup.js";
import { printQuery } from "../sql/query-event.js";
import { INSPECT } from "../records/inspect-symbol.js";
import { previewList, previewText, previewValue, shortText } from "../records/display.js";
import type { AttributeName } from "../records/attribute-values.js";
import type { AttributesOfRecord, Conditions, Ordering, RecordAssignment, RecordConditions } from "./query-typing.js";



const CONDITIONS = "a plain object of attribute values or an sql fragment";
const ORDERING = "an object of attribute directions or an sql fragment";

/** What `relation:plan` made of a Relation: reads for the batch of its SELECT, and the `includes` paths left. */
export interface ReadPlan {
  readonly reads: readonly PlannedRead[];
  readonly pending: ReadonlySet<string>;
  /**
   * The planned Relation's limit: its reads receive at most that many of the loaded records, the first ones (a
   * caller may load more in the same order, as `paginate` loads one row more to tell whether a next page exists).
   */
  readonly limit?: number | undefined;
}

/** What `create` calls on the record it built (every record has these; `R` is only the record's type). */
type SavingRecord = { save(): Promise<boolean>; saveOrThrow(): Promise<true> };

const NOTHING_PLANNED: ReadPlan = { reads: [], pending: new Set() };

export type { OrderDirection } from "./query-typing.js";

/** Gives each read its result; returns the reads they ask for next, all together. */
function receiveAll(reads: readonly PlannedRead[], results: readonly unknown[], records: readonly any[]): PlannedRead[] {
  const next: PlannedRead[] = [];
  const readNext = (more: readonly PlannedRead[]) => void next.push(...more);
  reads.forEach((read, index) => read.receive(results[index], records, readNext));
  return next;
}

/** The order `first` reads by when a Relation has none (and `last` reverses): the primary key, ascending. */
export function primaryKeyOrder(model: ResolvedModel): OrderTerm[] {
  return [{ kind: "attribute", attribute: model.primaryKey, direction: "asc" }];
}

/** A `where` value after the `attribute:condition` hooks: the value itself, or each element of a list. */
function hookedConditionValue(model: ResolvedModel, attribute: Attribute, value: unknown): unknown {
  if (!model.hooks.has("attribute:condition") || value === null || value instanceof Comparison) return value;
  const hooked = (one: unknown) => {
    if (one === null) return one;
    const context = { model, attribute, value: one };
    model.hooks.callSync("attribute:condition", context);
    return context.value;
  };
  return Array.isArray(value) ? value.map(hooked) : hooked(value);
}

/**
 * An immutable query for one Model. Each narrowing, ordering or paging method returns a new Relation;
 * nothing is sent until results are asked for (`toArray`, `first`, `count`, ...). Relations have no `then`.
 */
export class Relation<R = any> {
  // Its public fields are declared only: the constructor sets them, in this order.
  /** @internal The Model class, or a view of it bound to a database. */
  declare readonly modelClass: Function;
  // Private, so that spreading or listing a Relation's keys never shows the values of its conditions.
  readonly #data: RelationData;
  /** The resolved Model (for plugins). */
  declare readonly model: ResolvedModel;

  /** @internal Use the Model's statics (`User.where(...)`, `User.all()`). */
  constructor(modelClass: Function, data: RelationData = EMPTY_RELATION) {
    this.modelClass = modelClass;
    this.#data = data;
    this.model = resolveModel(unboundModel(modelClass));
  }

  /** @internal Its description: conditions, order, paging, includes and what plugins add. */
  get data(): RelationData {
    return this.#data;
  }

  /**
   * Its description, frozen (for plugins): `conditions`, `order`, `limit`, `offset`, `select`, `distinct`, `none`,
   * `includes` and the plugins' `extensions`. Change it with the Relation's methods or `with`, which return a new one.
   */
  get description(): RelationData {
    return frozenDescription(this.#data);
  }

  /**
   * A Relation like this one with parts of its description replaced (for plugins): each entry is checked, by the
   * checks `installRelationChecks()` installs.
   */
  with(changes: Partial<RelationData>): this {
    return this.#with(checkedWith(this.model, changes));
  }

  /** @internal The prepare stage's change (its subqueries' prepared Relations): well-formed by construction, unchecked. */
  withPrepared(changes: Partial<RelationData>): this {
    return this.#with(changes);
  }

  // The kernel's own changes are well-formed by construction: they skip the checks a plugin's changes pass.
  #with(changes: Partial<RelationData>): this {
    const Class = this.constructor as new (modelClass: Function, data: RelationData) => this;
    return new Class(this.modelClass, { ...this.data, ...changes });
  }

  /** A plugin's own entry of the description (see `RelationData.extensions`); undefined when it was never set. */
  extension(name: string | symbol): unknown {
    return this.data.extensions[name];
  }

  /** A Relation like this one with a plugin's own entry set to `value` (for plugins; see `RelationData.extensions`). */
  withExtension(name: string | symbol, value: unknown): this {
    if (typeof name !== "string" && typeof name !== "symbol") throw argumentError(`${this.model.name}: Relation.withExtension`, "a string or Symbol name", name);
    return this.#with({ extensions: { ...this.data.extensions, [name]: value } });
  }

  #conditionsOf(conditions: unknown, method: string): Condition[] {
    refuseUninspectable(`${this.model.name}.${method}`, CONDITIONS, conditions);
    if (conditions instanceof SqlFragment) return [{ kind: "sql", fragment: conditions }];
    const model = this.model;
    if (typeof conditions === "string") {
      throw new TypeError(`${model.name}.${method}: a plain string is not accepted; build the condition with sql\`...\``);
    }
    // URLSearchParams, FormData, a Map or a record has no own keys to read: it would narrow nothing.
    if (!isPlainObject(conditions)) throw argumentError(`${model.name}.${method}`, CONDITIONS, conditions);
    const compiled: Condition[] = [];
    for (const [name, value] of Object.entries(conditions)) {
      const attribute = attributeNamed(model, name);
      const where = `${model.name}.${method}: ${name}`;
      const target = { model: model.model, attribute: attribute.name };
      // Before anything looks inside: a revoked Proxy fails even Array.isArray.
      refuseUnfitValue(where, value, target);
      // A field missing from a request body reads as undefined: bad input, as an uncastable value is.
      if (value === undefined) throw new CastError(`${where} is undefined; use null to match NULL`, model.model, attribute.name, value);
      const scalars = conditionScalars(value);
      if (scalars.includes(undefined)) throw new CastError(`${where} holds undefined; use null to match NULL`, model.model, attribute.name, value);
      for (const scalar of scalars) refuseUnfitValue(where, scalar, target);
      if (value instanceof Comparison && !attribute.type.comparable) {
        throw new TypeError(`${model.name}.${method}: ${name} is a ${attribute.typeName}; comparison helpers are for comparable types (number, string, datetime)`);
      }
      compiled.push(...conditionsFor(model, attribute, hookedConditionValue(model, attribute, value)));
    }
    return compiled;
  }

  /**
   * Narrows to rows matching every key (null matches NULL, an array any element), or an `sql` fragment. `method`
   * is the method errors name (for plugins whose own methods take conditions, as `exists` does).
   */
  where(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment, method?: string): this;
  /**
   * Narrows by attributes and by the record fields a plugin lets conditions take (see `ConditionField`; a
   * `belongsTo` field takes a record of its target, `where({ author: user })`). A separate signature, so that a
   * condition on attributes alone is typed without looking into the record's fields (an association's scope of a
   * Model that refers back to it would need its own type first).
   */
  where<C extends object>(conditions: C & RecordConditions<R, C>, method?: string): this;
  where(conditions: object, method = "where"): this {
    // A plugin names its method with text; anything else is a second condition the caller meant, which would be ignored.
    if (typeof method !== "string") this.#takes("where", arguments.length, 1, "give every condition in one object");
    return this.#with({ conditions: [...this.data.conditions, ...this.#conditionsOf(conditions, method)] });
  }

  /** Narrows to rows NOT matching the whole condition; rows with NULL in a named attribute are excluded too. */
  whereNot(conditions: Conditions<AttributesOfRecord<R>> | SqlFragment): this;
  /** `whereNot` of attributes and of the record fields conditions take (see `where`). */
  whereNot<C extends object>(conditions: C & RecordConditions<R, C>): this;
  whereNot(conditions: object): this {
    this.#takes("whereNot", arguments.length, 1);
    const compiled = this.#conditionsOf(conditions, "whereNot");
    // Nothing to negate: as where({}) narrows nothing, whereNot({}) excludes nothing.
    if (compiled.length === 0) return this;
    const negated: Condition = { kind: "not", conditions: compiled };
    return this.#with({ conditions: [...this.data.conditions, negated, ...this.#notNullOf(compiled)] });
  }

  /**
   * With several conditions, NOT (a = ? AND b IS NULL) would keep a row whose `a` is NULL; each attribute compared
   * with a value is required to be non-NULL, as with one condition, where SQL's NULL comparison already does it.
   */
  #notNullOf(compiled: readonly Condition[]): Condition[] {
    if (compiled.length < 2) return [];
    const compared = new Set(compiled.flatMap((condition) => (condition.kind === "null" || !("attribute" in condition) ? [] : [condition.attribute])));
    return [...compared].map((attribute) => ({ kind: "not", conditions: [{ kind: "null", attribute }] }));
  }

  #orderTerms(order: object): OrderTerm[] {
    refuseUninspectable(`${this.model.name}.order`, ORDERING, order);
    if (order instanceof SqlFragment) return [{ kind: "sql", fragment: order }];
    const model = this.model;
    if (typeof order === "string") throw new TypeError(`${model.name}.order: a plain string is not accepted; build the order with sql\`...\``);
    if (!isPlainObject(order)) throw argumentError(`${model.name}.order`, ORDERING, order);
    return Object.entries(order).map(([name, value]) => {
      const attribute = attributeNamed(model, name);
      // A direction often comes from the query string (`?dir=desc`): one refused is bad input when a request can send it.
      const target = { model: model.model, attribute: attribute.name };
      if (typeof value !== "string" && !isPlainObject(value)) {
        throw refusedValueError(`${model.name}.order: ${name} takes "asc", "desc" or { direction, nulls }, not ${previewText(value)}`, value, target);
      }
      const given = (typeof value === "string" ? { direction: value } : value) as { direction?: unknown; nulls?: unknown };
      // "ASC" and "DESC" are read too, as Rails reads them.
      const direction = typeof given.direction === "string" ? given.direction.toLowerCase() : given.direction;
      const { nulls } = given;
      if (direction !== "asc" && direction !== "desc") {
        throw refusedValueError(`${model.name}.order: ${name} must be "asc" or "desc", not ${previewText(direction)}`, given.direction, target);
      }
      if (nulls !== undefined && nulls !== "first" && nulls !== "last") {
        throw refusedValueError(`${model.name}.order: nulls of ${name} must be "first" or "last"`, nulls, target);
      }
      return { kind: "attribute" as const, attribute, direction, ...(nulls ? { nulls } : {}) };
    });
  }

  /** Adds ordering: `{ attribute: 'asc' | 'desc' | { direction, nulls } }` or an `sql` fragment. */
  order(order: Ordering<AttributesOfRecord<R>> | SqlFragment): this {
    this.#takes("order", arguments.length, 1, "give every attribute in one object: order({ a: \"asc\", b: \"desc\" })");
    return this.#with({ order: [...this.data.order, ...this.#orderTerms(order)] });
  }

  /** Replaces the ordering; `reorder()` removes it. */
  reorder(order?: Ordering<AttributesOfRecord<R>> | SqlFragment): this {
    this.#takes("reorder", arguments.length, 1, "give every attribute in one object: reorder({ a: \"asc\", b: \"desc\" })");
    return this.#with({ order: order === undefined ? [] : this.#orderTerms(order) });
  }

  /** Refuses the arguments a method would ignore (see `refuseExtraArguments`). */
  #takes(method: string, given: number, taken: number, instead?: string): void {
    // The message is made only for a refusal: these are the hot paths of queries.
    if (given > taken) refuseExtraArguments(`${this.model.name}.${method}`, given, taken, instead);
  }

  #count(value: unknown, method: string): number {
    return countArgument(`${this.model.name}.${method}`, value);
  }

  /** At most `count` rows. */
  limit(count: number): this {
    this.#takes("limit", arguments.length, 1);
    return this.#with({ limit: this.#count(count, "limit") });
  }

  /** Skips `count` rows. */
  offset(count: number): this {
    this.#takes("offset", arguments.length, 1);
    return this.#with({ offset: this.#count(count, "offset") });
  }

  /**
   * Loads only these attributes (plus the primary key), added to those of an earlier `select` as Rails adds them;
   * reading another throws `MissingAttribute`. With no name there would be no column to select.
   */
  select(...names: [AttributeName<AttributesOfRecord<R>>, ...AttributeName<AttributesOfRecord<R>>[]]): this {
    const model = this.model;
    if (names.length === 0) throw new TypeError(`${model.name}.select needs at least one attribute name`);
    const added = names.map((name) => attributeNamed(model, name, "select"));
    return this.#with({ select: [...new Set([...(this.data.select ?? []), ...added])] });
  }

  /** Removes duplicate rows; the primary key is then not added to a `select`, so records cannot be saved. */
  distinct(): this {
    this.#takes("distinct", arguments.length, 0);
    return this.#with({ distinct: true });
  }

  /** Matches nothing, without querying; chaining keeps it empty. */
  none(): this {
    this.#takes("none", arguments.length, 0);
    return this.#with({ none: true });
  }

  /**
   * Runs the `relation:plan` hooks: the reads that join the batch of the SELECT that loads this Relation's records
   * (its preloads, a plugin's own), each selecting by a subquery of it. Sync; sends nothing. The paths of `includes`
   * no hook planned stay `pending`. `source` is that SELECT when it is not this Relation's own for `purpose` (the
   * read of a preload), and `purpose` what the records are loaded for (`load` unless told).
   */
  plan({ purpose = "load", source }: { purpose?: LoadPurpose; source?: QuerySource } = {}): ReadPlan {
    const model = this.model;
    if (this.data.includes.length === 0 && !model.hooks.has("relation:plan")) return NOTHING_PLANNED;
    const pending = new Set(this.data.includes);
    const reads: PlannedRead[] = [];
    if (model.hooks.has("relation:plan")) {
      // The reads select keys of the source's rows: its computed columns would be computed again for nothing.
      const ownSource = (params: ParamWriter) => joinSelect(selectParts({ ...this.data, columns: [] }, model, params, purpose));
      model.hooks.callSync("relation:plan", { relation: this, source: source ?? ownSource, purpose, pending, reads });
    }
    return { reads, pending, limit: this.data.limit };
  }

  /**
   * Throws for a path of `includes` that no hook planned nor preloads, before any query is sent (the
   * `relation:preload` hooks get no records).
   */
  async checkIncludes(plan: ReadPlan): Promise<void> {
    if (plan.pending.size > 0) await this.preload([], plan);
  }

  /** Runs the `relation:preload` hooks for the paths of `includes` the plan left pending, on loaded records. */
  async preload(records: readonly object[], plan: ReadPlan): Promise<void> {
    if (plan.pending.size === 0) return;
    const model = this.model;
    const pending = new Set(plan.pending);
    // Called with no records too, so that an unknown name fails whatever the data (hooks send no query then).
    if (model.hooks.has("relation:preload")) await model.hooks.callHook("relation:preload", { relation: this, records, pending });
    if (pending.size > 0) throw new TypeError(`${model.name}.includes: ${previewList([...pending], shortText)} is not an association of ${model.name}`);
  }

  /**
   * Loads records with `select` (this Relation's SELECT unless given) and the plan's reads in one round trip, after
   * the `before` Statements (whose results come back too); each read receives its result once the records are. The
   * reads a receiver asks for next go in one more round trip, and so on until none is left. For a Relation the
   * prepare stage gave (`prepareLoad`): its SELECT is compiled as it is, not prepared again.
   */
  async loadPlanned(plan: ReadPlan, select: Statement<any[]> = this.toSelect(compileSelect(this.data, this.model)), before: readonly Statement[] = []): Promise<{ records: any[]; before: unknown[] }> {
    if (plan.reads.length === 0 && before.length === 0) return { records: await this.run(select), before: [] };
    const database = await this.database();
    const results = await database.runAll([...before, select, ...plan.reads.map((read) => read.statement)]);
    const records = results[before.length] as any[];
    const planned = records.slice(0, plan.limit);
    let followUps = receiveAll(plan.reads, results.slice(before.length + 1), planned);
    while (followUps.length > 0) followUps = receiveAll(followUps, await database.runAll(followUps.map((read) => read.statement)), planned);
    return { records, before: results.slice(0, before.length) };
  }

  /**
   * The SQL and bound values `toArray()` would send; values unfiltered. Runs the prepare stage as `toArray()` does;
   * throws `TypeError` when a plugin's `relation:prepare` must await work (use `toArray()`).
   */
  toSql(): SqlQuery {
    const { sql, params } = this.#compiledNow("toSql()");
    return { sql, params };
  }

  /** This Relation's SELECT, compiled after the prepare stage, which a sync `method` cannot await. */
  #compiledNow(method: string) {
    const prepared = prepareRelationNow(this, "load", method, "use await toArray() instead");
    return compileSelect(prepared.data, prepared.model);
  }

  /**
   * The Statement that loads this Relation's records (for plugins and batches); `query` replaces its SQL (a
   * preload's), to be read as this Relation's rows, and `purpose` is what `records:load` is told they are for.
   * Without `query`, its SQL is compiled after the prepare stage, as `toSql()`'s is.
   */
  toSelect(query: SqlQuery & Pick<Partial<Statement>, "sources"> = this.#compiledNow("toSelect()"), purpose: LoadPurpose = "load"): Statement<any[]> {
    return new Statement(query, this.model, "rows", (rows, _meta, database) => this.recordsOf(rows, database, purpose), boundDatabase(this.modelClass));
  }

  /**
   * This Relation's records made from rows D1 returned (`database` is the one the query ran on, which the records
   * keep), through the load stage (`records:load`, once for all of them, for `purpose`): for a plugin's own query
   * whose rows carry more than the records (`defineStatement`'s `read`). A promise only when a load hook returned one.
   */
  recordsOf(rows: readonly Record<string, unknown>[], database: StatementDatabase, purpose: LoadPurpose = "load"): R[] | Promise<R[]> {
    const model = this.model;
    const Class = unboundModel(this.modelClass);
    // distinct() does not add the primary key: such records cannot be saved, reloaded or destroyed.
    const loaded = loadedAttributes(this.data, model);
    const records = rows.map((row) => instantiate(Class, model, row, database, loaded));
    return runLoadStage(model, records, records, rows, purpose);
  }

  /** The database this Relation queries: the bound one, the one `withDatabase` opened, or the Model's binding. */
  database(): Database | Promise<Database> {
    return databaseFor(this.modelClass as unknown as { name: string; binding?: string });
  }

  /** Runs a Statement on this Relation's database. */
  run<T>(statement: Statement<T>): Promise<T> {
    // A bound Model or withDatabase gives the database at once: no turn of the event loop is spent waiting for it.
    const database = this.database();
    return database instanceof Promise ? database.then((found) => found.run(statement)) : database.run(statement);
  }

  /** Loads the records. */
  async toArray(): Promise<R[]> {
    this.#takes("toArray", arguments.length, 0, "narrow or page the Relation first (where, limit, paginate)");
    if (this.data.none) return [];
    // Every load stage: relation:prepare and relation:preparePlan, relation:plan, the check of includes, the SELECT
    // with the planned reads in one round trip (each row through record:hydrate, the records through records:load),
    // then relation:preload.
    const pending = prepareLoad(this, "load");
    const relation = pending instanceof Promise ? await pending : pending;
    const plan = relation.plan();
    await relation.checkIncludes(plan);
    const { records } = await relation.loadPlanned(plan);
    await relation.preload(records, plan);
    return records;
  }

  #notFound(message: string): RecordNotFound {
    return new RecordNotFound(`${this.model.name}: ${message}`);
  }

  /**
   * The record with this primary key (`RecordNotFound` if none). Finding a list or several ids at once is the
   * findMany plugin's.
   */
  async find(id: unknown): Promise<R>;
  /** Several ids or a list: refused unless the findMany plugin is registered, whose overloads type the results. */
  async find(...ids: unknown[]): Promise<R | R[]>;
  async find(...ids: unknown[]): Promise<R | R[]> {
    const key = this.model.primaryKey;
    for (const id of ids) refuseUnfitValue(`${this.model.name}.find: ${key.name}`, id, { model: this.model.model, attribute: key.name });
    // As in Rails, find() names no record to find: it is not find([]), the empty list.
    if (ids.length === 0) throw this.#notFound(`find needs an id`);
    const [id] = ids;
    if (ids.length > 1 || Array.isArray(id)) throw new TypeError(`${this.model.name}.find takes one id; register the findMany plugin to find several`);
    const record = this.data === EMPTY_RELATION ? await this.#findByKey(id) : await this.findBy({ [key.name]: id } as Conditions<AttributesOfRecord<R>>);
    // Ids show as cast errors show values: briefly, hidden when filtered, and never failing on one JSON cannot write (10n).
    if (!record) throw this.#notFound(`no record with ${key.name} ${previewValue(key, id)}`);
    return record;
  }

  // A Relation with no description looks the key up with SQL compiled once per Model.
  #findByKey(id: unknown): Promise<R | null> | null {
    const model = this.model;
    if (id === undefined) throw new CastError(`${model.name}.find: the id is undefined`, model.model, model.primaryKey.name, id);
    const key = id === null ? UNCASTABLE : castConditionValue(model.primaryKey, id);
    if (key === UNCASTABLE || key === null) return null;
    if (model.hooks.has("relation:plan") || model.hooks.has("relation:prepare")) return this.loadKey(key, (rows, _meta, database) => this.recordsOf(rows, database), "load").then(([record]) => record ?? null);
    const Class = unboundModel(this.modelClass);
    return this.run(findByKeyStatement(model, key, (rows, _meta, database) => (rows[0] === undefined ? null : loadOne(Class, model, rows[0], database))));
  }

  /**
   * @internal The records of the row whose primary key is `key` (as stored), read by `read`, when a plugin prepares
   * or plans loads (`find(id)`'s, `reload()`'s): the lookup is a load as any other, through the prepare stage and the
   * plan for `purpose`, by the SQL compiled once per Model unless a hook rewrote the lookup (its key's condition, a
   * default scope's).
   */
  async loadKey(key: unknown, read: StatementReader<any[]>, purpose: "load" | "reload"): Promise<any[]> {
    const model = this.model;
    const lookup = this.#with(keyLookup(model, key));
    const pending = prepareLoad(lookup, purpose);
    const relation = pending instanceof Promise ? await pending : pending;
    const select = relation === lookup ? findByKeyStatement(model, key, read, purpose) : new Statement(compileSelect(relation.data, model, purpose), model, "rows", read);
    return (await relation.loadPlanned(relation.plan({ purpose }), select)).records;
  }

  /** The first record matching the conditions, or null. */
  async findBy(conditions: Conditions<AttributesOfRecord<R>>): Promise<R | null>;
  /** `findBy` of attributes and of the record fields conditions take (see `where`). */
  async findBy<C extends object>(conditions: C & RecordConditions<R, C>): Promise<R | null>;
  async findBy(conditions: object): Promise<R | null> {
    this.#takes("findBy", arguments.length, 1, "give every condition in one object");
    return await this.where(conditions, "findBy").take();
  }

  /** The first record matching the conditions, or `RecordNotFound`. */
  async findByOrThrow(conditions: Conditions<AttributesOfRecord<R>>): Promise<R>;
  /** `findByOrThrow` of attributes and of the record fields conditions take (see `where`). */
  async findByOrThrow<C extends object>(conditions: C & RecordConditions<R, C>): Promise<R>;
  async findByOrThrow(conditions: object): Promise<R> {
    this.#takes("findByOrThrow", arguments.length, 1, "give every condition in one object");
    const record = await this.where(conditions, "findByOrThrow").take();
    if (!record) throw this.#notFound(`no record matches the conditions`);
    return record;
  }

  #ordered(): this {
    return this.data.order.length > 0 ? this : this.#with({ order: primaryKeyOrder(this.model) });
  }

  /** One record, without ordering; null if none. A `limit(0)` stays empty. */
  async take(): Promise<R | null>;
  /** Up to `count` records, without ordering (Rails' `take(n)`), never more than the Relation's own `limit`. */
  async take(count: number): Promise<R[]>;
  async take(...count: unknown[]): Promise<R | R[] | null> {
    return await this.#takeOf("take", count);
  }

  /** The first record by the Relation's order, else by primary key; null if none. */
  async first(): Promise<R | null>;
  /** The first `count` records by the Relation's order, else by primary key (Rails' `first(n)`). */
  async first(count: number): Promise<R[]>;
  async first(...count: unknown[]): Promise<R | R[] | null> {
    return await this.#ordered().#takeOf("first", count);
  }

  /**
   * What `take` and `first` give: one record or null, or, given a count (a whole number from 0), a list of at most
   * that many. Within the Relation's own `limit`: reading records never widens the Relation (`limit(0)` stays empty).
   */
  async #takeOf(method: string, count: readonly unknown[]): Promise<R | R[] | null> {
    this.#takes(method, count.length, 1);
    const many = count.length === 1 ? this.#count(count[0], method) : undefined;
    const wanted = many ?? 1;
    const records = await this.limit(Math.min(this.data.limit ?? wanted, wanted)).toArray();
    return many === undefined ? (records[0] ?? null) : records;
  }

  /** Attributes a record built from this Relation starts with: its equality conditions. */
  scopeAttributes(): Record<string, unknown> {
    const attributes: Record<string, unknown> = {};
    for (const condition of this.data.conditions) {
      if (condition.kind === "equal") attributes[condition.attribute.name] = condition.attribute.type.fromDatabase(condition.value);
      if (condition.kind === "null") attributes[condition.attribute.name] = null;
    }
    return attributes;
  }

  /**
   * Builds a record that starts with this Relation's equality conditions, then takes `attributes`, which replace them
   * (a `belongsTo` given by name replaces its foreign key's condition, as in Rails).
   */
  build(attributes: RecordAssignment<R> = {}): R {
    this.#takes("build", arguments.length, 1);
    assertAttributeObject(this.model, attributes, "build");
    const Class = this.modelClass as unknown as { build(attributes: object): R & { [STATE]: RecordState } };
    const given = attributes as Record<string, unknown>;
    const names = Object.keys(given);
    if (names.every((name) => this.model.byName.has(name))) return Class.build({ ...this.scopeAttributes(), ...given });
    // A field that is no attribute (a belongsTo by name) is assigned after the conditions, so that it replaces the key
    // they give. The attributes go to build as well, which picks a subclass by its type attribute, and are given
    // again with that field, so that giving both it and its key is refused.
    const record = Class.build({ ...this.scopeAttributes(), ...Object.fromEntries(names.filter((name) => this.model.byName.has(name)).map((name) => [name, given[name]])) });
    writeAttributes(record, record[STATE], given, "build");
    return record;
  }

  /** Builds and saves a record that starts with this Relation's equality conditions, then takes `attributes`. */
  async create(attributes: RecordAssignment<R> = {}): Promise<R> {
    this.#takes("create", arguments.length, 1);
    const record = this.build(attributes) as R & SavingRecord;
    await record.save();
    return record;
  }

  /** As `create`, throwing `RecordInvalid` or `RecordNotSaved` when refused. */
  async createOrThrow(attributes: RecordAssignment<R> = {}): Promise<R> {
    this.#takes("createOrThrow", arguments.length, 1);
    const record = this.build(attributes) as R & SavingRecord;
    await record.saveOrThrow();
    return record;
  }

  /** Prints the Relation's SQL and params, without sending the query. */
  toString(): string {
    try {
      return `#<Relation ${this.model.name} ${printQuery(this.#compiledNow("toString()"))}>`;
    } catch (error) {
      // Printing must never throw: a plugin's compile hook may refuse what it holds.
      return `#<Relation ${this.model.name} (cannot compile: ${error instanceof Error ? error.message : previewText(error)})>`;
    }
  }

  /** Serializes as printed: a Relation's JSON never holds a filtered value. */
  toJSON(): string {
    return this.toString();
  }

  /** What `console.log` and `util.inspect` print in Node: the same text as `toString()`; sends no query. */
  [INSPECT](): string {
    return this.toString();
  }
}
