import {
  type AnyModel,
  anyMatch,
  attributeNamed,
  type AttributeName,
  type AttributesOfModel,
  type AttributesOfRecord,
  type Conditions,
  compiledStatement,
  countOf,
  definePlugin,
  prepareRelation,
  queryOfParts,
  refuseExtraArguments,
  quoteIdentifier,
  type RecordConditions,
  type RecordOfModel,
  type Relation,
  runLoadStage,
  selectParts,
  type StatementReader,
} from "../kernel/index.js";

/** One or more attribute names, as `pluck(a, b, ...)` takes them (it throws `TypeError` when given none). */
export type AttributeNames<A> = readonly [AttributeName<A>, ...AttributeName<A>[]];

/** A row of `pluck(a, b, ...)`: the tuple of the named attributes' values. */
export type PluckedRow<A, K extends AttributeNames<A>> = { -readonly [I in keyof K]: A[K[I]] };

type Row = Record<string, unknown>;

/** What `ids` gives: the type of the `id` attribute, the usual primary key, or unknown for a Model without one. */
export type IdOf<A> = A extends { id: infer K } ? K : unknown;

/** Refuses the arguments a calculation would ignore, each of which would change the answer. */
function takes(relation: Relation, method: string, given: number, taken: number, instead?: string): void {
  refuseExtraArguments(`${relation.model.name}.${method}`, given, taken, instead);
}

/** The values of one attribute, or tuples of several, for `pluck` and the methods built on it (named in errors). */
async function plucked(given: Relation, names: string[], method: string): Promise<unknown[]> {
  const model = given.model;
  if (names.length === 0) throw new TypeError(`${model.name}.${method} needs at least one attribute name`);
  if (given.description.none) return [];
  const attributes = names.map((name) => attributeNamed(model, name, method));
  const pending = prepareRelation(given, "pluck");
  const relation = pending instanceof Promise ? await pending : pending;
  const parts = selectParts(relation.description, model, undefined, "pluck");
  // Each column once (rows are read by column name), so that no number of names passes D1's limit on columns.
  parts.columns = [...new Set(attributes.map((a) => quoteIdentifier(a.column)))].join(", ");
  const read = (row: Row) => attributes.map((a) => (row[a.column] == null ? null : a.type.fromDatabase(row[a.column])));
  const values = (rows: Row[]) => rows.map((row) => (names.length === 1 ? read(row)[0] : read(row)));
  // The rows go through the load stage as a load's do (a decryption), then each value through its attribute's type.
  const loaded: StatementReader<unknown[]> = (rows) => {
    const done = runLoadStage(model, rows, [], rows, "pluck");
    return done instanceof Promise ? done.then(values) : values(done);
  };
  return await relation.run(compiledStatement(queryOfParts(parts), model, loaded));
}

/** The values of one attribute, or the tuple of several, of the first row by the Relation's order: Rails' `pick`. */
async function pick(this: Relation, ...names: string[]): Promise<unknown> {
  const [first] = await plucked(this.limit(Math.min(this.description.limit ?? 1, 1)), names, "pick");
  return first ?? null;
}

/** The primary keys of the matching rows: Rails' `ids`. */
async function ids(this: Relation): Promise<unknown[]> {
  takes(this, "ids", arguments.length, 0);
  return await plucked(this, [this.model.primaryKey.name], "ids");
}

/**
 * Calculations on a Relation or Model: `count`, `size`, `exists`, `isEmpty`, `hasAny`, `pluck`, `pick` and `ids`. Each is
 * one query that reads only what it answers. They are the kernel's `countOf` and `anyMatch`, which other plugins call
 * directly, whether or not this one is registered.
 */
export const calculations = definePlugin({
  name: "calculations",
  relationMethods: {
    async count(this: Relation) {
      // Rails' count(column) counts the rows where it is not NULL: read as none, a column would count every row.
      takes(this, "count", arguments.length, 0, `to count the rows where an attribute is set: ${this.model.name}.whereNot({ name: null }).count()`);
      return await countOf(this);
    },
    async size(this: Relation) {
      takes(this, "size", arguments.length, 0);
      return await countOf(this);
    },
    async exists(this: Relation, conditions?: object) {
      takes(this, "exists", arguments.length, 1, "give every condition in one object");
      return await anyMatch(arguments.length === 0 ? this : this.where(conditions!, "exists"));
    },
    async isEmpty(this: Relation) {
      takes(this, "isEmpty", arguments.length, 0);
      return !(await anyMatch(this));
    },
    async hasAny(this: Relation) {
      takes(this, "hasAny", arguments.length, 0);
      return await anyMatch(this);
    },
    async pluck(this: Relation, ...names: string[]) {
      return await plucked(this, names, "pluck");
    },
    pick,
    ids,
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** The values of one attribute of every matching row, or (given several names) a tuple of them per row. */
    pluck<K extends AttributeName<AttributesOfRecord<R>>>(name: K): Promise<AttributesOfRecord<R>[K][]>;
    pluck<const K extends AttributeNames<AttributesOfRecord<R>>>(...names: K): Promise<PluckedRow<AttributesOfRecord<R>, K>[]>;
    /** `pluck` of one matching row (the first by the Relation's order, if it has one): a value or tuple, null if none matches. */
    pick<K extends AttributeName<AttributesOfRecord<R>>>(name: K): Promise<AttributesOfRecord<R>[K] | null>;
    pick<const K extends AttributeNames<AttributesOfRecord<R>>>(...names: K): Promise<PluckedRow<AttributesOfRecord<R>, K> | null>;
    /** The primary keys of the matching rows, `pluck` of the key (typed as the `id` attribute, when the Model has one). */
    ids(): Promise<IdOf<AttributesOfRecord<R>>[]>;
    /** The number of matching rows (`SELECT COUNT(*)`). */
    count(): Promise<number>;
    /** Whether a row matches (these conditions too, when given); reads at most one row. */
    exists(conditions?: Conditions<AttributesOfRecord<R>>): Promise<boolean>;
    /** `exists` with conditions on the fields a plugin lets them take (`where({ author: user })`). */
    exists<C extends object>(conditions: C & RecordConditions<R, C>): Promise<boolean>;
    /** The number of matching rows, as `count()`. */
    size(): Promise<number>;
    /** Whether no row matches. */
    isEmpty(): Promise<boolean>;
    /** Whether a row matches. */
    hasAny(): Promise<boolean>;
  }

  interface PluginStatics<A> {
    /** `all().pluck(...)`. */
    pluck<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(this: M, name: K): Promise<AttributesOfModel<M>[K][]>;
    pluck<M extends AnyModel, const K extends AttributeNames<AttributesOfModel<M>>>(this: M, ...names: K): Promise<PluckedRow<AttributesOfModel<M>, K>[]>;
    /** `all().pick(...)`. */
    pick<M extends AnyModel, K extends AttributeName<AttributesOfModel<M>>>(this: M, name: K): Promise<AttributesOfModel<M>[K] | null>;
    pick<M extends AnyModel, const K extends AttributeNames<AttributesOfModel<M>>>(this: M, ...names: K): Promise<PluckedRow<AttributesOfModel<M>, K> | null>;
    /** `all().ids()`. */
    ids<M extends AnyModel>(this: M): Promise<IdOf<AttributesOfModel<M>>[]>;
    /** `all().count()`. */
    count(): Promise<number>;
    /** `all().exists(conditions)`. */
    exists<M extends AnyModel>(this: M, conditions?: Conditions<AttributesOfModel<M>>): Promise<boolean>;
    /** `all().exists(conditions)`, with conditions on the fields a plugin lets them take. */
    exists<M extends AnyModel, C extends object>(this: M, conditions: C & RecordConditions<RecordOfModel<M>, C>): Promise<boolean>;
    /** `all().size()`. */
    size(): Promise<number>;
    /** `all().isEmpty()`. */
    isEmpty(): Promise<boolean>;
    /** `all().hasAny()`. */
    hasAny(): Promise<boolean>;
  }
}
